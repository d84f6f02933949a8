#!/bin/bash
# tests/daemon/test_status.sh -- `ashes status` of the real ashesd between
# a real Dovecot (IMAP IDLE) and Postfix on loopback, in the
# monitoring-plugin convention (exit 0 OK, 1 WARNING, 2 CRITICAL,
# 3 UNKNOWN):
#  1. after real traffic (a player registers): OK, exit 0, the pid, the
#     mailbox reached; --json is valid JSON saying the same;
#  2. kill -STOP: CRITICAL at once (the process is stopped), and once its
#     heartbeat is older than [status] heartbeat_critical (short here),
#     the heartbeat line says so; kill -CONT: OK again;
#  3. a clean stop: CRITICAL, "stopped cleanly"; started again: OK;
#  4. a loop that hangs (the test hook ASHES_TEST_HANG_ON, on a mail)
#     while its process runs on: CRITICAL by the heartbeat alone; killed
#     with SIGKILL: "not running (pid N is gone)";
#  5. no database: UNKNOWN, exit 3, text and JSON.
set -u
. "$(dirname "$0")/../e2e/lib-game.sh"
game_require_stack

T_START=$(date +%s)
HANG=HANG-THE-LOOP-$$
E2E_POLL_INTERVAL=1s
E2E_DAEMON_ENV=("ASHES_TEST_HANG_ON=$HANG")
# Short thresholds: the loop turns every second or so (poll_interval);
# a few seconds without a beat is news here.
e2e_start "[status]
heartbeat_warning = 8s
heartbeat_critical = 12s"
conf=$E2E_DIR/ashesd.conf

# st [ARG...]: ashes status -c CONF; its output in out, status in rc.
st() {
	out=$(e2e_ashes status -c "$conf" "$@" 2>&1)
	rc=$?
}
# st_until RC [SECONDS]: st until it exits RC (the daemon's next turn).
st_until() {
	local i
	for i in $(seq 1 $((${2:-15} * 2))); do
		st
		[ "$rc" = "$1" ] && return 0
		sleep 0.5
	done
	return 1
}
# jq_py EXPR: EXPR of the JSON on stdin (as python sees it: j is it).
jq_py() { python3 -c "import json,sys; j=json.load(sys.stdin); print($1)"; }

# ---- 1. running --------------------------------------------------------
e2e_register alice pgpmime >/dev/null
pid=$E2E_DAEMON_PID
st_until 0
echo "# ashes status:"
printf '%s\n' "$out" | sed 's/^/#   /'
t_is "running: exit 0" 0 "$rc"
t_has "running: the OK line first, with the pid" \
	"^ASHESD OK - running as pid $pid, up [0-9a-z]+, heartbeat [0-9]+s old \| heartbeat=" "$out"
t_has "running: the mailbox reached, none waiting" \
	'mailbox +OK +mailbox reached [0-9]+s ago, 0 mails waiting' "$out"
t_has "running: the database and free disk" \
	'disk +OK +database [0-9.]+ (B|KiB|MiB), [0-9.]+ [KMGT]iB free' "$out"
json=$(e2e_ashes status -c "$conf" --json)
rc=$?
t_is "--json: exit 0" 0 "$rc"
t_ok_if "--json: valid JSON" sh -c 'printf "%s" "$1" | python3 -m json.tool >/dev/null' sh "$json"
echo "# ashes status --json:"
printf '%s\n' "$json" | python3 -m json.tool | sed 's/^/#   /'
t_is "--json: version, state, pid, process" "1 OK $pid running" \
	"$(printf '%s' "$json" | jq_py '"%s %s %s %s" % (j["version"], j["state"], j["daemon"]["pid"], j["daemon"]["process"])')"
t_is "--json: a fresh heartbeat, nothing unsent or failed" "True 0 0 0" \
	"$(printf '%s' "$json" | jq_py '"%s %s %s %s" % (j["daemon"]["heartbeat_age"] < 8, j["outbox"]["unsent"], j["outbox"]["failed"], j["quarantined"])')"

