#!/bin/bash
# tests/cli/test_site.sh -- `ashes site DIR`: the club's game pages, made
# from a database that the real ashesd filled (--once over a folder of
# unsigned mails, read by their registered From address): a ladder game
# with a clock played to a resignation, with a note between the players,
# a game still running between players whose names need escaping, and a
# league's games.  The site must hold every page and board, every link
# must lead to a file (and every #anchor to an element) of the site, the
# markup must nest, whatever players wrote must be escaped, a folder that
# is no site must be left alone, and headless Chromium must render the
# index and a game page from the file system: a screenshot of the right
# size, not blank, showing the board picture, and no console errors.
set -u
: "${ASHES_SRCDIR:=$(cd "$(dirname "$0")/../.." && pwd)}"
. "$ASHES_SRCDIR/tests/lib.sh"
t_tmp
unset ASHES_DB ASHES_NOW
db=$tmp/ashes.db
conf=$tmp/ashesd.conf
site=$tmp/site

if ! command -v python3 >/dev/null 2>&1; then
	echo "1..0 # SKIP: no python3 to read the pages"
	exit 77
fi

# A ladder of three on boards of 3 with a clock, and a league whose first
# season began long ago (the daemon's timer begins it); unsigned mail.
mkdir "$tmp/mail"
{
	t_conf "$tmp/mail" "$db" "$tmp/gnupg"
	cat <<EOF
require_signature = no
[ladder main]
members = alice, bob, carol
size = 3
clock = days:3
[league spring]
members = alice, bob
group_size = 2
promote = 1
relegate = 1
season_start = 2020-01-06
EOF
} >"$conf"

daemon() {
	t_once "$conf" "$1"
}

# send WHO TEXT: a mail from WHO's registered address, read by ashesd.
mails=0
send() {
	mails=$((mails + 1))
	printf 'From: %s@example.org\nTo: ashes@club.example\nSubject: game\nMessage-ID: <site-%d@example.org>\nDate: %s\n\n%s\n' \
		"$1" "$mails" "$(date -R)" "$2" >"$tmp/mail/$mails.eml"
	daemon "$1: $2"
}

# The games' numbers, in the order `ashes games --all` lists them.
games_col() { # games_col COLUMN
	"$ashes" games --all --db "$db" | awk -v c="$1" '$1 ~ /^[0-9]+$/ { print $c }'
}

# An empty database makes a site too: an index saying so.
run site "$tmp/empty" --db "$tmp/empty.db"
t_is "site of an empty database" "0:$tmp/empty: 0 game page(s) and the index" "$rc:$out"
t_is "the empty site: its marker and index" ".ashes-site index.html" \
	"$(cd "$tmp/empty" && ls -A | tr '\n' ' ' | sed 's/ $//')"
t_is "the empty site says there is no game" 1 \
	"$(grep -c 'No game has been played yet' "$tmp/empty/index.html")"

for p in alice bob carol; do
	"$ashes" player add "$p" "$p@example.org" --config "$conf" >/dev/null
done
# Names a page must escape.
"$ashes" player add 'eve<b>&"x' eve@example.org --config "$conf" >/dev/null
daemon "the members join, the league's season begins"
league_games=$(games_col 1 | wc -l)
t_is "the league's game" 1 "$league_games"

# A ladder game: four plies (a note between them), then a resignation.
send bob "ladder challenge main alice"
g1=$(games_col 1 | tail -1)
send alice "accept $g1"
white=$(games_col 3 | tail -1)
black=$(games_col 4 | tail -1)
moves=""
for ply in 1 2 3 4; do
	# shellcheck disable=SC2086
	m=$("$ashes" legal --size 3 $moves | head -1)
	if [ $((ply % 2)) -eq 1 ]; then who=$white; else who=$black; fi
	send "$who" "move $g1 $ply $m"
	moves="$moves $m"
	if [ $ply -eq 2 ]; then
		send "$who" "message $g1 <script>alert(1)</script> & \"so\" 'it' goes"
	fi
done
send "$white" "resign $g1"
t_is "the ladder game finished" "finished 4" \
	"$("$ashes" games --all --db "$db" | awk -v g="$g1" '$1 == g { print $2, $5 }')"

