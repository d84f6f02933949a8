#!/bin/bash
# bench/e2e-load.sh -- issue 14's load bench, end to end on loopback: a
# store holding GAMES games in progress and FINISHED finished ones (default
# 10,000 and 100,000; bench/load_fill writes them through the store API),
# PLAYERS players (default 20) with their own gpg keys and mailboxes, then
# MOVES (default 5,000) signed moves, each the next legal move of its own
# game by the player to move, handed to Postfix on one connection while
# ashesd runs (at once, or --rate R mails/s).  Prints:
#  - throughput: MOVES / (first mail handed to Postfix .. the last reply
#    accepted by Postfix, i.e. ashesd's outbox empty);
#  - latency, median and 99th percentile: delivery (Dovecot saving the move
#    in ashesd's mailbox: the Maildir file name, to the microsecond) to
#    commit (the log line, read within ~10 ms) and to the reply reaching
#    the mover's mailbox (Dovecot saving it: its Maildir file name);
#  - ashesd's peak RSS (VmHWM) after 1,000 mails and after all (MOVES/2
#    instead of 1,000 at a smaller scale), and the growth (goal: < 10%);
#  - the database's size before and after.
# Then the same with a smarthost taking 1 s per mail (bench/smtp_slow.py)
# instead of Postfix for the
# replies, MOVES more moves (the next ply of other games): the reading side
# only, delivery to commit, for at most --slow-cap seconds (default 300);
# the replies are not waited for.
#   bash bench/e2e-load.sh [--moves N] [--games N] [--finished N]
#        [--players N] [--rate R] [--slow-cap S]
# e.g. a smoke run: bash bench/e2e-load.sh --moves 500 --games 1000 --finished 10000
# (ASHES_BUILDDIR / ASHES_SRCDIR as for make check; needs root and
# bench/load_fill: make bench/load_fill.)  Prints figures only.
set -u
ASHES_SRCDIR=${ASHES_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
ASHES_BUILDDIR=${ASHES_BUILDDIR:-$ASHES_SRCDIR/_build}
export ASHES_SRCDIR ASHES_BUILDDIR
BENCH=$(cd "$(dirname "$0")" && pwd)
MOVES=5000 GAMES=10000 FINISHED=100000 PLAYERS=20 RATE=0 SLOW_CAP=300
while [ $# -gt 0 ]; do
	case $1 in
	--moves) MOVES=$2 ;;
	--games) GAMES=$2 ;;
	--finished) FINISHED=$2 ;;
	--players) PLAYERS=$2 ;;
	--rate) RATE=$2 ;;
	--slow-cap) SLOW_CAP=$2 ;;
	*) echo "usage: e2e-load.sh [--moves N] [--games N] [--finished N] [--players N] [--rate R] [--slow-cap S]" >&2
		exit 2 ;;
	esac
	shift 2
done
if [ "$(id -u)" != 0 ]; then echo "e2e-load: skipped (needs root)"; exit 0; fi
FILL=$ASHES_BUILDDIR/bench/load_fill
if [ ! -x "$FILL" ]; then
	echo "e2e-load: skipped ($FILL not built: make bench/load_fill)"
	exit 0
fi
if [ "$GAMES" -lt "$MOVES" ]; then
	echo "e2e-load: --games must be at least --moves" >&2
	exit 2
fi
. "$ASHES_SRCDIR/tests/e2e/lib-game.sh"
TOOL=$BENCH/e2e_tool.py
now() { date +%s.%N; }
mark=$((MOVES < 2000 ? MOVES / 2 : 1000))

e2e_start "[limits]
max_commands = 64
sender_rate_limit = 0"
echo "players: $PLAYERS mailboxes and keys..."
names=()
for ((i = 0; i < PLAYERS; i++)); do names+=("$(printf 'p%02d' "$i")"); done
for n in "${names[@]}"; do
	bash "$MAILSTACK" adduser "$MAILSTACK_DIR" "$n" "$n-pw" >/dev/null ||
		e2e_fail "mailstack adduser $n"
done
LH=$E2E_DIR/gnupg-load
mkdir -p "$LH" && chmod 700 "$LH"
for n in "${names[@]}"; do
	printf 'Key-Type: eddsa\nKey-Curve: ed25519\nKey-Usage: sign\nName-Real: %s\nName-Email: %s@%s\nExpire-Date: 1y\n%%no-protection\n%%commit\n' \
		"$n" "$n" "$MAIL_DOMAIN"
done | GNUPGHOME=$LH gpg --batch --gen-key >/dev/null 2>&1 || e2e_fail "gpg --gen-key"
GNUPGHOME=$LH gpg --batch --with-colons --list-secret-keys 2>/dev/null |
	awk -F: '/^sec/ { f = 1 } /^fpr/ && f { fpr = $10; f = 0 }
		/^uid/ { a = $10; sub(/.*</, "", a); sub(/>.*/, "", a)
			print substr(a, 1, index(a, "@") - 1), a, fpr }' \
	>"$E2E_DIR/players"
