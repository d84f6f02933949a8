#!/bin/bash
# tests/archive/test_archive_event.sh -- an event's archive on games the
# real ashesd ran (--once over a folder of signed mails, no mail servers;
# tests/e2e has the event on real ones), with the operator's commands:
#   `ashes tournament show|history|pairings` of a 4-player Swiss;
#   `ashes tournament adjudicate` of a game still running (ended by the
#   service, recorded as the operator's with the note) and `withdraw`;
#   `ashes archive export --event` and `ashes archive verify`: exit 0,
#   every game verified, each result agreeing with its record, the
#   adjudication shown as having no game record, the standings and the
#   crosstable recomputed;
#   the forgeries named: a result line changed in log.txt, a changed
#   standings.txt, a game's archive removed, a MANIFEST that does not
#   match, and a log changed and re-signed with the daemon's own key
#   (only the recomputation can catch that one: the daemon's word against
#   the players' signatures).
set -u
: "${ASHES_SRCDIR:=$(cd "$(dirname "$0")/../.." && pwd)}"
. "$ASHES_SRCDIR/tests/lib.sh"
unset ASHES_DB ASHES_NOW
t_need gpg gpgv sha256sum sqlite3
t_tmp
conf=$tmp/ashesd.conf
db=$tmp/ashes.db

t_players alice bob carol dave
t_import "$tmp/daemon-gnupg" alice bob carol dave
GNUPGHOME=$tmp/daemon-gnupg gpg --batch --passphrase '' --quick-gen-key \
	'ashesd <ashes@club.example>' ed25519 sign never >/dev/null 2>&1
daemon_fpr=$(t_fpr "$tmp/daemon-gnupg")
mkdir "$tmp/mail"
{
	t_conf "$tmp/mail" "$db" "$tmp/daemon-gnupg"
	cat <<CONF
[game]
size = 4
[tournament autumn]
format = swiss
rounds = 2
members = alice, bob, carol, dave
start = 2020-01-06
CONF
} >"$conf"
t_add_players "$conf" alice bob carol dave

# send WHO BODY: a PGP/MIME mail signed by WHO, read by ashesd --once
# (which runs its timer after: results taken, rounds paired).
seq=0
send() {
	local who=$1 body=$2 f part
	seq=$((seq + 1))
	f=$tmp/mail/$seq.eml
	{
		printf 'From: %s <%s@example.org>\r\nTo: ashes@club.example\r\n' "$who" "$who"
		printf 'Subject: Re: [ashes]\r\nDate: %s\r\n' "$(date -R)"
		printf 'Message-ID: <e%d.%s@example.org>\r\nMIME-Version: 1.0\r\n' "$seq" "$who"
		part=$(printf 'Content-Type: text/plain; charset=utf-8\r\n\r\n%s\r\n' "$body"; echo x)
		part=${part%x}
		t_signed "$who" "$part"
	} >"$f.tmp"
	t_deliver "$conf" "$f"
}
# The stored games of round R: "ID WHITE BLACK" a line, by game number.
games_of() {
	sqlite3 "$db" "SELECT g.id, w.name, b.name FROM tournament_games t
		JOIN games g ON g.id = t.game_id
		JOIN players w ON w.id = g.white_id
		JOIN players b ON b.id = g.black_id
		WHERE t.tournament = 'autumn' AND t.round = $1 ORDER BY t.number" |
		tr '|' ' '
}
legal() { t_legal 4 "$@"; }

# ---- round 1: paired by the daemon, both games played and resigned ----
t_once "$conf" "the event starts: round 1 paired"
r1=$(games_of 1)
t_is "round 1: two games" 2 "$(printf '%s\n' "$r1" | grep -c .)"
read -r g1 w1 b1 <<<"$(printf '%s\n' "$r1" | sed -n 1p)"
read -r g2 w2 b2 <<<"$(printf '%s\n' "$r1" | sed -n 2p)"
m=$(legal 1); send "$w1" "move $g1 1 $m"
send "$b1" "resign $g1"
m=$(legal 2); send "$w2" "move $g2 1 $m"
m2=$(legal 1 "$m"); send "$b2" "move $g2 2 $m2"
send "$w2" "resign $g2"
r2=$(games_of 2)
t_is "round 2 paired once round 1 ended" 2 "$(printf '%s\n' "$r2" | grep -c .)"
read -r g3 w3 b3 <<<"$(printf '%s\n' "$r2" | sed -n 1p)"
read -r g4 w4 b4 <<<"$(printf '%s\n' "$r2" | sed -n 2p)"

