#!/bin/bash
# tests/cli/test_club.sh -- the operator's commands for the club's
# competitions: `ashes ladder show|history|move`, `ashes league show` and
# `ashes ratings [--recompute]`, on a ladder of a configuration file that
# the real ashesd runs (--once over a folder of unsigned mails, the club
# reading them by their registered From address): its timer brings the
# listed members in, two ladder games are played by mail to their end and
# rated, and the commands must show, move, refuse and recompute exactly.
set -u
: "${ASHES_SRCDIR:=$(cd "$(dirname "$0")/../.." && pwd)}"
. "$ASHES_SRCDIR/tests/lib.sh"
t_tmp
unset ASHES_DB ASHES_NOW
db=$tmp/ashes.db
conf=$tmp/ashesd.conf

# The daemon's configuration: one ladder of three on boards of 3, unsigned
# mail read (require_signature = no), replies left in the outbox.
mkdir "$tmp/mail"
{
	t_conf "$tmp/mail" "$db" "$tmp/gnupg"
	cat <<EOF
require_signature = no
[ladder main]
members = alice, bob, carol
size = 3
EOF
} >"$conf"

# ashesd once: the mail in the folder, then its timer.
daemon() {
	t_once "$conf" "$1"
}

# ladder_is WHAT FIRST SECOND THIRD: the ladder's places now.
ladder_is() {
	run ladder show main --config "$conf"
	t_is "$1" "  1. $2
  2. $3
  3. $4" "$(printf '%s\n' "$out" | sed -n '2,4p')"
}

# send WHO TEXT: a mail from WHO's registered address, read by ashesd.
mails=0
send() {
	mails=$((mails + 1))
	printf 'From: %s@example.org\nTo: ashes@club.example\nSubject: %s\nMessage-ID: <club-%d@example.org>\nDate: %s\n\n%s\n' \
		"$1" "$2" "$mails" "$(date -R)" "$2" >"$tmp/mail/$mails.eml"
	daemon "$1: $2"
}

# Without ladders yet.
run ratings --db "$db"
t_is "ratings on an empty database" "0:No ratings yet." "$rc:$out"
run ratings --recompute --db "$db"
t_is "recompute on an empty database" "0:ratings recomputed from 0 rated game(s)" "$rc:$out"

for p in alice bob carol dave; do
	"$ashes" player add "$p" "$p@example.org" --config "$conf" >/dev/null
done
run ladder show main --config "$conf"
t_is "before the daemon's timer: nobody has joined" "0:Ladder main (0 members, rated):" "$rc:$(printf '%s\n' "$out" | head -1)"
daemon "the members join"

# (The rules below the standings are the service's words, tested there.)
show_main="Ladder main (3 members, rated):
  1. alice
  2. bob
  3. carol"
run ladder show main --config "$conf"
t_is "ladder show: the members in the configuration's order" "0:$show_main" "$rc:$(printf '%s\n' "$out" | sed -n '1,4p')"
run --config "$conf" ladder show main
t_is "ladder show: --config before the command" "0:$show_main" "$rc:$(printf '%s\n' "$out" | sed -n '1,4p')"
run ladder show main --db "$db"
t_is "ladder show without the configuration" '1:ashes ladder show: no ladder "main" in the configuration' "$rc:$err"

# The history's times are the daemon's; the rest is exact.
history() { # the history, each line's time as TIME
	run ladder history main --config "$conf"
	out=$(printf '%s\n' "$out" | sed 's/^\([0-9]*\)  [0-9-]* [0-9:]* UTC  /\1  TIME  /')
}
history
t_is "ladder history: the members joined, by the daemon" "0:1  TIME  alice joined  [daemon]: listed in the configuration
2  TIME  bob joined  [daemon]: listed in the configuration
3  TIME  carol joined  [daemon]: listed in the configuration" "$rc:$out"

# The operator moves carol to the top, at ASHES_NOW (ten minutes from
# the clock's now, so that the log shows which of the two it took).
T=$(($(date +%s) + 600))
T_UTC=$(date -u -d "@$T" '+%Y-%m-%d %H:%M:%S UTC')
ASHES_NOW=$T run ladder move main carol 1 --note "seeded" --config "$conf"
t_is "ladder move" "0:ladder main: carol moved from place 3 to 1" "$rc:$out"
ladder_is "ladder show after the move" carol alice bob
run ladder history main --config "$conf"
t_is "ladder history: the move, at ASHES_NOW, the operator's, with the note" \
	"4  $T_UTC  carol put at place 1  [operator]: seeded" "$(printf '%s\n' "$out" | tail -1)"