# A game still running, with a player whose name needs escaping.
send eve "challenge carol size=4"
g2=$(games_col 1 | tail -1)
send carol "accept $g2"
w2=$(games_col 3 | tail -1)
m2=$("$ashes" legal --size 4 | head -1)
if [ "$w2" = carol ]; then send carol "move $g2 1 $m2"; else send eve "move $g2 1 $m2"; fi
# A note while it runs: for the players, not for the site (issue 22, 14b).
send carol "message $g2 running-game-secret-note"
t_is "the running game" "active 1" \
	"$("$ashes" games --all --db "$db" | awk -v g="$g2" '$1 == g { print $2, $5 }')"
all_games=$(games_col 1 | sort -n | tr '\n' ' ')
t_is "three games" 3 "$(printf '%s\n' $all_games | wc -l)"

# ---- the site ----------------------------------------------------------
run site "$site" --config "$conf"
t_is "ashes site" "0:$site: 3 game page(s) and the index" "$rc:$out"
t_is "ashes site: nothing on stderr" "" "$err"
for g in $all_games; do
	t_is "game $g: its page" yes "$([ -f "$site/game-$g.html" ] && echo yes)"
done
plies() { ls "$site/game-$1" | sort -t- -k2 -n | tr '\n' ' ' | sed 's/ $//'; }
t_is "game $g1: a board before the first ply and after each" \
	"ply-0.svg ply-1.svg ply-2.svg ply-3.svg ply-4.svg" "$(plies "$g1")"
t_is "game $g2: two boards" "ply-0.svg ply-1.svg" "$(plies "$g2")"
t_is "a board is an SVG picture" 1 "$(head -c 200 "$site/game-$g1/ply-4.svg" | grep -c '^<svg xmlns="http://www.w3.org/2000/svg"')"
t_is "the last board shows the resignation" 1 "$(grep -c '>Black wins<' "$site/game-$g1/ply-4.svg")"
t_is "the board before it does not" 0 "$(grep -c ' wins<' "$site/game-$g1/ply-3.svg")"