# ---- the operator's commands -------------------------------------------
run tournament pairings autumn 1 --config "$conf"
t_is "pairings of round 1: exit 0" 0 "$rc"
t_has "pairings of round 1: board 1 with its game and result" \
	"^      1 +$g1  $w1 \\([0-9]+\\) +$b1 \\([0-9]+\\) +1-0\$" "$out"
t_has "pairings of round 1: board 2, Black won" \
	"^      2 +$g2  $w2 \\([0-9]+\\) +$b2 \\([0-9]+\\) +0-1\$" "$out"
run tournament pairings autumn --config "$conf"
t_has "pairings without ROUND: the last round, running" \
	"round 2 of 2 paired" "$out"
t_has "and its games still running" "^      1 +$g3 .* \\*\$" "$out"
run tournament pairings autumn 3 --config "$conf"
t_is "a round not paired: refused" "1:ashes tournament pairings: autumn has 2 round(s) paired, not 3" "$rc:$err"
m=$(legal 1); send "$w3" "move $g3 1 $m"
run tournament adjudicate autumn "$g4" draw --config "$conf"
t_is "adjudicate without --note: usage" 1 "$rc"
run tournament adjudicate autumn "$g4" maybe --note "x" --config "$conf"
t_is "adjudicate with no result: refused" "1:ashes tournament adjudicate: RESULT is white (1-0), black (0-1) or draw (1/2-1/2), not maybe" "$rc:$err"
run tournament adjudicate autumn "$g4" 1/2-1/2 --note "no move for a month" --config "$conf"
t_is "adjudicate a running game: exit 0" 0 "$rc"
t_is "the game ended with that result" 1 \
	"$("$ashes" games --all --config "$conf" | grep -c "^ *$g4  finished .* 1/2-1/2 ")"
run tournament withdraw autumn "$w4" --note "moved away" --config "$conf"
t_is "withdraw a player whose game is over: exit 0" 0 "$rc"
run tournament history winter --config "$conf"
t_is "history of no such event: refused" "1:ashes tournament history: the configuration has no [tournament winter]" "$rc:$err"
run tournament history autumn
t_is "history without the configuration: refused" 1 "$rc"
run tournament rename autumn --config "$conf"
t_is "no such subcommand: the usage" 1 "$rc"
t_has "the usage names every subcommand" "tournament withdraw NAME PLAYER \\[--note WHY\\]" "$err"
run tournament withdraw autumn nobody --config "$conf"
t_is "withdraw no such player: refused" 1 "$rc"
run tournament history autumn --config "$conf"
t_is "history: exit 0" 0 "$rc"
t_is "history: the first line" "ashes-event-log 1" "$(printf '%s\n' "$out" | sed -n 1p)"
t_has "history: the adjudication, the operator's, with the note" \
	"^[0-9TZ:-]+ adjudication game=4 white=[0-9]+ black=[0-9]+ outcome=draw by=operator note=no move for a month\$" "$out"
t_has "history: the withdrawal, the operator's, with the note" \
	"^[0-9TZ:-]+ withdraw round=2 player=[0-9]+ by=operator note=moved away\$" "$out"
t_has "history: a result taken by the daemon" \
	"^[0-9TZ:-]+ result game=1 white=[0-9]+ black=[0-9]+ outcome=white by=daemon note=resignation\$" "$out"
t_is "history: four joins, listed by the configuration" 4 \
	"$(printf '%s\n' "$out" | grep -c ' join player=[0-9]* rating=[0-9-]* by=daemon note=listed in the configuration$')"
t_is "history: every game number linked to its game" "game 1 $g1|game 2 $g2|game 3 $g3|game 4 $g4" \
	"$(printf '%s\n' "$out" | grep '^game ' | tr '\n' '|' | sed 's/|$//')"
# the last game: Black resigns, the event ends
send "$b3" "resign $g3"
run tournament show autumn --config "$conf"
t_is "show: exit 0" 0 "$rc"
printf '%s\n' "$out" >"$tmp/show.txt"
t_has "show: the event is over" "It is over: the final standings" "$out"
t_has "show: the standings name the tie-breaks with their values" "buchholz_cut1" "$out"