[ "$(wc -l <"$E2E_DIR/players")" = "$PLAYERS" ] || e2e_fail "players file: $(cat "$E2E_DIR/players")"
GNUPGHOME=$LH gpg --batch --armor --export |
	GNUPGHOME=$E2E_DIR/daemon-gnupg gpg --batch --quiet --import 2>/dev/null ||
	e2e_fail "importing the players' keys into the daemon's keyring"
e2e_stop_daemon

echo "filling the store: $GAMES games in progress, $FINISHED finished; signing $((2 * MOVES)) moves..."
mkdir -p "$E2E_DIR/load"
t0=$(now)
"$FILL" "$E2E_DIR/ashes.db" "$LH" "$E2E_DIR/players" "$E2E_DIR/load" \
	"$GAMES" "$FINISHED" "$MOVES" 2 || e2e_fail "load_fill failed"
t1=$(now)
db_size() { du -cb "$E2E_DIR"/ashes.db* | tail -n 1 | cut -f1; }
size0=$(db_size)
printf 'store filled and %d mails signed in %.1f s; database %.1f MB\n' \
	"$((2 * MOVES))" "$(echo "$t1 - $t0" | bc)" "$(echo "scale=2; $size0 / 1000000" | bc)"

# run_phase PHASE: ashesd on a fresh log, the watcher on it, the PHASE
# mails handed to Postfix; sets T_SEND0 T_SEND1
run_phase() {
	local ph=$1 n=1
	e2e_stop_daemon
	while [ -f "$E2E_DIR/ashesd.log.$n" ]; do n=$((n + 1)); done
	[ -f "$E2E_DIR/ashesd.log" ] && mv "$E2E_DIR/ashesd.log" "$E2E_DIR/ashesd.log.$n"
	e2e_start_daemon
	python3 -S "$TOOL" watch "$E2E_DIR/ashesd.log" "$E2E_DAEMON_PID" \
		"$E2E_DIR/stamps.$ph" "$mark,$MOVES" &
	WATCH_PID=$!
	E2E_PIDS+=("$WATCH_PID")
	python3 -S "$TOOL" send "$SMTP_PORT" "$MAIL_DOMAIN" "$E2E_DIR/load/plan" \
		"$ph" "$E2E_DIR/load/$ph" "$RATE" "$E2E_DIR/send.$ph" ||
		e2e_fail "Postfix refused the mails"
	read -r T_SEND0 T_SEND1 <"$E2E_DIR/send.$ph"
}
stamped() { wc -l <"$E2E_DIR/stamps.$1"; }
stop_watch() {
	touch "$E2E_DIR/stamps.$1.stop"
	wait "$WATCH_PID" 2>/dev/null
}
rss_line() {
	local ph=$1 a b last
	a=$(awk -v m="$mark" '$1 == m { print $2 }' "$E2E_DIR/stamps.$ph.rss")
	b=$(awk -v m="$MOVES" '$1 == m { print $2 }' "$E2E_DIR/stamps.$ph.rss")
	last=$MOVES
	if [ -z "$b" ]; then
		b=$(awk '$1 == "end" { print $2 }' "$E2E_DIR/stamps.$ph.rss")
		last=$(stamped "$ph")
	fi
	if [ -n "$a" ] && [ -n "$b" ]; then
		printf 'ashesd peak RSS (VmHWM): %.1f MB after %d mails, %.1f MB after %d: %+.1f%% (goal: within 10%%)\n' \
			"$(echo "scale=2; $a / 1024" | bc)" "$mark" \
			"$(echo "scale=2; $b / 1024" | bc)" "$last" \
			"$(echo "scale=3; ($b - $a) * 100 / $a" | bc)"
	elif [ -n "$b" ]; then
		printf 'ashesd peak RSS (VmHWM): %.1f MB after %d mails (fewer than %d)\n' \
			"$(echo "scale=2; $b / 1024" | bc)" "$last" "$mark"
	else
		echo "ashesd peak RSS: not sampled ($(tr '\n' ';' <"$E2E_DIR/stamps.$ph.rss"))"
	fi
}
players_list=${names[*]}

# --- A: replies through Postfix
echo "A: $MOVES moves through Postfix and Dovecot, replies through Postfix"
run_phase 0
printf '   handed to Postfix in %.2f s\n' "$(echo "$T_SEND1 - $T_SEND0" | bc)"
deadline=$(($(date +%s) + 3600))
while [ "$(stamped 0)" -lt "$MOVES" ]; do
	kill -0 "$E2E_DAEMON_PID" 2>/dev/null || e2e_fail "ashesd died"
	[ "$(date +%s)" -lt "$deadline" ] || e2e_fail "only $(stamped 0) of $MOVES handled after an hour"
	sleep 0.5
done
while [ -n "$(outbox_unsent)" ]; do sleep 0.5; done
t_out=$(now)
stop_watch 0
# the replies reach the mailboxes a moment after Postfix took them
for _ in $(seq 1 60); do
	rep=$(python3 -S "$TOOL" report "$E2E_DIR/load/plan" 0 "$E2E_DIR/stamps.0" \
		"$MAILSTACK_DIR" "$players_list")
	[ "$(echo "$rep" | sed -n 's/.* replied \([0-9]*\)$/\1/p')" -ge "$MOVES" ] && break
	sleep 1