# ---- 2. stopped --------------------------------------------------------
kill -STOP "$pid"
st
t_is "stopped: exit 2" 2 "$rc"
t_has "stopped: CRITICAL at once, the process stopped" \
	"^ASHESD CRITICAL - pid $pid is stopped \(state T\), not running normally" "$out"
sleep 13
st
echo "# ashes status, stopped 13 s:"
printf '%s\n' "$out" | sed 's/^/#   /'
t_is "stopped 13 s: exit 2" 2 "$rc"
t_has "stopped 13 s: the heartbeat line" \
	'heartbeat +CRITICAL +heartbeat 1[3-9]s old \(critical at 12s\)' "$out"
t_has "stopped 13 s: the summary names it" \
	'^ASHESD CRITICAL - .*heartbeat 1[3-9]s old \(critical at 12s\)' "$out"
t_is "stopped: --json says so" "CRITICAL 2 stopped T" \
	"$(e2e_ashes status -c "$conf" --json | jq_py '"%s %s %s %s" % (j["state"], j["exit"], j["daemon"]["process"], j["daemon"]["process_state"])')"
kill -CONT "$pid"
st_until 0
t_is "continued: OK again, exit 0" "0 ASHESD OK" "$rc ${out%% - *}"

# ---- 3. a clean stop ---------------------------------------------------
e2e_stop_daemon
st
t_is "stopped cleanly: exit 2" 2 "$rc"
t_has "stopped cleanly: said so" \
	'^ASHESD CRITICAL - not running \(stopped cleanly [0-9]+s ago\)' "$out"
e2e_start_daemon
pid=$E2E_DAEMON_PID
st_until 0
t_is "started again: OK, the new pid" "0 yes" \
	"$rc $(printf '%s' "$out" | grep -q "running as pid $pid," && echo yes)"

# ---- 4. a hung loop ----------------------------------------------------
player_send alice unsigned "hello" "$HANG"
for _ in $(seq 1 100); do
	grep -q 'test hook: the loop hangs' "$E2E_DIR/ashesd.log" && break
	sleep 0.1
done
t_ok_if "hung: the loop took the mail and hangs" \
	grep -q 'test hook: the loop hangs' "$E2E_DIR/ashesd.log"
st_until 2 20
t_is "hung: exit 2" 2 "$rc"
t_has "hung: the process runs" "process +OK +running as pid $pid" "$out"
t_has "hung: the heartbeat is critical" \
	'heartbeat +CRITICAL +heartbeat [0-9]+s old \(critical at 12s\)' "$out"
{ kill -KILL "$pid" && wait "$pid"; } 2>/dev/null
E2E_DAEMON_PID=
st
t_is "killed: exit 2" 2 "$rc"
t_has "killed: not running, pid gone" \
	"^ASHESD CRITICAL - not running \(pid $pid is gone\)" "$out"

# ---- 5. no database ----------------------------------------------------
mv "$E2E_DIR/ashes.db" "$E2E_DIR/ashes.db.away"
st
t_is "no database: exit 3" 3 "$rc"
t_has "no database: UNKNOWN, naming the file" \
	"^ASHESD UNKNOWN - no database at $E2E_DIR/ashes.db: No such file or directory" "$out"
t_ok_if "no database: not made by looking" test ! -e "$E2E_DIR/ashes.db"
json=$(e2e_ashes status -c "$conf" --json)
rc=$?
t_is "no database: --json, exit 3" "3 UNKNOWN 3" \
	"$rc $(printf '%s' "$json" | jq_py '"%s %s" % (j["state"], j["exit"])')"
mv "$E2E_DIR/ashes.db.away" "$E2E_DIR/ashes.db"
# (the hung mail is still in the mailbox: no daemon is started again)
e2e_end
