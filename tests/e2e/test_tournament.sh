#!/bin/bash
# tests/e2e/test_tournament.sh -- a club event on real servers (issue
# [events]): six players listed in [tournament open6], a Swiss of three
# rounds, by real signed mail.
#  1. the six registered, the timer runs: round 1 is paired (three games,
#     seeds 1-4, 2-5, 3-6), White of each game gets "your move" and every
#     entrant the round's pairing;
#  2. Black resigns each game of round 1; round 2 is paired only once the
#     last one ended, and no pair meets again;
#  3. in round 2 one player withdraws by mail ("tournament leave"): their
#     running game ends at once, lost by them; the others end; round 3 is
#     paired among the five left (a bye), without the leaver;
#  4. in round 3 one game ends; the other is still running at the round's
#     deadline (the daemon's clock moved through its test hook): the
#     daemon decides it by the clocks, recorded as its adjudication;
#  5. the event is over: each of the six gets the final standings, once,
#     with the tie-breaks and the crosstable (printed below);
#  6. `ashes archive export --event` and `ashes archive verify`: every
#     game's archive verified, each result agreeing with its record, the
#     withdrawal's and the deadline's decisions shown as the log's, the
#     standings recomputed (the verify output printed below).
set -u
. "$(dirname "$0")/lib-game.sh"
game_require_stack

players="alice bob carol dave erin mallory"
event_config() {
	echo "[game]
size = 3

[clock]
auto_vacation = no
outage_grace = 0

[tournament open6]
members = ${players// /, }
format = swiss
rounds = 3
start = 2020-01-01
size = 3
clock = days:5
round_deadline = 4d
rated = no"
}

E2E_CLOCK_OFFSET=0
E2E_POLL_INTERVAL=10m
E2E_MORE_PLAYERS="carol dave erin"
e2e_start "$(event_config)"
db() { club_db "$@"; }
ask() { club_ask "$@"; }

# The games of round R: "GAME WHITE BLACK" lines, by event game number.
round_games() {
	db "select t.game_id, w.name, b.name from tournament_games t
	    join games g on g.id = t.game_id
	    join players w on w.id = g.white_id
	    join players b on b.id = g.black_id
	    where t.tournament = 'open6' and t.round = $1 order by t.number" |
		tr '|' ' '
}
# wait_round R N: until round R has N games stored (the timer paired it).
wait_round() {
	for _ in $(seq 1 300); do
		[ "$(round_games "$1" | wc -l)" = "$2" ] && return 0
		sleep 0.1
	done
	e2e_fail "round $1 was not paired with $2 games"
}
status_of() { db "select status from games where id = $1"; }
wait_over() {
	for _ in $(seq 1 300); do
		[ "$(status_of "$1")" = finished ] && return 0
		sleep 0.1
	done
	e2e_fail "game $1 did not end"
}
resign() { # WHO GAME
	player_send "$1" pgpmime "Re: [ashes #$2]" "resign $2"
	wait_over "$2"
}

# --- 1. registered, the timer pairs round 1
for who in $players; do
	e2e_register "$who" pgpmime >/dev/null
done
declare -A before
for w in $players; do before[$w]=$(mail_count "$w"); done
club_set_offset 120
club_wake_tick "$(club_daemon_now)"
wait_round 1 3
round_games 1 | sed 's/^/#   round 1: game /'
t_ok_if "round 1: three games, the top seed alice White against dave" \
	test "$(round_games 1 | head -1 | cut -d' ' -f2-)" = "alice dave"
ok=yes
for w in $players; do
	wait_mail "$w" "round 1 paired" 30 "${before[$w]}" >/dev/null || ok=no
done
t_ok_if "every entrant got the round 1 pairing" test $ok = yes
ok=yes
while read -r g white black; do
	raw_wait "$white" "move $g 1 MOVE" 30 "${before[$white]}" >/dev/null ||
		ok=no
done < <(round_games 1)
t_ok_if "White of each game got \"your move\"" test $ok = yes

# --- 2. round 1: Black resigns each game; round 2 waits for the last
declare -A met
n=0
while read -r g white black; do
	met["$white-$black"]=1
	met["$black-$white"]=1
	resign "$black" "$g"
	n=$((n + 1))
	if [ $n -lt 3 ]; then
		sleep 0.5
		t_ok_if "round 2 not paired while round 1 runs ($n of 3 over)" \
			test "$(round_games 2 | wc -l)" = 0
	fi
done < <(round_games 1)
wait_round 2 3
round_games 2 | sed 's/^/#   round 2: game /'
ok=yes
while read -r g white black; do
	[ -n "${met["$white-$black"]:-}" ] && ok=no
	met["$white-$black"]=1
	met["$black-$white"]=1
done < <(round_games 2)
t_ok_if "round 2: no pair meets again" test $ok = yes

# --- 3. round 2: the Black player of its second game withdraws by mail
read -r g2 w2 leaver < <(round_games 2 | sed -n 2p)
f=$(ask "$leaver" "tournament leave open6")
t_ok_if "$leaver's reply: left the event, the running game lost" \
	digest_has "$f" "^You left tournament open6\\."
wait_over "$g2"
t_ok_if "game $g2 ended at once, $w2 won" \
	test "$(db "select result from games where id = $g2")" = \
	"$(db "select case when white_id = (select id from players where name = '$w2') then '1-0' else '0-1' end from games where id = $g2")"
while read -r g white black; do
	[ "$g" = "$g2" ] && continue
	resign "$white" "$g"
done < <(round_games 2)
wait_round 3 2
round_games 3 | sed 's/^/#   round 3: game /'
t_ok_if "round 3: two games and a bye, $leaver in none" \
	test -z "$(round_games 3 | grep -w "$leaver")" -a \
	"$(db "select count(*) from tournament_entries where kind = 'bye'")" = 1

# --- 4. round 3: one game ends, the other runs into the deadline
read -r g3a w3a b3a < <(round_games 3 | sed -n 1p)
read -r g3b w3b b3b < <(round_games 3 | sed -n 2p)
resign "$b3a" "$g3a"
mv=$(e2e_ashes legal --size 3 | head -1)
nb=$(mail_count "$b3b")
player_send "$w3b" pgpmime "Re: [ashes #$g3b]" "move $g3b 1 $mv"
raw_wait "$b3b" "move $g3b 2 MOVE" 30 "$nb" >/dev/null ||
	e2e_fail "$b3b got no 'your move' in game $g3b"
for w in $players; do before[$w]=$(mail_count "$w"); done
paired=$(db "select min(at) from tournament_entries where kind = 'pairing' and round = 3")
club_set_offset $((paired + 4 * 86400 + 60 - $(date +%s)))
club_wake_tick "$(club_daemon_now)"
wait_over "$g3b"
t_ok_if "game $g3b decided at the deadline: $b3b (less time left) lost" \
	test "$(db "select result from games where id = $g3b")" = 1-0
t_ok_if "recorded as the daemon's adjudication" \
	test "$(db "select actor || ' ' || outcome from tournament_entries where kind = 'adjudication'")" = "daemon white"
f=$(wait_mail "$b3b" "game $g3b is over" 30 "${before[$b3b]}")
t_ok_if "$b3b is told the deadline decided it" \
	digest_has "$f" "^The deadline of its round of tournament open6 came"

# --- 5. the final standings, once to each of the six
ok=yes
for w in $players; do
	f=$(wait_mail "$w" "final standings" 30 "${before[$w]}") || { ok=no; continue; }
	final=$f
done
t_ok_if "each of the six got the final standings" test $ok = yes
e2e_digest "$final" | sed -n '/^Standings:/,$p' | sed 's/^/#   /'
t_ok_if "six standings rows, $leaver marked withdrawn" \
	test "$(e2e_digest "$final" | sed -n '/^Standings:/,/^$/p' |
		grep -c '^  [0-9]\.')" = 6 -a \
	-n "$(e2e_digest "$final" | grep "^  [0-9]\. $leaver .*withdrawn")"