done
echo "   $(echo "$rep" | sed -n 1p)"
read -r _ d2c_med d2c_p99 d2c_max <<<"$(echo "$rep" | sed -n 's/^d2c //p' | sed 's/^/x /')"
read -r _ d2r_med d2r_p99 d2r_max <<<"$(echo "$rep" | sed -n 's/^d2r //p' | sed 's/^/x /')"
read -r _ first last_c last_r <<<"$(echo "$rep" | sed -n 's/^span //p' | sed 's/^/x /')"
printf 'throughput: %d moves, first handed to Postfix .. ashesd'"'"'s outbox empty (every reply accepted by Postfix): %.1f s = %.1f moves/s (reading side, first delivery .. last commit: %.1f moves/s)\n' \
	"$MOVES" \
	"$(echo "$t_out - $T_SEND0" | bc)" "$(echo "scale=3; $MOVES / ($t_out - $T_SEND0)" | bc)" \
	"$(echo "scale=3; $MOVES / ($last_c - $first)" | bc)"
printf 'latency delivery -> reply in the mover'"'"'s mailbox: median %.0f ms, p99 %.0f ms, max %.0f ms\n' \
	"$d2r_med" "$d2r_p99" "$d2r_max"
printf 'latency delivery -> commit: median %.0f ms, p99 %.0f ms, max %.0f ms\n' \
	"$d2c_med" "$d2c_p99" "$d2c_max"
rss_line 0
size1=$(db_size)
printf 'database: %.1f MB before, %.1f MB after %d moves (%.1f KB a move)\n' \
	"$(echo "scale=2; $size0 / 1000000" | bc)" "$(echo "scale=2; $size1 / 1000000" | bc)" \
	"$MOVES" "$(echo "scale=2; ($size1 - $size0) / 1000 / $MOVES" | bc)"

# --- B: replies through a 1 s-per-mail smarthost
e2e_stop_daemon
python3 -S "$BENCH/smtp_slow.py" "$E2E_DIR/slow.port" "$E2E_DIR/slow.count" 1 &
E2E_PIDS+=("$!")
for _ in $(seq 1 100); do [ -s "$E2E_DIR/slow.port" ] && break; sleep 0.1; done
[ -s "$E2E_DIR/slow.port" ] || e2e_fail "the slow SMTP server did not start"
real_smtp=$SMTP_PORT
SMTP_PORT=$(cat "$E2E_DIR/slow.port")
e2e_write_config "[limits]
max_commands = 64
sender_rate_limit = 0"
SMTP_PORT=$real_smtp
echo "B: $MOVES more moves, replies through a smarthost taking 1 s a mail (bench/smtp_slow.py); at most $SLOW_CAP s"
run_phase 1
deadline=$(echo "$T_SEND0 + $SLOW_CAP" | bc)
while [ "$(stamped 1)" -lt "$MOVES" ]; do
	kill -0 "$E2E_DAEMON_PID" 2>/dev/null || e2e_fail "ashesd died"
	[ "$(echo "$(now) < $deadline" | bc)" = 1 ] || break
	sleep 0.5
done
t_end=$(now)
stop_watch 1
rep=$(python3 -S "$TOOL" report "$E2E_DIR/load/plan" 1 "$E2E_DIR/stamps.1" \
	"$MAILSTACK_DIR" "$players_list" "$t_end")
done_b=$(stamped 1)
read -r _ d2c_med d2c_p99 d2c_max <<<"$(echo "$rep" | sed -n 's/^d2c //p' | sed 's/^/x /')"
read -r _ first last_c last_r <<<"$(echo "$rep" | sed -n 's/^span //p' | sed 's/^/x /')"
printf 'slow smarthost: %d of %d moves committed in %.1f s (cap %d s); the smarthost accepted %d replies\n' \
	"$done_b" "$MOVES" "$(echo "$t_end - $T_SEND0" | bc)" "$SLOW_CAP" "$(cat "$E2E_DIR/slow.count")"
read -r _ all_med all_p99 <<<"$(echo "$rep" | sed -n 's/^d2c_all //p' | sed 's/^/x /')"
printf 'slow smarthost, reading side: %.2f moves/s committed (%d in %.1f s from the first handed to Postfix); delivery -> commit over all %d: median %s ms, p99 %s ms ("> X": not committed when the cap ended, X so far)\n' \
	"$(echo "scale=3; $done_b / ($t_end - $T_SEND0)" | bc)" "$done_b" \
	"$(echo "$t_end - $T_SEND0" | bc)" "$MOVES" "$all_med" "$all_p99"
if [ "$done_b" -gt 0 ]; then
	printf 'slow smarthost, the committed ones alone: delivery -> commit median %.0f ms, p99 %.0f ms\n' \
		"$d2c_med" "$d2c_p99"
fi
rss_line 1