# What the pages say, as text (python3's html.parser, tags and script
# left out, entities decoded).
cat >"$tmp/text.py" <<'EOF'
import sys
from html.parser import HTMLParser
class P(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.out, self.skip = [], 0
    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style"):
            self.skip += 1
        if tag in ("tr", "p", "dt", "h1", "h2", "figcaption", "pre", "li"):
            self.out.append("\n")
        if tag in ("td", "th", "dd"):
            self.out.append("|")
    def handle_endtag(self, tag):
        if tag in ("script", "style"):
            self.skip -= 1
    def handle_data(self, data):
        if not self.skip:
            self.out.append(data)
p = P()
p.feed(open(sys.argv[1], encoding="utf-8").read())
for line in "".join(p.out).split("\n"):
    line = " ".join(line.split())
    if line:
        print(line)
EOF
text() { python3 "$tmp/text.py" "$1"; }

index=$(text "$site/index.html")
# Newest first, each with its players, status and competition.
t_is "index: every game, newest first" \
	"$(printf '%s\n' $all_games | sort -rn | sed 's/^/Game /' | tr '\n' ' ')" \
	"$(printf '%s\n' "$index" | grep -o '^|Game [0-9]*' | sed 's/^|//' | tr '\n' ' ')"
t_is "index: the ladder game's row" \
	"|Game $g1|$white|$black|finished|0-1 (resignation)|4" \
	"$(printf '%s\n' "$index" | grep "^|Game $g1|" | sed 's/|[0-9-]* [0-9:]* UTC.*//')"
t_is "index: the ladder game's competition" 1 \
	"$(printf '%s\n' "$index" | grep "^|Game $g1|" | grep -c '|ladder main$')"
t_is "index: the league's game" 1 \
	"$(printf '%s\n' "$index" | grep -c '|league spring, season [0-9]*, group 1$')"
t_is "index: names escaped and shown as written" 1 \
	"$(printf '%s\n' "$index" | grep "^|Game $g2|" | grep -c '^|Game [0-9]*|\(eve<b>&"x|carol\|carol|eve<b>&"x\)|active|')"
t_is "index: no raw markup from a name" 0 "$(grep -c 'eve<b>' "$site/index.html")"
t_is "index: the ladder's standings, as ashes ladder show" \
	"$("$ashes" ladder show main --config "$conf" | head -4 | sed 's/^ *//')" \
	"$(printf '%s\n' "$index" | sed -n '/^Ladder main (/,+3p')"
t_is "index: the league's standings" 1 "$(printf '%s\n' "$index" | grep -c '^League spring$')"
t_is "index: the ratings, as ashes ratings" \
	"$("$ashes" ratings --config "$conf")" \
	"$(printf '%s\n' "$index" | sed -n '/^Ratings$/,$p' | sed 1d | grep -v '^Made ')"

page=$(text "$site/game-$g1.html")
t_is "game page: the players" "White|$white
Black|$black" "$(printf '%s\n' "$page" | grep '^White|\|^Black|')"
t_is "game page: the result and how" 1 \
	"$(printf '%s\n' "$page" | grep -c "^Result|0-1: $black (Black) won by resignation\$")"
t_is "game page: the variant" 1 "$(printf '%s\n' "$page" | grep -c '^Variant|size=3 tax=removed$')"
t_is "game page: the clock and what is left" 1 \
	"$(printf '%s\n' "$page" | grep -c '^Clock|days:3[^;]*; time left: White [0-9dhms ]*, Black [0-9dhms ]*$')"
t_is "game page: the competition" 1 "$(printf '%s\n' "$page" | grep -c '^Competition|ladder main$')"
t_is "game page: the move list" \
	"$(i=0; for m in $moves; do i=$((i + 1)); if [ $((i % 2)) -eq 1 ]; then w=$white; else w=$black; fi; printf '|%d|%s|%s|\n' $i "$m" "$w"; done)" \
	"$(printf '%s\n' "$page" | grep '^|[0-9]*|' | sed 's/|[0-9-]* [0-9:]* UTC$/|/')"
t_is "game page: the note, escaped" 1 \
	"$(printf '%s\n' "$page" | grep -c "after ply 2, .* UTC: <script>alert(1)</script> & \"so\" 'it' goes\$")"
t_is "game page: a note isolated from the text around it (bidi)" 1 \
	"$(grep -c '<bdi>&lt;script&gt;alert(1)&lt;/script&gt;' "$site/game-$g1.html")"
t_is "game page: no script but its own" 1 "$(grep -c '<script' "$site/game-$g1.html")"
t_is "game page: no archive yet, how to make one" 1 \
	"$(printf '%s\n' "$page" | grep -c "ashes archive export $g1 -o archive/game-$g1.tar.gz.*ashes archive verify")"
t_is "game page: no link to a missing archive" 0 "$(grep -c 'href="archive/' "$site/game-$g1.html")"
page2=$(text "$site/game-$g2.html")
t_is "running game page: its names escaped" 1 \
	"$(grep -c '<h1>Game '"$g2"': [^<]*&lt;b&gt;&amp;&quot;x' "$site/game-$g2.html")"
t_is "running game page: no clock" 1 "$(printf '%s\n' "$page2" | grep -c '^Clock|none$')"
t_is "running game page: its note not shown" 0 \
	"$(grep -c 'running-game-secret-note' "$site/game-$g2.html" "$site/index.html" | awk -F: '{ n += $2 } END { print n }')"
t_is "running game page: says when notes are shown" 1 \
	"$(printf '%s\n' "$page2" | grep -c "The players' notes are published here once the game is over.")"
# [site] notes = never: not even the finished game's.
sed 's/^\[ladder main\]$/[site]\nnotes = never\n&/' "$conf" >"$tmp/never.conf"
run site "$tmp/never" --config "$tmp/never.conf"
t_is "notes = never: the site is made" 0 "$rc"
t_is "notes = never: no note of the finished game" 0 \
	"$(grep -c 'alert(1)' "$tmp/never/game-$g1.html")"
t_is "notes = never: the page says so" 1 \
	"$(grep -c "This club does not publish the players' notes." "$tmp/never/game-$g1.html")"

