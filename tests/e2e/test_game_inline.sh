#!/bin/bash
# tests/e2e/test_game_inline.sh -- the whole loop on real servers (issue
# 5), case 2: a good part of a game by inline clearsigned mails (10 plies) on a size-4 board,
# then the player to move resigns; the stored moves equal the moves sent
# and both players get the result.
set -u
. "$(dirname "$0")/lib-game.sh"
game_require_stack

e2e_start "[game]
size = 4"
e2e_register alice inline >/dev/null
e2e_register bob inline >/dev/null

game_new alice bob 4 inline
game=$G_GAME
game_play "$game" alice bob 4 inline inline "${GAME_SEED:-11}" 10
echo "# game $game: $G_PLIES plies (${G_HISTORY[*]}), $G_TURN to move"
t_ok_if "10 inline-signed moves sent, the game still on" \
	test "$G_PLIES" = 10 -a "$G_RESULT" = ongoing
loser=alice winner=bob
[ "$G_TURN" = black ] && loser=bob winner=alice
f=$(raw_wait "$loser" "move $game 11 MOVE" 30)
t_ok_if "$loser got the 'your move' mail for ply 11" test -n "$f"
n=$(mail_count "$loser")
m=$(mail_count "$winner")
player_send "$loser" inline "Re: [ashes #$game]" "resign $game"
f=$(raw_wait "$loser" "game $game is over" 30 "$n")
t_ok_if "$loser (resigned) got the result mail" test -n "$f"
f=$(raw_wait "$winner" "game $game is over" 30 "$m")
t_ok_if "$winner got the result mail" test -n "$f"
t_ok_if "the result mail says $loser resigned" digest_has "$f" "[Rr]esign"
stored=$(db_moves "$game" | tr '\n' ' ')
t_ok_if "the stored move list equals the 10 moves sent" \
	test "$stored" = "${G_HISTORY[*]} "
t_ok_if "every ply stored once (plies 1..10)" \
	test "$(db_plies "$game" | tr '\n' ' ')" = "$(seq -s ' ' 1 10) "
e2e_ashes game show "$game" --db "$E2E_DIR/ashes.db" >"$E2E_DIR/show.txt" 2>&1
t_ok_if "the game is finished in the database" \
	grep -q "^Game $game: finished" "$E2E_DIR/show.txt"
for i in $(seq 1 100); do
	[ -z "$(outbox_unsent)" ] && break
	sleep 0.1
done
t_ok_if "outbox: no pending or failed rows" test -z "$(outbox_unsent)"
e2e_end
