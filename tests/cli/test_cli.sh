#!/bin/bash
# tests/cli/test_cli.sh -- runs the built `ashes` and compares its exact
# output, exit statuses and error messages with what issue 2 asks for.
set -u
: "${ASHES_SRCDIR:=$(cd "$(dirname "$0")/../.." && pwd)}"
. "$ASHES_SRCDIR/tests/lib.sh"
t_tmp

# legal: the spec's opening counts, canonical, sorted in byte order.
run legal
t_is "legal N=5 count" 384 "$(printf '%s\n' "$out" | wc -l)"
t_is "legal N=5 exit" 0 "$rc"
t_is "legal sorted, unique" "$out" "$(printf '%s\n' "$out" | sort -u)"
t_is "legal first line" "b2-a1" "$(printf '%s\n' "$out" | head -1)"
run legal --size 3
t_is "legal N=3 count" 48 "$(printf '%s\n' "$out" | wc -l)"
run legal --size=4
t_is "legal N=4 count" 162 "$(printf '%s\n' "$out" | wc -l)"
run legal --variant size=6
t_is "legal --variant size=6 count" 750 "$(printf '%s\n' "$out" | wc -l)"
run legal --size 3 C3-A1 c3e5
# W2 on a1 (tax 0) against B2 on e5, worked out by hand: whole-stack
# moves may not shrink below 0 (c3 would be -1), parts keep their size,
# and e5 is not bigger than the whole stack but bigger than a part of 1.
t_is "legal after moves (any case, no dash)" "a1-a2
a1-a2/1
a1-a3
a1-a3/1
a1-b1
a1-b1/1
a1-b2
a1-b2/1
a1-c1
a1-c1/1
a1-c3/1
a1-d4
a1-d4/1
a1xe5" "$(printf '%s\n' "$out" | grep '^a1')"

# status: exactly three lines.  Without MOVEs or options it is the
# daemon's health (tests/daemon/test_status.sh): "--" names the start.
run status --
t_is "status start" "turn: white
tax: white=0 black=0
result: ongoing" "$out"
# White grows a 2-stack, Black too, White splits, Black moves, White
# captures and spends (tax 2), Black grows, White spends its last stack
# with tax 3: eliminated.
game="c3-a1 c3-e5 a1-a3/1 e5-c5 a3xc5 c3-c1 a1-a2"
run status --size 3 $game
t_is "status after elimination" "turn: black
tax: white=3 black=0
result: black" "$out"
run legal --size 3 $game
t_is "legal: nothing when the game is over" "0:" "$rc:$out"
run status --size 3 c3-a1 c3-e5 a1-a3/1 e5-c5 a3xc5
t_is "status: capture and spend add 2" "turn: black
tax: white=2 black=0
result: ongoing" "$out"

# Illegal and malformed moves: status 2, the reason naming the ply.
run legal e5-a1 a1-e5
t_is "illegal move exit" 2 "$rc"
t_is "illegal move says ply and move" \
	"ashes legal: ply 2: a1-e5: the stack on a1 (4) is white's, and it is black's turn" "$err"
t_is "illegal move: nothing on stdout" "" "$out"
run status e5-a1 zz
t_is "malformed move" "2:ashes status: ply 2: zz: not a move: write FROM-TO or FROM-TO/K" "$rc:$err"
run legal e5-z9
t_is "unknown cell exit" 2 "$rc"
case $err in "ashes legal: ply 1: e5-z9: "*) r=yes ;; *) r=$err ;; esac
t_is "unknown cell names ply 1" yes "$r"
run legal pass
t_is "pass where none is forced" 2 "$rc"
run legal swap
t_is "swap without the variant" 2 "$rc"
run legal --size 14
t_is "bad size" 1 "$rc"
run legal --variant colour=red
t_is "bad variant" 1 "$rc"

# swap: listed at ply 2 of a swap game, and playable.
run legal --variant swap e5-a1
t_is "swap listed" "swap" "$(printf '%s\n' "$out" | grep -x swap)"
# The players exchange colours; Black is still the colour to move.
run status --variant swap e5-a1 swap
t_is "after swap" "0:turn: black
tax: white=0 black=0
result: ongoing" "$rc:$out"

