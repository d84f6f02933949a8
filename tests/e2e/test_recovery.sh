#!/bin/bash
# tests/e2e/test_recovery.sh -- the whole loop on real servers (issue 5):
#  4. the SMTP server down for a while, then back: players' mails already
#     in the mailbox are handled, the replies wait in the outbox and are
#     retried; once Postfix is back every reply arrives, exactly once;
#  5. ashesd SIGKILLed while handling a mail (after the commit, and after
#     the archive), restarted without the hook: the move applied once, the
#     replies sent once -- and the sender's rate counter raised once,
#     though the mail is handed out again after the kill (issue 9).
set -u
. "$(dirname "$0")/lib-game.sh"
game_require_stack

command -v sqlite3 >/dev/null 2>&1 || { echo "# SKIP: no sqlite3"; exit 77; }
# A rate limit far above what the test sends: only the counting is
# watched.
e2e_start "[game]
size = 3
[limits]
sender_rate_limit = 1000"
e2e_register alice pgpmime >/dev/null
e2e_register bob pgpmime >/dev/null
game_new alice bob 3 pgpmime
game=$G_GAME

# next_move: the player to move and a legal move for the stored game
next_move() {
	local -a hist
	mapfile -t hist < <(db_moves "$game")
	PLY=$((${#hist[@]} + 1))
	WHO=alice OTHER=bob
	[ $((PLY % 2)) = 0 ] && WHO=bob OTHER=alice
	PICK=$(e2e_ashes legal --size 3 "${hist[@]}" | head -n 1)
}
# rate_total: mails counted against senders this hour, all senders
rate_total() {
	# the sender limit's rows only: the others are named KIND:... (refusals,
	# registrations, codes, the send budget's mails and bytes, archives)
	sqlite3 "$E2E_DIR/ashes.db" "select coalesce(sum(count), 0) from rate_limits
		where instr(sender, ':') = 0"
}
nonce() { printf -- '-- \n%s\n' "$(date +%s%N)"; }
# count_raw WHO STRING: mails of WHO holding STRING
count_raw() {
	e2e_mails "$1" | xargs -r grep -l -F -- "$2" | wc -l
}
outbox_rows() {
	e2e_ashes outbox list --db "$E2E_DIR/ashes.db" | awk '$1 ~ /^[0-9]+$/' | wc -l
}
wait_outbox_empty() {
	local i
	for i in $(seq 1 $(($1 * 10))); do
		[ -z "$(outbox_unsent)" ] && return 0
		sleep 0.1
	done
	return 1
}

# --- 4. Postfix down while the daemon answers
e2e_stop_daemon
next_move
inbox0=$(ashes_inbox_count)
na=$(mail_count alice)
nb=$(mail_count bob)
player_send "$WHO" pgpmime "Re: [ashes #$game]" "move $game $PLY $PICK"
player_send bob pgpmime "board" "board $game
$(nonce)"
player_send alice pgpmime "games" "games
$(nonce)"
for i in $(seq 1 100); do
	[ "$(ashes_inbox_count)" -ge $((inbox0 + 3)) ] && break
	sleep 0.1
done
t_ok_if "three mails delivered to the daemon's mailbox" \
	test "$(ashes_inbox_count)" -ge $((inbox0 + 3))
rows0=$(outbox_rows)
smtp_down
game_restart_daemon
for i in $(seq 1 300); do
	[ -n "$(outbox_unsent | awk '$3 >= 2')" ] && break
	sleep 0.1
done
pending=$(outbox_unsent | wc -l)
outbox_unsent | sed 's/^/#   /'
t_ok_if "with Postfix down the 4 replies wait in the outbox" test "$pending" -ge 4
t_ok_if "and are retried (attempts >= 2)" test -n "$(outbox_unsent | awk '$3 >= 2')"
t_ok_if "the daemon logged the SMTP outage" \
	grep -q 'SMTP server .* unreachable' "$E2E_DIR/ashesd.log"
t_ok_if "no reply reached the players while Postfix was down" \
	test "$(mail_count alice)" = "$na" -a "$(mail_count bob)" = "$nb"
sleep 2
smtp_up
t_ok_if "after Postfix is back the outbox empties" wait_outbox_empty 40
sleep 1.5 # a second copy, if any, would be delivered by now
t_ok_if "$WHO's move was taken (one reply)" \
	test "$(count_raw "$WHO" "Taken: move $game $PLY $PICK")" = 1
t_ok_if "$OTHER got one 'your move' mail for ply $((PLY + 1))" \
	test "$(count_raw "$OTHER" "    move $game $((PLY + 1)) MOVE")" = 1
f=$(wait_mail bob "> board $game" 10 "$nb")
t_ok_if "bob got the board reply" test -n "$f"
f=$(wait_mail alice "> games" 10 "$na")
t_ok_if "alice got the games reply" test -n "$f"
rows=$(outbox_rows)
got=$(($(daemon_ids alice) + $(daemon_ids bob)))
t_ok_if "every outbox row arrived ($got distinct mails for $rows rows)" test "$got" = "$rows"
t_ok_if "no mail arrived twice (Message-IDs unique)" \
	test -z "$(dup_ids alice)$(dup_ids bob)"
t_ok_if "the move was stored once" test "$(db_plies "$game" | wc -l)" = "$PLY"

# --- 5. SIGKILL after the commit / after the archive
for hook in after-commit after-archive; do
	next_move
	export ASHES_TEST_KILL_AT=$hook
	game_restart_daemon
	unset ASHES_TEST_KILL_AT
	rate0=$(rate_total)
	player_send "$WHO" pgpmime "Re: [ashes #$game]" "move $game $PLY $PICK"
	for i in $(seq 1 300); do
		kill -0 "$E2E_DAEMON_PID" 2>/dev/null || break
		sleep 0.1
	done
	t_ok_if "$hook: ashesd killed itself there" \
		bash -c "! kill -0 $E2E_DAEMON_PID 2>/dev/null && grep -q 'killing myself $hook' '$E2E_DIR/ashesd.log'"
	wait "$E2E_DAEMON_PID" 2>/dev/null
	game_restart_daemon
	raw_wait "$OTHER" "move $game $((PLY + 1)) MOVE" 30 >/dev/null
	wait_outbox_empty 30
	sleep 1.5 # a second copy, if any, would be delivered by now
	t_ok_if "$hook: the move applied once (ply $PLY stored, $PICK)" \
		test "$(db_plies "$game" | wc -l)" = "$PLY" -a \
		"$(db_moves "$game" | tail -n 1)" = "$PICK"
	t_ok_if "$hook: one reply to $WHO" \
		test "$(count_raw "$WHO" "Taken: move $game $PLY $PICK")" = 1
	t_ok_if "$hook: one 'your move' mail to $OTHER" \
		test "$(count_raw "$OTHER" "    move $game $((PLY + 1)) MOVE")" = 1
	t_ok_if "$hook: outbox empty" test -z "$(outbox_unsent)"
	t_ok_if "$hook: the mail counted once against its sender ($rate0 -> $(rate_total))" \
		test "$(rate_total)" = $((rate0 + 1))
	t_ok_if "$hook: no mail arrived twice" test -z "$(dup_ids alice)$(dup_ids bob)"
done
e2e_end
