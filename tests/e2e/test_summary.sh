#!/bin/bash
# tests/e2e/test_summary.sh -- the daily summary on real servers (`set
# summary daily HH:MM`): ashesd's clock is moved through its test hook
# (lib.sh's E2E_CLOCK_OFFSET), never by sleeping for the hours.
#  1. bob, in Europe/Berlin, chooses a summary two hours ahead of his
#     local time; alice's challenges reach him at once, her first moves
#     in the two games do not;
#  2. past that time (a mail wakes the daemon), bob gets one summary
#     with both games and a move line for each; the timer running again
#     sends no second one;
#  3. bob answers the summary with both moves in one signed mail: both
#     are played, each in the game its line names.
set -u
. "$(dirname "$0")/lib-game.sh"
game_require_stack

E2E_CLOCK_OFFSET=0
E2E_POLL_INTERVAL=10m
e2e_start "[game]
size = 3

[clock]
outage_grace = 0"
offset=0

db() { sqlite3 -cmd '.timeout 5000' "$E2E_DIR/ashes.db" "$@"; }
daemon_now() { echo $(($(date +%s) + offset)); }
set_offset() {
	offset=$1
	e2e_clock_set "$offset"
}
heartbeat() { db "select value from server_state where key = 'clock_heartbeat'"; }
# wake: a signed "games" mail of alice's, answered; the timer runs after
# it.  The text below "-- " makes each one new.
wake() {
	local n
	n=$(mail_count alice)
	player_send alice pgpmime "games" "games
-- 
wake-up $(date +%s%N)"
	raw_wait alice "$E2E_LAST_MSGID" 60 "$n" >/dev/null ||
		e2e_fail "alice's wake-up mail got no answer"
}
# wait_tick SINCE: until the clocks' timer ran at daemon time SINCE or
# later (its heartbeat is written at most once a minute).
wait_tick() {
	local h
	for _ in $(seq 1 300); do
		h=$(heartbeat)
		[ -n "$h" ] && [ "$h" -ge "$1" ] && return 0
		sleep 0.1
	done
	return 1
}
summaries() { db "select count(*) from outbox where kind = 'summary'"; }
# digest_both FILE RE1 RE2: the mail's text matches both.
digest_both() { digest_has "$1" "$2" && digest_has "$1" "$3"; }

e2e_register alice pgpmime >/dev/null
e2e_register bob pgpmime >/dev/null

# --- 1. bob's summary two hours ahead, in his zone
due=$(($(daemon_now) + 2 * 3600))
at=$(TZ=Europe/Berlin date -d "@$due" +%H:%M)
nb=$(mail_count bob)
player_send bob pgpmime "settings" "set timezone Europe/Berlin
set summary daily $at"
f=$(raw_wait bob "$E2E_LAST_MSGID" 30 "$nb")
t_ok_if "bob's summary is set to $at (Europe/Berlin)" \
	digest_has "$f" "^Your setting summary is daily $at\\.$"

game_new alice bob 3 pgpmime
g1=$G_GAME
game_new alice bob 3 pgpmime
g2=$G_GAME
t_ok_if "alice's challenges reached bob at once (games $g1, $g2)" \
	test -n "$(raw_wait bob "challenges you to game $g2" 5)"
nb=$(mail_count bob)
na=$(mail_count alice)
m1=$(e2e_ashes legal --size 3 | head -n 1)
m2=$(e2e_ashes legal --size 3 | tail -n 1)
player_send alice pgpmime "Re: [ashes #$g1]" "move $g1 1 $m1
move $g2 1 $m2"
raw_wait alice "$E2E_LAST_MSGID" 30 "$na" >/dev/null ||
	e2e_fail "alice's moves got no reply"
for _ in $(seq 1 50); do
	[ -z "$(outbox_unsent)" ] && break
	sleep 0.1
done
t_ok_if "alice's moves sent bob nothing: held for his summary" \
	test "$(mail_count bob)" = "$nb"
t_ok_if "two notes wait for it" \
	test "$(db "select count(*) from summary_items")" = 2

# --- 2. past bob's time: one summary
set_offset $((due + 60 - $(date +%s)))
wake
f=$(raw_wait bob "move $g2 2 MOVE" 30 "$nb")
t_ok_if "past $at Berlin time, bob got his summary" test -n "$f"
if [ -n "$f" ]; then
	e2e_digest "$f" | sed -n '1,3p' | sed 's/^/#   /'
	t_ok_if "its subject: his move in 2 games" \
		digest_has "$f" "^Subject: Your Ashes games: your move in 2, summary of "
	t_ok_if "it has game $g1 with alice's move and the line to send" \
		digest_both "$f" "^Ply 1: $m1 " "^    move $g1 2 MOVE$"
	t_ok_if "and game $g2" digest_has "$f" "^    move $g2 2 MOVE$"
	t_ok_if "in bob's zone" digest_has "$f" "as of [0-9-]+ [0-9:]+ CES?T:"

fi
t_ok_if "the notes went with it" \
	test "$(db "select count(*) from summary_items")" = 0
set_offset $((offset + 120))
since=$(daemon_now)
wake
t_ok_if "the timer ran again" wait_tick "$since"
t_ok_if "one summary, not two" test "$(summaries)" = 1

# --- 3. one reply, two moves
sid=$(mail_header "$f" Message-ID)
r1=$(e2e_ashes legal --size 3 "$m1" | head -n 1)
r2=$(e2e_ashes legal --size 3 "$m2" | head -n 1)
nb=$(mail_count bob)
player_send bob pgpmime "Re: Your Ashes games" "> bob, your games as of ...
move $g1 2 $r1
move $g2 2 $r2" "In-Reply-To: $sid" "References: $sid"
f=$(raw_wait bob "$E2E_LAST_MSGID" 30 "$nb")
t_ok_if "bob's reply to the summary: both moves taken" \
	digest_both "$f" "^Taken: move $g1 2 $r1$" "^Taken: move $g2 2 $r2$"
t_ok_if "game $g1 has bob's move as ply 2" \
	test "$(db_moves "$g1" | tr '\n' ' ')" = "$m1 $r1 "
t_ok_if "game $g2 has bob's move as ply 2" \
	test "$(db_moves "$g2" | tr '\n' ' ')" = "$m2 $r2 "
e2e_end