# ---- the event's archive ------------------------------------------------
run archive export --event autumn "$tmp/ev" --config "$conf"
t_is "export --event: exit 0" 0 "$rc"
t_has "export --event: the summary line" \
	"^$tmp/ev: event autumn, 4 game\\(s\\), [0-9]+ log entries, [0-9]+ files; MANIFEST signed by $daemon_fpr; public copies\$" "$out"
t_is "the folder: the games, the log, the tables, the key, MANIFEST" \
	"MANIFEST MANIFEST.asc crosstable.txt daemon-key.asc games log.txt standings.txt" \
	"$(cd "$tmp/ev" && ls | tr '\n' ' ' | sed 's/ $//')"
t_is "every game's archive" "$(printf '%s\n' "$g1" "$g2" "$g3" "$g4" | sort -n | tr '\n' ' ')" \
	"$(cd "$tmp/ev/games" && ls | sort -n | tr '\n' ' ')"
t_is "MANIFEST lists every file, the games' too" \
	"$(cd "$tmp/ev" && find . -type f | grep -cv '^\./MANIFEST')" \
	"$(wc -l <"$tmp/ev/MANIFEST")"
t_ok_if "MANIFEST checks with sha256sum -c" sh -c "cd '$tmp/ev' && sha256sum -c --quiet MANIFEST"
t_ok_if "MANIFEST.asc is the daemon's signature" sh -c \
	"gpgv --keyring '$tmp/daemon-gnupg/pubring.kbx' '$tmp/ev/MANIFEST.asc' '$tmp/ev/MANIFEST' 2>/dev/null"
t_is "log.txt is what history prints" "$("$ashes" tournament history autumn --config "$conf")" \
	"$(cat "$tmp/ev/log.txt")"
run archive export --event autumn "$tmp/ev" --config "$conf"
t_is "export into a folder that exists: refused" 1 "$rc"
run archive export --event winter "$tmp/ev2" --config "$conf"
t_is "export of no such event: refused" "1:ashes archive export --event: the configuration has no [tournament winter]" "$rc:$err"

run archive verify "$tmp/ev" --daemon-key "$daemon_fpr"
printf '%s\n' "$out" >"$tmp/verify.txt"
t_is "verify: exit 0" 0 "$rc"
t_is "verify: no discrepancy" 0 "$(grep -c '^DISCREPANCY' "$tmp/verify.txt")"
t_has "verify: the manifest" "^manifest: [0-9]+ files, every sum right; signed by $daemon_fpr, the club's key as given\$" "$out"
t_is "verify: every game's archive verified" 4 "$(grep -c '^verified: game ' "$tmp/verify.txt")"
t_has "verify: game 1's result agrees with its record" "^game $g1: 1-0 \\(White $w1, Black $b1\\), as its verified record\$" "$out"
t_has "verify: game 2's too" "^game $g2: 0-1 \\(White $w2, Black $b2\\), as its verified record\$" "$out"
t_has "verify: the adjudication has no game record to agree with" \
	"^game $g4: adjudicated 1/2-1/2 \\(White $w4, Black $b4\\) by operator, note: no move for a month: no game record to agree with" "$out"
t_has "verify: the standings recomputed" "^standings.txt: [0-9]+ lines, as the log replayed gives them\$" "$out"
t_has "verify: the crosstable recomputed" "^crosstable.txt: [0-9]+ lines, as the log replayed gives them\$" "$out"
t_has "verify: the last line" "^verified: the event's 4 game\\(s\\), its log and its standings; MANIFEST signed by the club's key $daemon_fpr\$" "$out"
run archive verify "$tmp/ev"
t_is "verify without --daemon-key: exit 3" 3 "$rc"

# ---- forgeries ----------------------------------------------------------
forge() { rm -rf "$tmp/f"; cp -r "$tmp/ev" "$tmp/f"; }
# MANIFEST made again over the forged files and signed with the daemon's
# own key: only the recomputation can tell.
resign_manifest() {
	(cd "$tmp/f" && rm MANIFEST MANIFEST.asc &&
	 find . -type f | sed 's|^\./||' | sort | xargs sha256sum >../MANIFEST.new &&
	 mv ../MANIFEST.new MANIFEST &&
	 GNUPGHOME=$tmp/daemon-gnupg gpg --batch --detach-sign --armor \
		-o MANIFEST.asc MANIFEST 2>/dev/null)
}
forge
sed -i "s/^\\(.* result game=1 white=[0-9]* black=[0-9]*\\) outcome=white/\\1 outcome=black/" "$tmp/f/log.txt"
run archive verify "$tmp/f" --daemon-key "$daemon_fpr"
t_is "a result changed in log.txt: exit 2" 2 "$rc"
t_has "a result changed in log.txt: its sum" "^DISCREPANCY: log.txt: its sha256 is not MANIFEST's\$" "$out"
t_has "a result changed in log.txt: the game's record disagrees" \
	"^DISCREPANCY: game $g1: the log says 0-1 \\(White $w1, Black $b1\\), its verified record 1-0 \\(White $w1, Black $b1\\)\$" "$out"