# Forced passes: after these 16 plies (found by a seeded random game)
# White, with tax 3 and one 1-stack on a1, has no legal move.
forced="c3-c5 c3-e5 d3-e3 c3-c4 e3-e4 c3-e3 c5-a3 c3-b3 c3-a1 b3-a2 c3-c1 c3-b2 c1-d2 b2-b1 a3-c5 e3-e4"
run status --size 3 $forced
t_is "forced pass happens by itself" "turn: black
tax: white=3 black=0
result: ongoing" "$out"
run status --size 3 $forced pass
t_is "pass accepted where forced" "0:$("$ashes" status --size 3 $forced)" "$rc:$out"
run status --size 3 $forced pass pass
t_is "a second pass is refused" "2:ashes status: ply 18: pass: a player who can move must move" "$rc:$err"
run legal --size 3 $forced a2-a3 pass
t_is "pass refused where not forced" 2 "$rc"
run export --size 3 $forced
t_is "forced pass in the record" "17. pass (forced)" "$(printf '%s\n' "$out" | grep '^17\.')"

# show: the board and its caption.
run show --size 3 c3-a1
# Each row named at its ends, the cells between in letter order.
t_is "show N=3" "    c5  .   .   .  e5
  b4  .   .   .   .  e4
a3  .   .   .   .   .  e3
  a2  .   .   .   .  d2
    a1  W2  .   .  c1
Rows are named at both ends; cells run in letter order: c5 d5 e5.
Black to move, ply 2.
Tax: white 0, black 0.  Stacks: white 1, black 0." "$out"
run show --size 7 b3-a3 b4-j4 b4-b8 c2-b1 b8-m8 c3-b3 d5-b5 b1-m12 b5-i12 c4-c9 d7-m7 c9-b8 e5-k5 e6-a6
t_is "show N=7 two-digit ply" "White to move, ply 15." "$(printf '%s\n' "$out" | grep ply)"
t_is "show N=7 fits 72 columns" 0 "$(printf '%s\n' "$out" | awk 'length > 72' | wc -l)"
# The stack grown on m7 (ply 11) stands where row 7's names say: the 13th
# cell from a7, the last, m7.
t_is "show N=7: m7 found by its row's names" "a7 . . . . . . . . . . . . W1 m7" \
	"$(printf '%s\n' "$out" | grep '^ *a7 ' | tr -s ' ' | sed 's/^ //')"
run show --size 13
t_is "show N=13 fits 78 columns" "0:0" "$rc:$(printf '%s\n' "$out" | awk 'length > 78' | wc -l)"
t_is "show N=13: names on the left" "Rows are named at their left end; cells run in letter order: m25 n25 ... y25." \
	"$(printf '%s\n' "$out" | grep '^Rows')"

run show --svg --size 3 c3-a1 c3-e5
t_is "show --svg" "0:<svg xmlns=\"http://www.w3.org/2000/svg\"" "$rc:$(printf '%s\n' "$out" | head -1 | cut -d' ' -f1,2)"
t_is "show --svg: a name per cell" 19 "$(printf '%s\n' "$out" | grep -c '>[a-e][1-5]</text>')"
t_is "show --svg: a disc per stack and per player" 4 "$(printf '%s\n' "$out" | grep -c '<circle')"
t_is "show --svg: the words of picture.txt, as in the mails" 1 "$(printf '%s\n' "$out" | grep -c '>White to move</text>')"
svg=$out
# --png FILE: the same picture as PNG, into FILE or ("-") standard output.
run show --size 3 c3-a1 c3-e5 --png "$tmp/board.png"
t_is "show --png FILE: nothing on stdout" "0::" "$rc:$out:$err"
t_is "show --png FILE: a PNG" "89504e470d0a1a0a" "$(head -c 8 "$tmp/board.png" | od -An -tx1 | tr -d ' \n')"
"$ashes" show --size 3 c3-a1 c3-e5 --png - </dev/null >"$tmp/stdout.png"
t_is "show --png -: the same PNG on stdout" 0 "$(cmp -s "$tmp/board.png" "$tmp/stdout.png"; echo $?)"
run show --png "$tmp/no/such/board.png"
t_is "show --png into a missing folder" "1:ashes show: $tmp/no/such/board.png: No such file or directory" "$rc:$err"

