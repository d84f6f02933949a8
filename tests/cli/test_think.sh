#!/bin/bash
# tests/cli/test_think.sh -- `ashes think` and `ashes play --vs-bot`: the
# shape of think's output (the move, then the candidates best first with
# visits and values), the same output for the same seed when bounded by
# playouts, its refusals, and short games against the bot through stdin.
set -u
: "${ASHES_SRCDIR:=$(cd "$(dirname "$0")/../.." && pwd)}"
. "$ASHES_SRCDIR/tests/lib.sh"
t_tmp

# think: one move line, a heading, five candidates, the chance of the
# side to move; the move is legal and is the first candidate; visits
# never grow down the list.
run think --size 5 --playouts 300 --seed 7 e5-a1
t_is "think exit" 0 "$rc"
t_is "think: lines" 8 "$(printf '%s\n' "$out" | wc -l)"
t_is "think: the chance line" 1 "$(printf '%s\n' "$out" | sed -n 8p |
	grep -cE '^chance: [01]\.[0-9]{3} \(black to move; 300 playouts, seed 7\)$')"
move=$(printf '%s\n' "$out" | sed -n 's/^move: \([a-i][0-9]*[-x][a-i][0-9]*\(\/[0-9]*\)\{0,1\}\)$/\1/p')
t_is "think: a move line" 1 "$(printf '%s\n' "$move" | grep -c .)"
"$ashes" legal --size 5 e5-a1 >"$tmp/legal"
t_is "think: the move is legal" 1 "$(grep -cxF "$move" "$tmp/legal")"
t_is "think: heading" "candidates (black to move, level 5):" \
	"$(printf '%s\n' "$out" | sed -n 2p)"
cands=$(printf '%s\n' "$out" | sed -n '3,7p')
t_is "think: candidate lines" 5 "$(printf '%s\n' "$cands" |
	grep -cE '^  [a-i][0-9]+[-x][a-i][0-9]+(/[0-9]+)? +visits +[0-9]+  value [01]\.[0-9]{3}$')"
t_is "think: the move is the first candidate" "$move" \
	"$(printf '%s\n' "$cands" | head -1 | awk '{print $1}')"
v=$(printf '%s\n' "$cands" | awk '{print $3}')
t_is "think: visits best first" "$v" "$(printf '%s\n' "$v" | sort -rn)"
t_is "think: visits add up to at most the playouts" yes \
	"$(printf '%s\n' "$v" | awk '{s += $1} END {print (s > 0 && s <= 300) ? "yes" : s}')"
first=$out
run think --size 5 --playouts 300 --seed 7 e5-a1
t_is "think: same seed, same output" "$first" "$out"

# A finished game (Black won at ply 11) has no move to think about.
run think --size 3 --playouts 200 d4-d5 b3-b4 c3-b2 c3-d3 c3-e5 d3-a3 \
	b2-b3 b4-e4 e5-b2 a3-a1 d5-e5
t_is "think: no move in a finished game" 1:yes \
	"$rc:$(case $err in *'game is over'*) echo yes ;; *) echo "$err" ;; esac)"

# Level 1 and the options' refusals.
run think --size 4 --level 1 --seed 3
t_is "think level 1 exit" 0 "$rc"
t_is "think level 1: visits 0" yes \
	"$(printf '%s\n' "$out" | sed -n 3p | grep -q 'visits       0' && echo yes)"
run think --level 9
t_is "think: bad level" "1:ashes think: level 9: not a level (1 to 5)" \
	"$rc:$(printf '%s\n' "$err" | head -1)"
run think --time soon
t_is "think: bad time" "1:ashes think: --time soon: not a duration (2s, 1500ms)" \
	"$rc:$(printf '%s\n' "$err" | head -1)"
run think --time 50ms --size 3
t_is "think --time 50ms" 0 "$rc"
run think --size 3 zz
t_is "think: a bad move is refused as elsewhere" 2 "$rc"

# played WHAT N GREP-ARG...: N lines of the game in $tmp/play match.
played() {
	local what=$1 n=$2
	shift 2
	t_is "$what" "$n" "$(grep -c "$@" "$tmp/play")"
}

# play --vs-bot: the player moves, the bot answers in words, then the
# player resigns.
printf 'c3-a1\nresign\n' |
	"$ashes" play --vs-bot 2 --playouts 20 --size 3 --seed 5 \
		>"$tmp/play" 2>&1
rc=$?
t_is "vs-bot exit" 0 "$rc"
played "vs-bot: intro" 1 '^Ashes against the bot, level 2; you play white\.'
played "vs-bot: player's move in words" 1 '^White grew a 2-stack on a1 from c3\.$'
played "vs-bot: the bot answered" 1 -E '^Black (grew|moved|split) '
played "vs-bot: resignation" 1 '^Game over at ply 2: Black wins by resignation\.$'
# As Black, the bot moves first (and that move cannot be taken back);
# undo takes back the player's move and the bot's answer.
printf 'board\nundo\nc3-c1\nundo\nresign\n' |
	"$ashes" play --vs-bot 1 --as black --size 3 --seed 5 >"$tmp/play" 2>&1
rc=$?
t_is "vs-bot --as black exit" 0 "$rc"
played "vs-bot --as black: the bot opened, then answered" 2 -E '^White (grew|moved|split) '
played "vs-bot: undo at the bot's first move" 1 '^error: nothing to undo$'
played "vs-bot: undo back to the player's turn" 3 '^Black to move, ply 2\.$'
played "vs-bot --as black: resignation" 1 '^Game over at ply 1: White wins by resignation\.$'
run play --vs-bot 0
t_is "vs-bot: bad level" "1:ashes play: level 0: not a level (1 to 5)" \
	"$rc:$(printf '%s\n' "$err" | head -1)"
run play --vs-bot 3 --as green
t_is "vs-bot: bad colour" "1:ashes play: --as green: white or black" "$rc:$err"

# help lists think.
run help
t_is "help lists think" 1 "$(printf '%s\n' "$out" | sed '/^Playing by mail/q' | grep -c '^  think ')"

t_end
