#!/bin/bash
# tests/e2e/test_ladder.sh -- a club ladder on real servers (issue
# [clubs]): three members listed in [ladder main], by real signed mail.
#  1. the members join in the order listed once registered and the
#     timer has run: "ladder main" shows alice, bob, carol;
#  2. carol (3rd) challenges alice (1st): the game has the ladder's
#     clock, alice is told it is a ladder challenge and until when to
#     accept; she accepts, and resigns after 4 plies;
#  3. the timer applies the result: carol takes alice's place (alice and
#     bob move down one), and carol's rating goes above 1500;
#  4. the config reloaded (SIGHUP) with challenge_range = 1: bob (3rd)
#     challenging carol (1st) is refused, with the numbers;
#  5. `ashes ladder history` holds the events: joined, challenged,
#     accepted, result;
#  6. a week after the timer first ran (not five minutes before), each
#     member gets the standings mail with their own place marked, once.
# ashesd's clock is moved through its test hook (lib.sh's
# E2E_CLOCK_OFFSET), never by sleeping.
set -u
. "$(dirname "$0")/lib-game.sh"
game_require_stack

# the config, with the ladder's challenge_range $1
ladder_config() {
	echo "[game]
size = 3

[clock]
auto_vacation = no
outage_grace = 0

[ladder main]
members = alice, bob, carol
size = 3
clock = days:3
challenge_range = $1
accept_within = 2d"
}

E2E_CLOCK_OFFSET=0
E2E_POLL_INTERVAL=10m
E2E_MORE_PLAYERS=carol
e2e_start "$(ladder_config 2)"
db() { club_db "$@"; }
ask() { club_ask "$@"; }
heartbeat() { club_heartbeat; }
daemon_now() { club_daemon_now; }
set_offset() { club_set_offset "$1"; }
wake_tick() { club_wake_tick "$1"; }
ashes_admin() {
	e2e_ashes "$@" --config "$E2E_DIR/ashesd.conf" --db "$E2E_DIR/ashes.db"
}

# The places in a standings text: "1. alice 2. bob ..."
places() {
	e2e_digest "$1" | sed -n 's/^  \([0-9][0-9]*\)\. \([a-z]*\).*/\1. \2/p' |
		tr '\n' ' ' | sed 's/ $//'
}

# The text of a mail as one line (the templates break lines anywhere).
flat() { e2e_digest "$1" | tr '\n' ' ' | tr -s ' '; }
# flat_has FILE STRING: the mail's text, as one line, holds STRING.
flat_has() { [ -n "$1" ] && flat "$1" | grep -qF -- "$2"; }

outbox_drained() {
	for _ in $(seq 1 100); do
		[ -z "$(outbox_unsent)" ] && return 0
		sleep 0.1
	done
	return 1
}

# --- 1. members join once registered and the timer ran
for who in alice bob carol; do
	e2e_register "$who" pgpmime >/dev/null
done
set_offset 120
wake_tick "$(daemon_now)"
f=$(ask carol "ladder main")
e2e_digest "$f" | sed -n '2,6p' | sed 's/^/#   /'
t_ok_if "ladder main: 1. alice 2. bob 3. carol" \
	test "$(places "$f")" = "1. alice 2. bob 3. carol"
t_ok_if "carol's place is marked" digest_has "$f" '^  3\. carol +<- you$'
t_ok_if "carol may challenge alice and bob (range 2)" \
	digest_has "$f" '^You may challenge: alice bob$'
t_ok_if "no standings mail yet (the first timer run starts the week)" \
	test -z "$(e2e_mails carol | xargs -r grep -l -F 'ladder standings')"

# --- 2. carol challenges alice
na=$(mail_count alice)
t0=$(daemon_now)
f=$(ask carol "ladder challenge main alice")
game=$(e2e_digest "$f" | sed -n 's/.*in ladder main: game \([0-9][0-9]*\) .*/\1/p')
e2e_digest "$f" | sed -n '2,6p' | sed 's/^/#   /'
[ -n "$game" ] || e2e_fail "carol's reply names no game"
t_ok_if "carol's reply: she challenged alice, game $game, the ladder's clock" \
	digest_has "$f" '^Time control: days:3\.$'