# Refused, changing nothing.
history
history_before=$out
refuse() { # refuse NAME EXPECTED-ERR ARGS...
	local name=$1 expected=$2
	shift 2
	ASHES_NOW=$T run "$@"
	t_is "refused: $name" "1:$expected" "$rc:$err"
}
usage='usage: ashes ladder show NAME | ladder history NAME | ladder move NAME PLAYER POS [--note TEXT] [--config FILE] [--db PATH]'
refuse "no such ladder" 'ashes ladder move: no ladder "nope" in the configuration' \
	ladder move nope carol 1 --config "$conf"
refuse "a player not a member" 'ashes ladder move: dave is no member of ladder main' \
	ladder move main dave 1 --config "$conf"
refuse "no such player" 'ashes ladder move: no player "zed"' \
	ladder move main zed 1 --config "$conf"
refuse "POS past the end" 'ashes ladder move: ladder main has places 1 to 3' \
	ladder move main carol 4 --config "$conf"
refuse "POS far past the end" 'ashes ladder move: ladder main has places 1 to 3' \
	ladder move main carol 99999999999999999999 --config "$conf"
for pos in 0 -1 x 1.5 +1 "" " 2" 2x 00; do
	refuse "POS '$pos'" "ashes ladder move: POS is a place from 1 (the top), not $pos" \
		ladder move main carol "$pos" --config "$conf"
done
refuse "without POS" "$usage" ladder move main carol --config "$conf"
refuse "a word too many" "$usage" ladder move main carol 1 2 --config "$conf"
refuse "show with --note" "$usage" ladder show main --note x --config "$conf"
refuse "no subcommand" "$usage" ladder --config "$conf"
refuse "unknown subcommand" "$usage" ladder frob main --config "$conf"
refuse "history without NAME" "$usage" ladder history --config "$conf"
run ladder show nope --config "$conf"
t_is "ladder show: no such ladder" '1:ashes ladder show: no ladder "nope" in the configuration' "$rc:$err"
ASHES_NOW=soon run ladder move main carol 1 --config "$conf"
t_is "ladder move: a bad ASHES_NOW" "1:ashes ladder move: ASHES_NOW is not a number of seconds: soon" "$rc:$err"
history
t_is "the refusals changed no place and logged nothing" "$history_before" "$out"
ladder_is "the refusals changed no place" carol alice bob

# Two ladder games, played by mail to their end: the daemon rates them.
# play GAME CHALLENGER DEFENDER: the defender accepts, four plies (the
# fewest a rated game has), the loser resigns.
play() {
	local game=$1 challenger=$2 defender=$3 loser=$4 white black moves="" m
	send "$challenger" "ladder challenge main $defender"
	send "$defender" "accept $game"
	white=$("$ashes" games --all --db "$db" | awk -v g="$game" '$1 == g { print $3 }')
	black=$("$ashes" games --all --db "$db" | awk -v g="$game" '$1 == g { print $4 }')
	t_is "game $game: $challenger against $defender" \
		"$(printf '%s\n' "$challenger" "$defender" | sort | tr '\n' ' ')" \
		"$(printf '%s\n' "$white" "$black" | sort | tr '\n' ' ')"
	for ply in 1 2 3 4; do
		# shellcheck disable=SC2086
		m=$("$ashes" legal --size 3 $moves | head -1)
		if [ $((ply % 2)) -eq 1 ]; then
			send "$white" "move $game $ply $m"
		else
			send "$black" "move $game $ply $m"
		fi
		moves="$moves $m"
	done
	send "$loser" "resign $game"
	run games --all --db "$db"
	t_is "game $game finished after 4 plies" "finished 4" \
		"$(printf '%s\n' "$out" | awk -v g="$game" '$1 == g { print $2, $5 }')"
	result=$(printf '%s\n' "$out" | awk -v g="$game" '$1 == g { print $6 }')
}
# bob (3rd) beats carol (1st) and takes her place; alice (3rd then)
# beats bob and takes his.
play 1 bob carol carol
result1=$result
ladder_is "a challenger's win moves the ladder" bob carol alice
play 2 alice bob bob
result2=$result
ladder_is "a second challenger's win" alice bob carol
history
t_is "ladder history: the games, by mail and by the daemon" "5  TIME  bob challenged carol (game 1)  [mail, inbound 1]
6  TIME  carol accepted game 1  [mail, inbound 2]
7  TIME  game 1: bob beat carol  [daemon]: $result1
8  TIME  alice challenged bob (game 2)  [mail, inbound 8]
9  TIME  bob accepted game 2  [mail, inbound 9]
10  TIME  game 2: alice beat bob  [daemon]: $result2" \
	"$(printf '%s\n' "$out" | tail -n +5)"

# The ratings the daemon gave, and the same rebuilt from the games.
run ratings --config "$conf"
t_is "ratings: three players rated" "0:3" "$rc:$(printf '%s\n' "$out" | wc -l)"
t_is "ratings: bob played both games, provisional" 1 \
	"$(printf '%s\n' "$out" | grep -c '^[123]\. bob [0-9]*? RD [0-9]*, 2 game(s)$')"