# Every link and picture leads to a file of the site, every #anchor to an
# element of its page; every element closed that must be, none closed
# that is not open.
cat >"$tmp/links.py" <<'EOF'
import os, sys
from html.parser import HTMLParser
from urllib.parse import urlparse, unquote
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link",
        "meta", "source", "track", "wbr"}
class P(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack, self.ids, self.refs, self.errors = [], set(), [], []
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if "id" in a:
            if a["id"] in self.ids:
                self.errors.append("id %s twice" % a["id"])
            self.ids.add(a["id"])
        for k in ("href", "src", "data"):
            if a.get(k) is not None:
                self.refs.append((tag, a[k]))
        if tag == "img" and not a.get("alt"):
            self.errors.append("img without alt")
        if tag not in VOID:
            self.stack.append((tag, self.getpos()))
    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag not in VOID:
            self.stack.pop()
    def handle_endtag(self, tag):
        if not self.stack or self.stack[-1][0] != tag:
            self.errors.append("</%s> at line %d closes %s" % (tag,
                self.getpos()[0], "<%s> of line %d" % (self.stack[-1][0],
                self.stack[-1][1][0]) if self.stack else "nothing"))
            return
        self.stack.pop()
bad = 0
root = sys.argv[1]
for name in sorted(os.listdir(root)):
    if not name.endswith(".html"):
        continue
    p = P()
    text = open(os.path.join(root, name), encoding="utf-8").read()
    p.feed(text)
    p.close()
    if not text.startswith("<!DOCTYPE html>"):
        p.errors.append("no doctype")
    for t, pos in p.stack:
        p.errors.append("<%s> of line %d never closed" % (t, pos[0]))
    for tag, ref in p.refs:
        u = urlparse(ref)
        if u.scheme or u.netloc or ref.startswith("/"):
            p.errors.append("not relative: " + ref)
            continue
        if u.path and not os.path.isfile(os.path.join(root, unquote(u.path))):
            p.errors.append("no file for <%s> %s" % (tag, ref))
        if u.fragment and not u.path and u.fragment not in p.ids:
            p.errors.append("no element for #" + u.fragment)
    for e in p.errors:
        print("%s: %s" % (name, e))
        bad += 1
print("%d pages checked, %d problems" % (len(
    [x for x in os.listdir(root) if x.endswith(".html")]), bad))
EOF
t_is "every link leads to the site, every tag nests" \
	"4 pages checked, 0 problems" "$(python3 "$tmp/links.py" "$site")"
# libxml2's HTML parser too, where there is one: it knows no HTML5
# element (section, main, ...), and nothing else may trouble it.
if command -v xmllint >/dev/null 2>&1; then
	t_is "xmllint --html: no error but the HTML5 elements it does not know" "" \
		"$(xmllint --html --noout "$site"/*.html 2>&1 | grep ' error : ' |
			grep -v 'error : Tag \(header\|main\|section\|figure\|figcaption\|footer\|nav\|bdi\) invalid$')"
	printf '<!DOCTYPE html>\n<p title="a & b">x</p>\n' >"$tmp/amp.html"
	t_is "xmllint --html: would see an ampersand unescaped" 1 \
		"$(xmllint --html --noout "$tmp/amp.html" 2>&1 | grep -c ' error : ')"
else
	echo "# SKIP: no xmllint (libxml2-utils): the pages were read by python3 alone"
fi
t_is "game page: a link to each board's anchor" \
	"ply-0 ply-1 ply-2 ply-3 ply-4" \
	"$(grep -o 'id="ply-[0-9]*"' "$site/game-$g1.html" | sed 's/id="//; s/"//' | tr '\n' ' ' | sed 's/ $//')"
t_is "game page: each board's picture" 5 "$(grep -c '<img src="game-'"$g1"'/ply-[0-4].svg"' "$site/game-$g1.html")"
# The checker itself finds a broken link and a tag left open.
mkdir "$tmp/broken"
printf '<!DOCTYPE html>\n<p><a href="nowhere.html">x</a> <img src="b.svg" alt="b"><div>\n</p>\n' >"$tmp/broken/index.html"
t_is "the checker finds what is broken" "index.html: </p> at line 3 closes <div> of line 2
index.html: <p> of line 2 never closed
index.html: <div> of line 2 never closed
index.html: no file for <a> nowhere.html
index.html: no file for <img> b.svg
1 pages checked, 5 problems" "$(python3 "$tmp/links.py" "$tmp/broken")"