t_has "a result changed in log.txt: the standings no longer follow" "^DISCREPANCY: standings.txt:[0-9]+ is " "$out"
t_has "and the count on the last line" "^FAILED: [0-9]+ discrepancies\$" "$out"
resign_manifest
run archive verify "$tmp/f" --daemon-key "$daemon_fpr"
t_is "the same, re-signed by the daemon's own key: still exit 2" 2 "$rc"
t_hasnt "re-signed: MANIFEST holds" "sha256 is not MANIFEST's" "$out"
t_has "re-signed: the game's verified record still disagrees" \
	"^DISCREPANCY: game $g1: the log says 0-1 " "$out"
forge
sed -i '2s/$/ /' "$tmp/f/standings.txt"
run archive verify "$tmp/f" --daemon-key "$daemon_fpr"
t_is "a changed standings.txt: exit 2" 2 "$rc"
t_has "a changed standings.txt: its sum" "^DISCREPANCY: standings.txt: its sha256 is not MANIFEST's\$" "$out"
t_has "a changed standings.txt: the line named" "^DISCREPANCY: standings.txt:2 is \".* \"; the log replayed gives \"" "$out"
forge
rm -r "$tmp/f/games/$g2"
run archive verify "$tmp/f" --daemon-key "$daemon_fpr"
t_is "a game removed: exit 2" 2 "$rc"
t_has "a game removed: MANIFEST names its files" "^DISCREPANCY: MANIFEST lists games/$g2/record.txt, which is not in the archive\$" "$out"
t_has "a game removed: the log's result has no game" \
	"^DISCREPANCY: game $g2: the log has its result 0-1 \\(White $w2, Black $b2\\) and the archive no game of it\$" "$out"
forge
# one hex digit of the first sum changed
c=$(head -c 1 "$tmp/f/MANIFEST"); n=0; [ "$c" = 0 ] && n=1
sed -i "1s/^./$n/" "$tmp/f/MANIFEST"
run archive verify "$tmp/f" --daemon-key "$daemon_fpr"
t_is "a MANIFEST that does not match: exit 2" 2 "$rc"
t_has "a MANIFEST that does not match: its signature" "^DISCREPANCY: MANIFEST.asc: the daemon's signature does not verify" "$out"
t_has "a MANIFEST that does not match: the sum" "its sha256 is not MANIFEST's\$" "$out"
forge
echo extra >"$tmp/f/notes.txt"
run archive verify "$tmp/f" --daemon-key "$daemon_fpr"
t_has "a file added: named" "^DISCREPANCY: notes.txt is in the archive and not in MANIFEST\$" "$out"

# ---- the club's pages -----------------------------------------------------
run site "$tmp/site" --config "$conf"
t_is "site: exit 0" 0 "$rc"
t_ok_if "site: the event's page" test -f "$tmp/site/event-autumn.html"
t_has "site: the index links it" '<a href="event-autumn.html">autumn</a>' "$(cat "$tmp/site/index.html")"
t_is "site: every round" 2 "$(grep -c '^<h3 id="round-[12]">Round [12]</h3>$' "$tmp/site/event-autumn.html")"
t_has "site: the standings as show prints them" "buchholz_cut1  buchholz  direct" "$(cat "$tmp/site/event-autumn.html")"
t_has "site: the crosstable" '<section id="crosstable">' "$(cat "$tmp/site/event-autumn.html")"
t_is "site: the standings are the archive's" \
	"$(sed 's/&/\&amp;/g; s/</\&lt;/g; s/>/\&gt;/g' "$tmp/ev/standings.txt" | head -n 3)" \
	"$(sed -n '/<section id="standings">/,/<\/section>/p' "$tmp/site/event-autumn.html" | sed -n '/<pre>/,/<\/pre>/p' | sed 's/^<pre>//' | head -n 3)"

t_end