# Options stand anywhere among the MOVEs; after "--" every word is a MOVE.
run show c3-a1 --size 3 c3-e5 --svg
t_is "show: --svg and --size after the moves" "0:$svg" "$rc:$out"
run status c3-a1 --size=3
t_is "status: an option after a move" "0:$("$ashes" status --size 3 c3-a1)" "$rc:$out"
run legal --size 3 -- c3-a1
t_is "legal: MOVEs after --" "0:$("$ashes" legal --size 3 c3-a1)" "$rc:$out"
run legal --size 3 -- --variant
t_is "legal: after --, an option is a MOVE" "2:ashes legal: ply 1: --variant: not a move: write FROM-TO or FROM-TO/K" "$rc:$err"
run legal e5-a1 --svg
t_is "legal: --svg is show's only" "1:ashes legal: unknown option --svg
usage: ashes legal [--size N] [--variant OPT]... [MOVE]..." "$rc:$err"
run show e5-a1 --size
t_is "show: an option without its value" "1:ashes show: --size needs a value
usage: ashes show [--svg] [--png FILE] [--size N] [--variant OPT]... [MOVE]..." "$rc:$err"

# perft: the spec's worked checks.
run perft --size 3 --depth 2
t_is "perft N=3 depth 2" 2088 "$out"
run perft --depth 1 --size 7
t_is "perft N=7 depth 1" 1296 "$out"
run perft --size 3
t_is "perft needs --depth" 1 "$rc"

# record: export, replay, print back; errors with file:line.
moves="e5-a1 e4-e1 a1-a2 d4-b2 a2-a5 e6-e9"
run export $moves
printf '%s\n' "$out" >"$tmp/game.rec"
t_is "export starts with the record header" "ashes-record 1" "$(head -1 "$tmp/game.rec")"
run record --print "$tmp/game.rec"
t_is "record round trip" "$(cat "$tmp/game.rec")" "$out"
run record "$tmp/game.rec"
t_is "record status" "$("$ashes" status $moves)" "$out"
sed 's/^4\. .*/4. a2-i9/' "$tmp/game.rec" >"$tmp/bad.rec"
run record "$tmp/bad.rec"
t_is "bad record exit" 2 "$rc"
case $err in "ashes record: $tmp/bad.rec:6: "*) r=yes ;; *) r=$err ;; esac
t_is "bad record names file:line" yes "$r"
run record "$tmp/none.rec"
t_is "missing record file" 1 "$rc"

# Why a record does not load (templates/record-error.txt): every fault,
# word for word, after "ashes record: FILE:LINE: ".
bad_record() { # bad_record NAME TEXT LINE:MESSAGE
	printf '%s\n' "$2" >"$tmp/$1.rec"
	run record "$tmp/$1.rec"
	t_is "bad record: $1" "2 ashes record: $tmp/$1.rec:$3" "$rc $err"
}
head='ashes-record 1
variant: size=5 tax=removed'
corpus=$ASHES_SRCDIR/fuzz/corpus/record
bad_record empty '' "1: the record is empty"
bad_record magic 'ashes-record 2' "1: a record starts with the line 'ashes-record 1'"
bad_record no-variant 'ashes-record 1' "1: the record has no variant line"
bad_record variant-line 'ashes-record 1
1. e5-a1' "2: expected the line 'variant: size=N tax=removed|lost [swap]'"
bad_record option-too-long 'ashes-record 1
variant: size=5 abcdefghijklmnopqrstuvwxyz0123456789' \
	"2: unknown variant option 'abcdefghijklmnopqrstuvwxyz0123456789'"
