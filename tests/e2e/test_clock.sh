#!/bin/bash
# tests/e2e/test_clock.sh -- a game clock on real servers (issue [clocks]):
# ashesd's clock is moved through its test hook (ASHESD_TEST_CLOCK_OFFSET_FILE,
# lib.sh's E2E_CLOCK_OFFSET), never by sleeping for game time.
#  1. a clock=days:1 game: the "your move" mail shows both clocks and the
#     mover's deadline;
#  2. 12 hours on, the player to move gets one reminder, and only one;
#  3. the flag falls while the daemon waits in IMAP IDLE with nothing to
#     read: the timer, not a mail, ends the game at the deadline (lost on
#     time, both players told);
#  4. a move after that is refused, the game being over.
# The poll interval is 10 minutes: only a mail or a deadline wakes ashesd
# (and Dovecot's IDLE keep-alive, once a minute).
set -u
. "$(dirname "$0")/lib-game.sh"
game_require_stack

E2E_CLOCK_OFFSET=0
E2E_POLL_INTERVAL=10m
e2e_start "[game]
size = 3

[clock]
reminders = 12h
auto_vacation = no
outage_grace = 0"
offset=0

db() { sqlite3 -cmd '.timeout 5000' "$E2E_DIR/ashes.db" "$@"; }
# The daemon's time now (whole seconds, as it counts them).
daemon_now() { echo $(($(date +%s) + offset)); }
set_offset() {
	offset=$1
	e2e_clock_set "$offset"
}
heartbeat() { db "select value from server_state where key = 'clock_heartbeat'"; }

# wake: a signed "games" mail of alice's, the one thing that ends ashesd's
# wait here; returns once alice has the answer.  WAKE_MS: how long that
# took; WAKE_MAX_MS: the longest yet.  The text below "-- " makes each
# one new (a signed text counts once, ever).
wake() {
	local n t0
	n=$(mail_count alice)
	t0=$(date +%s%N)
	player_send alice pgpmime "games" "games
-- 
wake-up $(date +%s%N)"
	raw_wait alice "$E2E_LAST_MSGID" 60 "$n" >/dev/null ||
		e2e_fail "alice's wake-up mail got no answer"
	WAKE_MS=$((($(date +%s%N) - t0) / 1000000))
	[ "$WAKE_MS" -gt "$WAKE_MAX_MS" ] && WAKE_MAX_MS=$WAKE_MS
}
WAKE_MAX_MS=0

# wait_tick SINCE: until the clocks' timer ran at daemon time SINCE or
# later.  Its heartbeat is written at most once a minute, so SINCE must
# be a minute or more after the last run (each clock jump below is).
wait_tick() {
	local h
	for _ in $(seq 1 300); do
		h=$(heartbeat)
		[ -n "$h" ] && [ "$h" -ge "$1" ] && return 0
		sleep 0.1
	done
	return 1
}

result_says_time() {
	digest_has "$1" "bob's time ran out" &&
		digest_has "$1" "White \\(alice\\) won by time"
}

e2e_register alice pgpmime >/dev/null
e2e_register bob pgpmime >/dev/null

# --- 1. a clock=days:1 game, bob to move at ply 4 with a day on his clock
game_new alice bob 3 pgpmime clock=days:1
game=$G_GAME
game_play "$game" alice bob 3 pgpmime pgpmime "${GAME_SEED:-4}" 3
echo "# game $game: ${G_HISTORY[*]}, $G_TURN to move"
if [ "$G_PLIES" != 3 ] || [ "$G_RESULT" != ongoing ] || [ "$G_TURN" != black ]; then
	e2e_fail "game $game: $G_PLIES plies, $G_RESULT, $G_TURN to move"
fi
f=$(raw_wait bob "move $game 4 MOVE" 30) ||
	e2e_fail "bob got no 'your move' mail for ply 4"
e2e_digest "$f" | grep -E '^Clock|must move' | sed 's/^/#   /'
# (the second or so since alice's move was received is counted: a day
# less a second shows as 23 hours 59 minutes)
t_ok_if "bob's 'your move' mail shows both clocks, a day each" \
	digest_has "$f" '^Clock \(days:1\): alice 1 day 0 hours, bob (1 day 0 hours|23 hours 59 minutes)\.$'
t_ok_if "and bob's deadline" digest_has "$f" '^bob must move before [^ ]'
deadline=$(db "select deadline_at from games where id = $game")
turn_at=$(db "select clock_turn_started from games where id = $game")
echo "# deadline $deadline, bob's turn began at $turn_at (daemon time)"
t_ok_if "the deadline is a day after bob's turn began" \
	test "$((deadline - turn_at))" = 86400
# a reminder at 12 hours left is due then
remind_at=$(db "select remind_at from games where id = $game")
t_ok_if "a reminder is due at 12 hours left" \
	test "$remind_at" = "$((deadline - 12 * 3600))"