# Run again: the same site; a board of a ply since taken back goes; the
# archive, once there, is linked; what is not ours stays.
touch "$site/game-$g1/ply-9.svg"
mkdir "$site/archive"
echo archive >"$site/archive/game-$g1.tar.gz"
cp "$site/game-$g2.html" "$tmp/game2.before"
run site "$site" --config "$conf"
t_is "ashes site again" 0 "$rc"
t_is "the board of a ply taken back is gone" "ply-0.svg ply-1.svg ply-2.svg ply-3.svg ply-4.svg" "$(plies "$g1")"
t_is "the archive linked" 1 "$(grep -c "<a href=\"archive/game-$g1.tar.gz\">" "$site/game-$g1.html")"
t_is "with how to check it" 1 "$(text "$site/game-$g1.html" | grep -c "ashes archive verify game-$g1.tar.gz")"
t_is "the archive left alone" archive "$(cat "$site/archive/game-$g1.tar.gz")"
t_is "links still whole" "4 pages checked, 0 problems" "$(python3 "$tmp/links.py" "$site")"
t_is "a game page the same but its time" "" \
	"$(diff <(sed 's/Made [^<]* by/Made by/' "$tmp/game2.before") <(sed 's/Made [^<]* by/Made by/' "$site/game-$g2.html"))"
t_is "no file left half-written" 0 "$(find "$site" -name '*.tmp' | wc -l)"

# ASHES_NOW: the time the pages were made.
ASHES_NOW=86400 run site "$site" --config "$conf"
t_is "made at ASHES_NOW" 1 "$(grep -c 'Made Friday 2 January 1970, 00:00 UTC by' "$site/index.html")"

# Refused, leaving things as they were.
mkdir "$tmp/mine"
echo mine >"$tmp/mine/notes.txt"
run site "$tmp/mine" --config "$conf"
t_is "a folder that is no site is refused" \
	"1:ashes site: $tmp/mine is not empty and is no site made by ashes site (it has no .ashes-site): left as it is" \
	"$rc:$err"
t_is "and left alone" "notes.txt" "$(ls -A "$tmp/mine")"
run site "$tmp/mine/notes.txt" --config "$conf"
t_is "a file is refused" "1:ashes site: $tmp/mine/notes.txt is not a folder" "$rc:$err"
run site "$tmp/no/such" --config "$conf"
t_is "a folder in a missing one" "1:ashes site: $tmp/no/such: No such file or directory" "$rc:$err"
run site --config "$conf"
t_is "site without DIR" "1:usage: ashes site DIR [--language L] [--config FILE] [--db PATH]" "$rc:$err"
run site a b --config "$conf"
t_is "site with two folders" 1 "$rc"
run site "$tmp/x" --all --config "$conf"
t_is "site with an option of another command" 1 "$rc"
t_is "nothing made for a refused command" no "$([ -e "$tmp/x" ] && echo yes || echo no)"
mkdir "$tmp/ro" && chmod 500 "$tmp/ro"
if [ "$(id -u)" != 0 ]; then
	run site "$tmp/ro" --config "$conf"
	t_is "a folder that cannot be written" 1 "$rc"
fi