bad_record option 'ashes-record 1
variant: colour=red' "2: unknown variant option: 'colour=red'"
bad_record option-size 'ashes-record 1
variant: swap size=14' "2: the board size must be 3 to 13: 'size=14'"
bad_record unnumbered "$head
1. e5-a1
e5-i9" "4: expected a numbered ply like '2. e5-c3' or the result line"
bad_record misnumbered "$head
1. e5-a1
3. e5-i9" "4: ply 2 is numbered 3"
bad_record unreadable "$head
1. e5" "3: ply 1: 'e5': not a move: write FROM-TO or FROM-TO/K"
bad_record unknown-cell "$head
1. e5-a1
2. z9-a1" "4: ply 2: 'z9-a1': no such cell on this board"
bad_record split-empty "$head
1. E5-A1/2" "3: ply 1: 'E5-A1/2': an empty cell cannot be split"
bad_record forced "$head
1. e5-a1 (forced)" "3: ply 1: only a pass can be forced"
bad_record illegal "$head
1. e5-a1
2. e5-a1" "4: ply 2 (e5xa1): e5 is empty, so e5xa1 is a growth move, which needs an empty target, but a1 holds a stack (4)"
bad_record same-cell "$head
1. e5-a1
2. e5-i9
3. a1xa1" "5: ply 3 (a1xa1): a1-a1 does not go anywhere: a move must end on another cell than a1"
bad_record whole-stack "$head
1. e5-a1
2. e5-i9
3. a1-e5/4" "5: ply 3 (a1-e5/4): a1-e5/4 names the whole stack on a1: leave the count off (a1-e5)"
bad_record swap "$head
1. e5-a1
2. swap" "4: ply 2 (swap): swap is not allowed: this game is played without the swap option"
bad_record pass "$head
1. e5-a1
2. pass" "4: ply 2 (pass): black has a legal move, so a pass cannot be played here"
bad_record game-over "$(grep -v '^result' "$corpus/game-n3")
8. e5-a1" "10: ply 8 (e5-a1): the game is over: white was eliminated, so black won"
bad_record not-pass "$(sed 's/^19\. pass (forced)/19. e5-a1/' "$corpus/game-n4-pass")" \
	"21: ply 19 must be a forced pass: the player to move has no legal move there"
bad_record pass-missing "$(sed '/^19\./,$d' "$corpus/game-n4-pass")
result: ongoing" "21: ply 19, a forced pass, is missing"
bad_record pass-missing-end "$(sed '/^19\./,$d' "$corpus/game-n4-pass")" \
	"20: ply 19, a forced pass, is missing"
bad_record result-unknown "$head
1. e5-a1
result: maybe" "4: unknown result 'maybe': expected ongoing, white, black or draw"
bad_record result-no-reason "$head
1. e5-a1
result: white" "4: the result needs its reason in brackets: elimination, double pass, resignation, agreed draw or time"
bad_record result-trailing "$head
result: ongoing now" "3: nothing may follow 'result: ongoing'"
bad_record result-game-on "$head
1. e5-a1
result: white (elimination)" "4: the result says white (elimination), but after these plies the game is still on"
bad_record result-mismatch "$(sed 's/^result.*/result: white (resignation)/' "$corpus/game-n3")" \
	"10: the result says white, but the plies end the game with black (elimination)"
bad_record result-reason "$head
1. e5-a1
result: draw (resignation)" "4: draw cannot end with resignation"
bad_record after-result "$head
result: ongoing
1. e5-a1" "4: nothing may follow the result line"
printf '%s\n1. e5\0-a1\n' "$head" >"$tmp/nul.rec"
run record "$tmp/nul.rec"
t_is "bad record: nul" "2 ashes record: $tmp/nul.rec:3: a NUL byte in the record" "$rc $err"

# help: from the template, every command of the table.
run help
t_is "help exit" 0 "$rc"
for c in legal status show perft play think analyse analyze record export db games game clock player ladder league ratings site archive outbox inbound help; do
	t_is "help lists $c" 1 "$(printf '%s\n' "$out" | sed '/^Playing by mail/q' | grep -c "^  $c ")"