fa=$(wait_mail alice "challenges you to game $game" 30 "$na") ||
	e2e_fail "alice got no challenge"
e2e_digest "$fa" | sed 's/^/#   /'
t_ok_if "alice's challenge mail says it is of ladder main" \
	digest_has "$fa" '^It is a challenge of ladder main'
by=$(flat "$fa" | sed -n 's/.*accept it before \([0-9-]* [0-9:]* UTC\).*/\1/p')
by_s=$(date -u -d "$by" +%s 2>/dev/null)
echo "# accept before: $by (challenge sent at $(date -u -d @"$t0" '+%F %R'))"
t_ok_if "and the deadline to accept: 2 days on" \
	test -n "$by_s" -a "$((by_s - t0))" -ge $((2 * 86400 - 60)) \
	-a "$((by_s - t0))" -le $((2 * 86400 + $(daemon_now) - t0 + 60))
t_ok_if "carol's reply has the same deadline" \
	flat_has "$f" "alice has until $by to accept"

# --- alice accepts; carol (White) and alice play 4 plies; alice resigns
nc=$(mail_count carol)
player_send alice pgpmime "Re: [ashes #$game]" "accept $game"
hist=()
RANDOM=${GAME_SEED:-7}
for ply in 1 2 3 4; do
	who=carol
	[ $((ply % 2)) = 0 ] && who=alice
	raw_wait "$who" "move $game $ply MOVE" 60 >/dev/null ||
		e2e_fail "$who got no 'your move' mail for ply $ply"
	mapfile -t moves < <(e2e_ashes legal --size 3 "${hist[@]}")
	# a move that leaves the game on: it must end by resignation
	pick=
	for _ in $(seq 1 50); do
		pick=${moves[$((RANDOM % ${#moves[@]}))]}
		e2e_ashes status --size 3 "${hist[@]}" "$pick" |
			grep -q '^result: ongoing' && break
	done
	player_send "$who" pgpmime "Re: [ashes #$game]" "move $game $ply $pick"
	hist+=("$pick")
done
raw_wait carol "move $game 5 MOVE" 60 >/dev/null ||
	e2e_fail "carol got no 'your move' mail for ply 5"
echo "# game $game: ${hist[*]}; alice resigns"
t_ok_if "the game has the ladder's clock" \
	test "$(db "select clock_settings from games where id = $game")" = days:3
na=$(mail_count alice)
nc=$(mail_count carol)
player_send alice pgpmime "Re: [ashes #$game]" "resign $game"
fc=$(wait_mail carol "game $game is over" 60 "$nc") ||
	e2e_fail "carol got no result mail"
wait_mail alice "game $game is over" 60 "$na" >/dev/null ||
	e2e_fail "alice got no result mail"
t_ok_if "carol won by resignation at ply 4" \
	digest_has "$fc" 'over at ply 4: White \(carol\) won by resignation'
# the game's end makes the timer run at once (no need of a minute)
for _ in $(seq 1 300); do
	ashes_admin ladder history main | grep -q "game $game: " && break
	sleep 0.1
done

# --- 3. the standings and ratings after
f=$(ask carol "ladder main")
e2e_digest "$f" | sed -n '2,6p' | sed 's/^/#   /'
t_ok_if "the challenger took the place: 1. carol 2. alice 3. bob" \
	test "$(places "$f")" = "1. carol 2. alice 3. bob"
t_ok_if "and carol is marked at 1" digest_has "$f" '^  1\. carol +<- you$'
f=$(ask carol ratings)
e2e_digest "$f" | sed -n '2,6p' | sed 's/^/#   /'
rc=$(e2e_digest "$f" | sed -n 's/^  1\. carol \([0-9][0-9]*\).*/\1/p')
ra=$(e2e_digest "$f" | sed -n 's/^  2\. alice \([0-9][0-9]*\).*/\1/p')
t_ok_if "ratings: carol first, above 1500 (${rc:-none})" \
	test "${rc:-0}" -gt 1500
t_ok_if "alice second, below 1500 (${ra:-none})" \
	test "${ra:-9999}" -lt 1500
t_ok_if "one game each, the rating provisional" \
	digest_has "$f" '^  1\. carol [0-9.]+\? \(\+-[0-9.]+, 1 game\(s\)\)   <- you$'

# --- 4. reloaded with challenge_range = 1: bob (3rd) may not challenge
# carol (1st)
e2e_reload "$(ladder_config 1)"
f=$(ask bob "ladder challenge main carol")
e2e_digest "$f" | sed -n '2,6p' | sed 's/^/#   /'
t_ok_if "bob's challenge of carol is refused with the numbers" \
	flat_has "$f" "in ladder main you may challenge up to 1 place(s) above yours: you are at place 3, carol at place 1."
t_ok_if "and made no game" \
	test "$(db "select count(*) from games")" = 1
f=$(ask bob "ladder main")
t_ok_if "bob may now challenge alice only" \
	digest_has "$f" '^You may challenge: alice$'

# --- 5. the event log
ashes_admin ladder history main >"$E2E_DIR/history"
sed 's/^/#   /' "$E2E_DIR/history"
hist_has() { grep -qE -- "$1" "$E2E_DIR/history"; }
t_ok_if "history: three joined, in order" \
	test "$(sed -n 's/.* \([a-z]*\) joined .*/\1/p' "$E2E_DIR/history" |
		tr '\n' ' ')" = "alice bob carol "
t_ok_if "history: carol challenged alice" \
	hist_has "carol challenged alice \(game $game\)"
t_ok_if "history: alice accepted" hist_has "alice accepted game $game"
t_ok_if "history: the result, carol over alice" \
	hist_has "game $game: carol beat alice"
t_ok_if "history: nothing of bob's refused challenge" \
	test "$(grep -c challenged "$E2E_DIR/history")" = 1

# --- 6. the weekly standings: a week after the first timer run
week0=$(db "select value from server_state where key = 'standings_mail'")
t_ok_if "the week began when the timer first ran" test -n "$week0"
t_ok_if "nobody got a standings mail yet" \
	test -z "$(for w in alice bob carol; do e2e_mails $w; done |
		xargs -r grep -l -F 'ladder standings')"
# five minutes short of the week: not yet
set_offset $((week0 + 7 * 86400 - 300 - $(date +%s)))
wake_tick "$(daemon_now)"
outbox_drained
t_ok_if "five minutes short of a week, no standings mail" \
	test "$(db "select count(*) from outbox where kind = 'standings'")" = 0
declare -A before
for w in alice bob carol; do before[$w]=$(mail_count $w); done
set_offset $((week0 + 7 * 86400 + 60 - $(date +%s)))
wake_tick "$(daemon_now)"
declare -A place=([alice]=2 [bob]=3 [carol]=1)
for w in alice bob carol; do
	f=$(wait_mail $w "this week's ladder standings" 30 "${before[$w]}")
	t_ok_if "$w got the weekly standings" test -n "$f"
	[ -n "$f" ] || continue
	[ $w = bob ] && e2e_digest "$f" | sed 's/^/#   /'
	t_ok_if "$w's: 1. carol 2. alice 3. bob" \
		test "$(places "$f")" = "1. carol 2. alice 3. bob"
	t_ok_if "$w's place marked (${place[$w]})" \
		digest_has "$f" "^  ${place[$w]}\\. $w +<- you\$"
done
# two minutes on, the timer again: no second standings mail
set_offset $((CLUB_OFFSET + 120))
wake_tick "$(daemon_now)"
outbox_drained
t_ok_if "one standings mail each, no more" \
	test "$(for w in alice bob carol; do e2e_mails $w; done |
		xargs -r grep -l -F 'ladder standings' | wc -l)" = 3
t_ok_if "three standings rows in the outbox" \
	test "$(db "select count(*) from outbox where kind = 'standings'")" = 3
e2e_end