t_ok_if "and the crosstable" digest_has "$final" '^Crosstable'
club_set_offset $((CLUB_OFFSET + 120))
club_wake_tick "$(club_daemon_now)"
t_ok_if "the final standings went once" \
	test "$(db "select count(*) from outbox where kind = 'tournament' and subject like '%final standings%'")" = 6

# --- 6. the event's archive, exported and verified
e2e_daemon_key
ev=$E2E_DIR/event-open6
e2e_ashes archive export --event open6 "$ev" --config "$E2E_DIR/ashesd.conf" \
	>"$E2E_DIR/event-export.out" 2>&1
t_ok_if "the event's archive exported" test $? = 0
sed 's/^/#   /' "$E2E_DIR/event-export.out"
e2e_ashes archive verify "$ev" --daemon-key "$dfpr" >"$E2E_DIR/event-verify.out" 2>&1
t_ok_if "the event's archive verified" test $? = 0
grep -v '^ply \|^mail-\|^clocks: \|^result: \|^resignation: \|^game [0-9]*: .* keys from keys.asc$\|^manifest: [0-9]* files, every sum right; signed by [0-9A-F]*, the club.s key as given$' \
	"$E2E_DIR/event-verify.out" | sed 's/^/#   /'
# the two games the log decided (the leaver's, the deadline's) end with
# no signed mail: their archives verify every ply, their end is the log's
t_ok_if "verify: every game's archive verified, or ended by the log's decision" \
	test "$(grep -c '^verified: game \|^game [0-9]*: its end is the log.s ' "$E2E_DIR/event-verify.out")" = \
	"$(db "select count(*) from tournament_games where tournament = 'open6'")"
t_ok_if "verify: those two are the withdrawal's and the deadline's" \
	test "$(grep -c '^game [0-9]*: its end is the log.s \(forfeit by a withdrawal\|adjudication\), which no player signed' "$E2E_DIR/event-verify.out")" = 2
t_ok_if "verify: the deadline's decision shown as the daemon's" \
	grep -q '^game [0-9]*: adjudicated 1-0 .* by daemon.*: no game record to agree with' "$E2E_DIR/event-verify.out"
t_ok_if "verify: the standings recomputed" \
	grep -q '^standings.txt: [0-9]* lines, as the log replayed gives them$' "$E2E_DIR/event-verify.out"
e2e_end