# --- 2. 12 hours and a minute on: one reminder
nb=$(mail_count bob)
set_offset $((remind_at + 60 - $(date +%s)))
wake
f=$(raw_wait bob "your clock is running low" 30 "$nb")
t_ok_if "12 hours on, bob got a reminder" test -n "$f"
if [ -n "$f" ]; then
	e2e_digest "$f" | sed -n '1,5p' | sed 's/^/#   /'
	t_ok_if "it is about game $game, against alice" \
		digest_has "$f" "game $game against alice: [0-9].* left, move before "
	t_ok_if "and has the move line" digest_has "$f" "move $game 4 MOVE"
fi
# two minutes on, another wake-up: the timer runs again (its heartbeat
# says so), and sends nothing more
set_offset $((offset + 120))
since=$(daemon_now)
wake
t_ok_if "the timer ran again after a second wake-up mail" wait_tick "$since"
for _ in $(seq 1 100); do
	[ -z "$(outbox_unsent)" ] && break
	sleep 0.1
done
t_ok_if "bob got one reminder, no more" \
	test "$(e2e_mails bob | tail -n +$((nb + 1)) |
		xargs -r grep -l -F 'your clock is running low' | wc -l)" = 1
t_ok_if "one reminder row in the outbox" \
	test "$(db "select count(*) from outbox where kind = 'reminder'")" = 1

# --- 3. the flag falls while the daemon waits for mail
# The deadline a few seconds ahead of the daemon's clock; one wake-up mail
# makes the daemon look at the clock again, then nothing: it must wake for
# the deadline by itself.  The margin leaves time for the wake-up mail's
# round trip (the longest yet, thrice over: a loaded machine is slow), so
# that it is handled before.
margin=$((8 + 3 * WAKE_MAX_MS / 1000))
echo "# a wake-up mail took up to ${WAKE_MAX_MS} ms; the deadline ${margin}s ahead"
na=$(mail_count alice)
nb=$(mail_count bob)
set_offset $((deadline - margin - $(date +%s)))
wake
inbound=$(db "select count(*) from inbound")
woke=$(db "select max(created) from outbox where inbound_id is not null")
t_ok_if "the wake-up mail was answered before the deadline ($woke < $deadline)" \
	test "$woke" -lt "$deadline"
t_ok_if "and the game was still on then" \
	test "$(db "select status from games where id = $game")" = active
fa=$(raw_wait alice "game $game is over" $((margin + 30)) "$na")
fb=$(raw_wait bob "game $game is over" 30 "$nb")
t_ok_if "alice got the result mail, with no mail sent meanwhile" \
	test -n "$fa" -a "$(db "select count(*) from inbound")" = "$inbound"
t_ok_if "bob got the result mail" test -n "$fb"
for f in "$fa" "$fb"; do
	[ -n "$f" ] || continue
	t_ok_if "$(e2e_digest "$f" | sed -n 's/^\([a-z]*\), game .*/\1/p' |
		head -n 1)'s result mail: bob's time ran out, alice won" \
		result_says_time "$f"
done
[ -n "$fa" ] && e2e_digest "$fa" | sed -n '1,4p' | sed 's/^/#   /'
row=$(db "select status, result, end_reason, updated from games where id = $game")
echo "# games row: $row"
IFS='|' read -r st res why upd <<<"$row"
t_ok_if "the game is finished, 1-0, by time" \
	test "$st|$res|$why" = "finished|1-0|time"
t_ok_if "it ended at its deadline, not before ($upd >= $deadline)" \
	test "$upd" -ge "$deadline"
# (else Dovecot's IDLE keep-alive, once a minute, would wake it later)
t_ok_if "and within seconds of it: the deadline woke the daemon" \
	test "$upd" -le $((deadline + 3))
t_ok_if "the result mails answer no mail: the timer sent them" \
	test "$(db "select count(*) from outbox where game_id = $game and
		created >= $deadline and inbound_id is null")" -ge 2

# --- 4. a move after the flag fell is refused
mapfile -t hist < <(db_moves "$game")
pick=$(e2e_ashes legal --size 3 "${hist[@]}" | head -n 1)
nb=$(mail_count bob)
player_send bob pgpmime "Re: [ashes #$game]" "move $game 4 $pick"
f=$(raw_wait bob "$E2E_LAST_MSGID" 30 "$nb")
[ -n "$f" ] && e2e_digest "$f" | grep -E "game $game" | head -n 3 | sed 's/^/#   /'
t_ok_if "bob's late move is refused: game $game is over" \
	digest_has "$f" "game $game is finished, so this does not apply"
t_ok_if "and not stored" test "$(db_plies "$game" | wc -l)" = 3
e2e_end