done
# the mail command grammar comes from the same template as the mailed help
t_is "help has the mail commands" 1 "$(printf '%s\n' "$out" | grep -c '^  register NAME ')"
mkdir -p "$tmp/over"
# A missing template is an error naming the folders looked in.
printf 'help {{>nowhere.txt}}\n' >"$tmp/over/help-cli.txt"
run --templates "$tmp/over" help
case $err in "ashes: $tmp/over/help-cli.txt:1: {{>nowhere.txt}}: template 'nowhere.txt' not found in $tmp/over nor in /"*) r=yes ;; *) r=$err ;; esac
t_is "help with a missing template fails, naming the folders" 1:yes "$rc:$r"
printf 'operator help: {{#commands}}{{name}}|{{/commands}}\n' >"$tmp/over/help-cli.txt"
run --templates "$tmp/over" help
t_is "help from an override folder" "operator help: legal   |status  |show    |perft   |play    |think   |analyse |analyze |record  |export  |db      |games   |game    |clock   |player  |ladder  |league  |tournament|ratings |site    |archive |outbox  |inbound |help    |" "$out"
# show.txt is not in the override folder: looked for in the default one.
run --templates "$tmp/over" show --size 3
t_is "override folder falls back to the default" "0:$("$ashes" show --size 3)" "$rc:$out"
run --templates="$tmp/over" --bogus help
t_is "unknown global option" "1:ashes: unknown option --bogus" "$rc:$(printf '%s\n' "$err" | head -1)"
run --templates
t_is "global option without its value" "1:ashes: --templates needs a value" "$rc:$(printf '%s\n' "$err" | head -1)"

# Run from the build tree with no ASHES_TEMPLATES: the programs read the
# installed templates, or, while there are none, the source tree's.
env -u ASHES_TEMPLATES "$ashes" help >"$tmp/out" 2>"$tmp/err" </dev/null
rc=$?
t_is "help run uninstalled, without ASHES_TEMPLATES" "0:" "$rc:$(cat "$tmp/err")"
dir=$(sed -n 's/^Texts come from templates in //p' "$tmp/out")
t_is "help names the folder it read" yes "$([ -f "$dir/help-cli.txt" ] && echo yes || echo "'$dir'")"
env -u ASHES_TEMPLATES "$ashes" show --size 3 >"$tmp/out" 2>&1 </dev/null
t_is "show run uninstalled" "0:$("$ashes" show --size 3)" "$?:$(cat "$tmp/out")"
mkdir -p "$tmp/md/new" "$tmp/md/cur" "$tmp/md/tmp" "$tmp/gnupg"
chmod 700 "$tmp/gnupg"
printf '[source]\ntype = maildir\nmaildir = %s/md\n[smtp]\nfrom = ashes@example.org\n[database]\npath = %s/ashesd.db\n[gpg]\nhome = %s/gnupg\n' \
	"$tmp" "$tmp" "$tmp" >"$tmp/ashesd.conf"
env -u ASHES_TEMPLATES "$ASHES_BUILDDIR/ashesd" -c "$tmp/ashesd.conf" --once \
	>"$tmp/out" 2>&1 </dev/null
rc=$?
t_is "ashesd run uninstalled starts (its templates load)" 0 "$rc"
[ "$rc" = 0 ] || sed 's/^/#   /' "$tmp/out"
# A templates folder that does not exist: the error names the settings.
ASHES_TEMPLATES=$tmp/none "$ASHES_BUILDDIR/ashesd" -c "$tmp/ashesd.conf" --once \
	>"$tmp/out" 2>&1 </dev/null
rc=$?
case $(grep 'error: templates' "$tmp/out") in
"ashesd: error: templates: template '"*"' not found in $tmp/none, which does not exist (not installed? name a templates folder with ASHES_TEMPLATES, or ashesd's [templates] dir)") r=yes ;;
*) r=$(cat "$tmp/out") ;;
esac
t_is "ashesd without templates: the error names the settings" 1:yes "$rc:$r"
run frobnicate
t_is "unknown command" 1 "$rc"

# play: a short session through stdin.
printf 'help\nmoves\nzz\ne5-a1\nundo\ne5-a1\ne4-e1\nresign\n' |
	"$ashes" play >"$tmp/play" 2>&1
rc=$?
t_is "play exit" 0 "$rc"
t_is "play: error names the ply" 1 "$(grep -c '^error: ply 1: zz: not a move' "$tmp/play")"
t_is "play: move in words" 2 "$(grep -c '^White grew a 4-stack on a1 from e5.$' "$tmp/play")"
t_is "play: moves listed" 1 "$(grep -c '^384 legal moves for white.$' "$tmp/play")"
t_is "play: resignation ends the game" 1 \
	"$(grep -c '^Game over at ply 2: Black wins by resignation.$' "$tmp/play")"

t_end