# ---- --language: the pages in the templates' language ------------------
# label LANG: the <dt> before the game page's created_long in LANG's
# game.html ("en": the English one), read from the template.
label() {
	local f=$ASHES_SRCDIR/templates/site/game.html
	[ "$1" = en ] || f=$ASHES_SRCDIR/templates/$1/site/game.html
	sed -n 's#^<dt>\(.*\)</dt><dd>{{created_long}}</dd>$#\1#p' "$f"
}
# cal LANG KEY: a name of LANG's calendar.txt.
cal() { sed -n "s/^$2 = //p" "$ASHES_SRCDIR/templates/$1/calendar.txt"; }
created=$(sqlite3 "$db" "SELECT created FROM games WHERE id = $g1")
month=$(date -u -d "@$created" +%-m)
weekday=$(date -u -d "@$created" +%u)
en_link=$(sed -n 's#.*<a href="{{page|html}}">\([^{]*\){{game}}</a>.*#\1#p' "$ASHES_SRCDIR/templates/site/index.html")
for l in de ko; do
	run site "$tmp/site-$l" --language "$l" --config "$conf"
	t_is "site --language $l" "0:$tmp/site-$l: $(ls "$site"/game-*.html | wc -l) game page(s) and the index" "$rc:$out"
	t_is "... <html lang=\"$l\"> on the index and a game page" 2 \
		"$(cat "$tmp/site-$l/index.html" "$tmp/site-$l/game-$g1.html" | grep -c "^<html lang=\"$l\">$")"
	lab=$(label "$l")
	t_ok_if "... $l's label read from its template ($lab)" test -n "$lab" -a "$lab" != "$(label en)"
	dd=$(sed -n "s#.*<dt>$lab</dt><dd>\([^<]*\)</dd>.*#\1#p" "$tmp/site-$l/game-$g1.html")
	t_ok_if "... the game page says when it began in $l: $dd" test -n "$dd"
	t_has "... the month in $l's calendar" "$(cal "$l" "month_$month")" "$dd"
	t_has "... the weekday in $l's calendar" "$(cal "$l" "weekday_$weekday")" "$dd"
	t_is "... no English label" 0 "$(grep -c "<dt>$(label en)</dt>" "$tmp/site-$l/game-$g1.html")"
	link=$(sed -n 's#.*<a href="{{page|html}}">\([^{]*\){{game}}</a>.*#\1#p' "$ASHES_SRCDIR/templates/$l/site/index.html")
	t_is "... the index links the game in $l ($link$g1)" 1 \
		"$(grep -c -F ">$link$g1</a>" "$tmp/site-$l/index.html")"
	t_is "... not in English ($en_link$g1)" 0 \
		"$(grep -c -F ">$en_link$g1</a>" "$tmp/site-$l/index.html")"
	t_is "... the game's status in $l's words" 1 \
		"$(grep -c -F "<dd>$(sed -n 's/^finished = //p' "$ASHES_SRCDIR/templates/$l/words.txt")</dd>" "$tmp/site-$l/game-$g1.html")"
done
t_is "the English site's pages: <html lang=\"en\">" 1 "$(grep -c '^<html lang="en">$' "$site/index.html")"
# A language the templates lack: refused, its folder not made.
run site "$tmp/site-xx" --language xx --config "$conf"
t_is "site --language xx: refused, naming the languages there are" \
	"1:ashes site: no templates in language xx (there are: en de ko)" "$rc:$err"
t_is "... nothing made" no "$([ -e "$tmp/site-xx" ] && echo yes || echo no)"
# File by file: an operator's language of one page; the others English.
mkdir -p "$tmp/tpl/fr/site"
sed 's#<h1>#<h1 class="fr">#' "$ASHES_SRCDIR/templates/site/index.html" >"$tmp/tpl/fr/site/index.html"
{ cat "$conf"; printf '[templates]\ndir = %s\n' "$tmp/tpl"; } >"$tmp/fr.conf"
run site "$tmp/site-fr" --language fr --config "$tmp/fr.conf"
t_is "site --language fr, only index.html translated" 0 "$rc"
t_is "... its index from fr/site/index.html" 1 "$(grep -c '<h1 class="fr">' "$tmp/site-fr/index.html")"
t_is "... the game page the English one, <html lang=\"fr\">" "1 $(label en)" \
	"$(grep -c '^<html lang="fr">$' "$tmp/site-fr/game-$g1.html") $(sed -n 's#.*<dt>\([^<]*\)</dt><dd>[^<]*</dd>.*#\1#p' "$tmp/site-fr/game-$g1.html" | grep -x -F "$(label en)")"

# ---- headless Chromium ---------------------------------------------------
chromium=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$chromium" ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
	echo "# installing chromium (apt-get install -y chromium)"
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium \
		>"$tmp/apt.log" 2>&1 ||
		{ apt-get update -qq >>"$tmp/apt.log" 2>&1 &&
		  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium \
			>>"$tmp/apt.log" 2>&1; }
	chromium=$(command -v chromium || true)
