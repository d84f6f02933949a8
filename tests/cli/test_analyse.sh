#!/bin/bash
# tests/cli/test_analyse.sh -- `ashes analyse GAME` (and `analyze`): the
# bot's analysis of a game the real ashesd played to its end (--once over
# a folder of unsigned mails), printed for the operator.  The same text
# twice (deterministic), every move with its two figures, the three
# biggest drops and the turning point; and each printed position, run as
# the `ashes think` line it is printed as, gives exactly the "before"
# figure printed for its ply: anyone can repeat the analysis.
set -u
: "${ASHES_SRCDIR:=$(cd "$(dirname "$0")/../.." && pwd)}"
. "$ASHES_SRCDIR/tests/lib.sh"
t_tmp
unset ASHES_DB ASHES_NOW
db=$tmp/ashes.db
conf=$tmp/ashesd.conf
mkdir "$tmp/mail"
{
	t_conf "$tmp/mail" "$db" "$tmp/gnupg"
	printf 'require_signature = no\n'
} >"$conf"

# send WHO TEXT: a mail from WHO's registered address, read by ashesd.
mails=0
send() {
	mails=$((mails + 1))
	printf 'From: %s@example.org\nTo: ashes@club.example\nSubject: ashes\nMessage-ID: <an-%d@example.org>\nDate: %s\n\n%s\n' \
		"$1" "$mails" "$(date -R)" "$2" >"$tmp/mail/$mails.eml"
	t_once "$conf" "$1: $2"
}

for p in alice bob; do
	"$ashes" player add "$p" "$p@example.org" --config "$conf" >/dev/null
done
send alice "challenge bob size=3"
send bob "accept 1"
# A whole game on a board of 3, which Black wins on the board at ply 11.
moves="d4-d5 b3-b4 c3-b2 c3-d3 c3-e5 d3-a3 b2-b3 b4-e4 e5-b2 a3-a1 d5-e5"
ply=0
for m in $moves; do
	ply=$((ply + 1))
	if [ $((ply % 2)) -eq 1 ]; then who=alice; else who=bob; fi
	send "$who" "move 1 $ply $m"
done
run game show 1 --db "$db"
t_is "the game is over" 1 "$(printf '%s\n' "$out" | grep -c 'finished')"

run analyse 1 --db "$db"
t_is "analyse exit" 0 "$rc"
first=$out
printf '%s\n' "$out" >"$tmp/analysis"
run analyze 1 --db "$db"
t_is "analyze: the same analysis, the same text" "0:$first" "$rc:$out"
t_is "the game, its players and result" 1 \
	"$(grep -c '^Game 1: alice (white) - bob (black), ' "$tmp/analysis")"
t_is "every move with its chances" 11 \
	"$(grep -cE '^  [0-9]+\. (alice|bob) \((white|black)\) [a-e][0-9]-[a-e][0-9]  [01]\.[0-9]{3} -> [01]\.[0-9]{3} \([-+][01]\.[0-9]{3}\)' "$tmp/analysis")"
t_is "every position as an ashes think line" 11 \
	"$(grep -cE '^  ply [0-9]+: ashes think --size 3 --variant tax=removed --playouts 400 --seed 1( [a-e][0-9]-[a-e][0-9])*$' "$tmp/analysis")"
t_is "the biggest drops, at most three" yes \
	"$(n=$(grep -cE '^  [123]\. ply [0-9]+, (alice|bob): ' "$tmp/analysis"); [ "$n" -ge 1 ] && [ "$n" -le 3 ] && echo yes || echo "$n")"
t_is "a turning point in one sentence" 1 "$(grep -c '^Turning point' "$tmp/analysis")"
t_is "the budget and the seed said" 1 \
	"$(grep -c '^How the figures are made: each position is searched by the bot, 400$' "$tmp/analysis")"

# Each position's line, run, prints the "before" figure of its ply.
ok=0
for ply in 1 2 6 11; do
	line=$(sed -n "s/^  ply $ply: ashes think //p" "$tmp/analysis")
	before=$(sed -nE "s/^  $ply\. [a-z]+ \([a-z]+\) [a-e0-9-]+  ([01]\.[0-9]{3}) -> .*/\1/p" "$tmp/analysis")
	# shellcheck disable=SC2086
	chance=$("$ashes" think $line | sed -nE 's/^chance: ([01]\.[0-9]{3}) .*/\1/p')
	t_is "ply $ply: ashes think repeats the chance printed" "$before" "$chance"
done
# "after" of a move is one minus the opponent's "before" of the next.
a1=$(sed -nE 's/^  1\. [a-z]+ \([a-z]+\) [a-e0-9-]+  [01]\.[0-9]{3} -> ([01]\.[0-9]{3}) .*/\1/p' "$tmp/analysis")
b2=$(sed -nE 's/^  2\. [a-z]+ \([a-z]+\) [a-e0-9-]+  ([01]\.[0-9]{3}) -> .*/\1/p' "$tmp/analysis")
t_is "after = 1 - the next before" yes \
	"$(awk -v a="$a1" -v b="$b2" 'BEGIN { d = a + b - 1; print (d < 0.0015 && d > -0.0015) ? "yes" : a " " b }')"
# The last move ended the game (White's, which lost it): its "after" is
# the result itself.
t_is "the last move's after is the result" 1 "$(grep -cE '^  11\. alice \(white\) d5-e5  [01]\.[0-9]{3} -> 0\.000 ' "$tmp/analysis")"

# Another budget and seed, as the options say; refusals.
run analyse 1 --playouts 50 --seed 9 --db "$db"
t_is "--playouts and --seed" 0:1 "$rc:$(printf '%s\n' "$out" | grep -c -- '--playouts 50 --seed 9 d4-d5$')"
run analyse 7 --db "$db"
t_is "no such game" "1:ashes analyse: no game 7" "$rc:$err"
run analyse --playouts none 1 --db "$db"
t_is "a bad budget" 1 "$rc"
t_end