ratings_daemon=$out
raw() { sqlite3 "$db" "SELECT player_id, r, rd, vol FROM ratings ORDER BY player_id"; }
have_sqlite=no
command -v sqlite3 >/dev/null 2>&1 && have_sqlite=yes
[ $have_sqlite = yes ] && raw_daemon=$(raw)
run ratings --recompute --config "$conf"
t_is "ratings --recompute" "0:ratings recomputed from 2 rated game(s)" "$rc:$out"
run ratings --config "$conf"
t_is "recomputed: the same ratings" "$ratings_daemon" "$out"
run ratings --recompute --db "$db"
t_is "ratings --recompute again" "0:ratings recomputed from 2 rated game(s)" "$rc:$out"
run ratings --db "$db"
t_is "recomputed twice: the same ratings" "$ratings_daemon" "$out"
if [ $have_sqlite = yes ]; then
	t_is "recomputed: the same numbers, to the last digit" "$raw_daemon" "$(raw)"
	# Ratings gone wrong are rebuilt from the games, not kept.
	sqlite3 "$db" "UPDATE ratings SET r = 1000, rd = 60, games = 9"
	run ratings --db "$db"
	t_is "ratings damaged" no "$([ "$out" = "$ratings_daemon" ] && echo yes || echo no)"
	run ratings --recompute --db "$db"
	t_is "recompute after the damage" "0:ratings recomputed from 2 rated game(s)" "$rc:$out"
	t_is "recompute rebuilt the numbers" "$raw_daemon" "$(raw)"
	run ratings --db "$db"
	t_is "recompute rebuilt the ratings shown" "$ratings_daemon" "$out"
else
	echo "# SKIP: no sqlite3 to compare the stored numbers"
fi
run ratings extra --db "$db"
t_is "ratings: a word too many" "1:usage: ashes ratings [--recompute] [--config FILE] [--db PATH]" "$rc:$err"
run ratings --bogus --db "$db"
t_is "ratings: an unknown option" "1:ashes ratings: unknown option --bogus" "$rc:$(printf '%s\n' "$err" | head -1)"

# Leagues: none in the ladder's configuration; one whose first season
# has begun (ashesd's timer begins it, creating its games) and one whose
# first season is far away, in a configuration of their own.
run league show spring --config "$conf"
t_is "league show: no such league" '1:ashes league show: no league "spring" in the configuration' "$rc:$err"
run league list --config "$conf"
t_is "league: usage" "1:usage: ashes league show NAME [--config FILE] [--db PATH]" "$rc:$err"
run league show --config "$conf"
t_is "league show without NAME" 1 "$rc"
ldb=$tmp/league.db
{
	t_conf "$tmp/mail" "$ldb" "$tmp/gnupg"
	cat <<EOF
[league spring]
members = alice, bob, carol
group_size = 3
promote = 1
relegate = 1
season_start = 2020-01-06
[league later]
members = alice, bob
season_start = 2999-01-01
EOF
} >"$tmp/league.conf"
for p in alice bob carol; do
	"$ashes" player add "$p" "$p@example.org" --db "$ldb" >/dev/null
done
run league show later --config "$tmp/league.conf"
# (The league's own words are the service's, tested there: here what
# the command shows of which league and season.)
t_is "league show: before its first season" "0:No season has begun.

League later has no season yet.
The first begins on 2999-01-01 00:00 UTC." "$rc:$(printf '%s\n' "$out" | sed -n '1,4p')"
run league show spring --config "$tmp/league.conf"
t_is "league show: a season due, not begun yet" "0:No season has begun." "$rc:$(printf '%s\n' "$out" | head -1)"
t_is "league show: when it was due" "Its first season was to begin on 2020-01-06 00:00 UTC; it begins as soon as" \
	"$(printf '%s\n' "$out" | grep '^Its first')"
"$ashesd" --once -c "$tmp/league.conf" >>"$tmp/daemon.log" 2>&1 </dev/null
t_is "ashesd --once (the league's season begins)" 0 "$?"
ASHES_NOW=$(date +%s) run league show spring --config "$tmp/league.conf"
t_is "league show: the season begun" "0:yes" \
	"$rc:$(printf '%s\n' "$out" | head -1 | grep -q '^Season [0-9]*: .* UTC to .* UTC, 3 players in 1 group(s) (begun .* UTC)\.$' && echo yes)"
t_is "league show: its group's standings" "Group 1:
1. alice 0
2. bob 0
3. carol 0" \
	"$(printf '%s\n' "$out" | sed -n '/^Group 1:/,/^$/p' | sed '/^$/d' | awk '{ print $1, $2, $3 }' | sed 's/ *$//')"
run games --db "$ldb"
t_is "the season's three games" 3 "$(printf '%s\n' "$out" | grep -c ' active ')"

t_end