fi
if [ -z "$chromium" ]; then
	echo "# SKIP: no chromium, and it could not be installed (apt-get install -y chromium): the pages were not rendered"
	t_end
	exit
fi

# The PNG's size and how many of its pixels are the pages' background
# (site/head.html's #fbfbf7, or white), the board's cells (picture.h's
# PIC_RING_EVEN and PIC_RING_ODD, #e9dcbc and #dccb9f: no page has
# them), the arrow of the last move (PIC_ARROW, #b3261e) or something
# else.
cat >"$tmp/png.py" <<'EOF'
import collections, struct, sys, zlib
data = open(sys.argv[1], "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
pos, idat, ihdr = 8, b"", None
while pos < len(data):
    n, kind = struct.unpack(">I4s", data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + n]
    if kind == b"IHDR":
        ihdr = struct.unpack(">IIBBBBB", body)
    elif kind == b"IDAT":
        idat += body
    pos += 12 + n
w, h, depth, ctype, _, _, interlace = ihdr
assert depth == 8 and ctype in (2, 6) and interlace == 0, ihdr
bpp = 3 if ctype == 2 else 4
raw, stride = zlib.decompress(idat), w * bpp
# Filter 2 (Up), nearly every line of a screenshot, bytewise a + b mod
# 256 on the whole line at once: big integers, the carries kept in each
# byte.
low = int.from_bytes(b"\x7f" * stride, "big")
high = int.from_bytes(b"\x80" * stride, "big")
prev, i, rows = bytes(stride), 0, []
for y in range(h):
    f, line = raw[i], raw[i + 1:i + 1 + stride]
    i += 1 + stride
    if f == 2:
        a, b = int.from_bytes(line, "big"), int.from_bytes(prev, "big")
        line = (((a & low) + (b & low)) ^ ((a ^ b) & high)).to_bytes(stride, "big")
    elif f != 0:
        line = bytearray(line)
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            b = prev[x]
            c = prev[x - bpp] if x >= bpp else 0
            if f == 1: line[x] = (line[x] + a) & 255
            elif f == 3: line[x] = (line[x] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pr = a if pa <= pb and pa <= pc else b if pb <= pc else c
                line[x] = (line[x] + pr) & 255
        line = bytes(line)
    rows.append(line)
    prev = line
# The colours of the pixels, counted once for each different line.
count = collections.Counter()
for line, times in collections.Counter(rows).items():
    for px, k in collections.Counter(zip(line[0::bpp], line[1::bpp], line[2::bpp])).items():
        count[px] += k * times
page = count[(255, 255, 255)] + count[(0xfb, 0xfb, 0xf7)]
cells = count[(0xe9, 0xdc, 0xbc)] + count[(0xdc, 0xcb, 0x9f)]
arrow = count[(0xb3, 0x26, 0x1e)]
print(w, h, page, cells, arrow, w * h - page - cells - arrow)
EOF
shoot() { # shoot PAGE PNG [WxH]: a screenshot (1024x768), the console
	# said into $tmp/console
	rm -f "$2"
	(cd "$tmp" && timeout 120 "$chromium" --headless --no-sandbox \
		--disable-gpu --hide-scrollbars --user-data-dir="$tmp/chrome" \
		--enable-logging=stderr --v=0 --screenshot="$2" \
		--window-size="${3:-1024,768}" "file://$1") >"$tmp/chrome.out" \
		2>"$tmp/console"
}
dom() { # dom PAGE: the document as the browser built it
	(cd "$tmp" && timeout 120 "$chromium" --headless --no-sandbox \
		--disable-gpu --user-data-dir="$tmp/chrome" --dump-dom \
		"file://$1") 2>/dev/null
}
# What the page's console said: errors, failed loads.
console_errors() {
	grep -E 'CONSOLE|Uncaught|ERR_FILE_NOT_FOUND|Failed to load|net::ERR' "$tmp/console" | grep -v 'ERR_\(CONNECTION\|NAME\|INTERNET\)' || true
}

shoot "$site/index.html" "$tmp/index.png"
t_is "chromium: a screenshot of the index" yes "$([ -s "$tmp/index.png" ] && echo yes)"
read -r w h page cells arrow other <<<"$(python3 "$tmp/png.py" "$tmp/index.png" 2>&1)"
t_is "chromium: the index at the window's size" "1024x768" "${w}x${h}"
t_is "chromium: the index is not blank: text on the page" yes \
	"$([ "${page:-0}" -gt 100000 ] && [ "${other:-0}" -gt 5000 ] && echo yes || echo "no: ${page:-?} ${other:-?}")"
t_is "chromium: no board on the index" 0 "${cells:-?}"
t_is "chromium: no console error on the index" "" "$(console_errors)"

shoot "$site/game-$g1.html" "$tmp/game.png"
t_is "chromium: a screenshot of a game page" yes "$([ -s "$tmp/game.png" ] && echo yes)"
read -r w h page cells arrow other <<<"$(python3 "$tmp/png.py" "$tmp/game.png" 2>&1)"
t_is "chromium: the game page at the window's size" "1024x768" "${w}x${h}"
# The board's cells are seen only when its <img> loaded.
t_is "chromium: the board's picture is drawn (its cells seen)" yes \
	"$([ "${cells:-0}" -gt 10000 ] && echo yes || echo "no: ${cells:-?} pixels")"
t_is "chromium: the last board, with the last ply's arrow" yes \
	"$([ "${arrow:-0}" -gt 20 ] && echo yes || echo "no: ${arrow:-?} pixels")"
t_is "chromium: no console error on the game page" "" "$(console_errors)"
# The same with a board missing: the check above would see it.
mv "$site/game-$g1/ply-4.svg" "$tmp/ply-4.svg"
shoot "$site/game-$g1.html" "$tmp/broken.png"
read -r w h page cells arrow other <<<"$(python3 "$tmp/png.py" "$tmp/broken.png" 2>&1)"
t_is "chromium: a missing board is seen missing" 0 "${cells:-?}"
mv "$tmp/ply-4.svg" "$site/game-$g1/ply-4.svg"
# One board at a time, the one its anchor names (seen in a window tall
# enough for the whole page).
shoot "$site/game-$g1.html" "$tmp/tall.png" 1024,4000
read -r w h page cells_last arrow other <<<"$(python3 "$tmp/png.py" "$tmp/tall.png" 2>&1)"
t_is "chromium: the whole page, one board, the last" "1024x4000 yes" \
	"${w}x${h} $([ "${arrow:-0}" -gt 20 ] && echo yes || echo "no: ${arrow:-?} pixels")"
shoot "$site/game-$g1.html#ply-0" "$tmp/ply0.png" 1024,4000
read -r w h page cells arrow other <<<"$(python3 "$tmp/png.py" "$tmp/ply0.png" 2>&1)"
t_is "chromium: #ply-0 shows a board" yes \
	"$([ "${cells:-0}" -gt 10000 ] && echo yes || echo "no: ${cells:-?} pixels")"
t_is "chromium: #ply-0 shows the board before the first ply alone" "0 yes" \
	"${arrow:-?} $([ "${cells:-0}" -lt $((${cells_last:-0} * 3 / 2)) ] && echo yes || echo "no: $cells pixels, $cells_last for one board")"

# The console check sees a page's errors.
printf '<!DOCTYPE html>\n<p>x</p><script>console.error("boom"); nowhere();</script>\n' >"$tmp/broken/console.html"
shoot "$tmp/broken/console.html" "$tmp/console.png"
t_is "chromium: the console check sees errors" 2 "$(console_errors | wc -l)"

dom "$site/index.html" >"$tmp/index.dom"
t_is "chromium: the index's games as the browser read them" \
	"$(printf '%s\n' $all_games | sort -rn | sed 's/.*/game-&.html/' | tr '\n' ' ')" \
	"$(grep -o '<a href="game-[0-9]*.html">' "$tmp/index.dom" | sed 's/<a href="//; s/">//' | tr '\n' ' ')"
dom "$site/game-$g1.html" >"$tmp/game.dom"
t_is "chromium: the game page's boards as the browser read them" 5 \
	"$(grep -c '<figure class="board[ a-z]*" id="ply-[0-4]">' "$tmp/game.dom")"

t_end
