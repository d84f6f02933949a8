#!/bin/bash
# tests/e2e/test_daemon_config.sh -- the daemon's config (issue 5):
#  7. ashesd refuses a config with unknown keys, sections or bad values,
#     naming file:line, with exit status 1 (both --check-config and a real
#     start); --check-config prints "ok" on a good one;
#  6. template override: [templates] dir holding a changed
#     mail/your-move.txt is used for the "your move" mails, and every
#     template missing there (reply.txt, the legal-move list) falls back
#     to the default set.  (Needs the mail stack: root.)
set -u
. "$(dirname "$0")/lib-game.sh"
D=$(mktemp -d /tmp/ashes-e2e-config.XXXXXX)
ASHESD=$E2E_BUILD/ashesd

# --- 7. config errors
cat >"$D/good.conf" <<EOF2
# a good config
[imap]
url = imap://127.0.0.1:1143
user = ashes
password = secret
poll_interval = 30s

[smtp]
url = smtp://127.0.0.1:1025
from = ashes@example.test

[database]
path = $D/ashes.db
EOF2
"$ASHESD" -c "$D/good.conf" --check-config >"$D/out" 2>&1
rc=$?
t_ok_if "--check-config on a good config: exit 0" test "$rc" = 0
t_ok_if "--check-config prints ok first" test "$(head -n 1 "$D/out")" = ok
t_ok_if "--check-config masks the password" \
	bash -c "grep -q '^password = \*\*\*' '$D/out' && ! grep -q secret '$D/out'"

# bad CASE-NAME LINE-NUMBER EXPECTED-REGEX SED-SCRIPT
bad() {
	local name=$1 line=$2 re=$3 f=$D/$1.conf rc
	sed "$4" "$D/good.conf" >"$f"
	"$ASHESD" -c "$f" --check-config >"$D/out" 2>&1
	rc=$?
	sed 's/^/#   /' "$D/out"
	t_ok_if "$name: --check-config exits 1" test "$rc" = 1
	t_ok_if "$name: the message names $name.conf:$line" \
		grep -qE -- "^$f:$line: .*$re" "$D/out"
	t_ok_if "$name: no ok printed" bash -c "! grep -qx ok '$D/out'"
	timeout 20 "$ASHESD" -c "$f" --foreground </dev/null >"$D/out" 2>&1
	rc=$?
	t_ok_if "$name: a real start exits 1 with the same message" \
		bash -c "[ $rc = 1 ] && grep -qE -- '^$f:$line: .*$re' '$D/out'"
}
bad unknown-key 10 'unknown key "colour"' '9a colour = blue'
bad unknown-section 14 'frobnicate' '13a [frobnicate]'
bad bad-duration 6 'poll_interval' 's/^poll_interval = 30s/poll_interval = soon/'
bad bad-boolean 7 'idle' '6a idle = maybe'
bad bad-port 9 'port' 's|^url = smtp://127.0.0.1:1025|url = smtp://127.0.0.1:99999|'
# two errors at once: both reported
sed -e '9a colour = blue' -e 's/^poll_interval = 30s/poll_interval = soon/' \
	"$D/good.conf" >"$D/two.conf"
"$ASHESD" -c "$D/two.conf" --check-config >"$D/out" 2>&1
rc=$?
t_ok_if "two errors: exit 1, both lines named" \
	bash -c "[ $rc = 1 ] && grep -q '^$D/two.conf:6:' '$D/out' && grep -q '^$D/two.conf:10:' '$D/out'"
"$ASHESD" -c "$D/missing.conf" --check-config >"$D/out" 2>&1
rc=$?
t_ok_if "a missing config file: exit 1, named" \
	bash -c "[ $rc = 1 ] && grep -q 'missing.conf' '$D/out'"
rm -rf "$D"

# --- 6. template override
if [ "$(id -u)" != 0 ]; then
	echo "# template override skipped: needs root (private Postfix)"
	e2e_end
	exit
fi
game_require_stack
e2e_start "[game]
size = 3"
mkdir -p "$E2E_DIR/tpl/mail"
{
	echo "{{! an operator's your-move.txt }}"
	echo "OPERATOR TEMPLATE: {{recipient}}, you are to move in game {{game}}."
	sed 1d "$E2E_TOP/templates/mail/your-move.txt"
} >"$E2E_DIR/tpl/mail/your-move.txt"
e2e_stop_daemon
e2e_write_config "[game]
size = 3

[templates]
dir = $E2E_DIR/tpl"
game_restart_daemon
e2e_register alice pgpmime >/dev/null
e2e_register bob pgpmime >/dev/null
game_new alice bob 3 pgpmime
f=$(raw_wait alice "move $G_GAME 1 MOVE" 10)
e2e_digest "$f" | sed -n '2,4p' | sed 's/^/#   /'
t_ok_if "the 'your move' mail uses the override" \
	digest_has "$f" "^OPERATOR TEMPLATE: alice, you are to move in game $G_GAME\."
t_ok_if "its partials fall back to the defaults (the legal-move list)" \
	digest_has "$f" "^Legal moves \([0-9]+\):"
f=$(wait_mail bob "> accept $G_GAME" 10)
t_ok_if "the reply (no override) comes from the default reply.txt" \
	digest_has "$f" "^Hello bob,"
t_ok_if "the reply holds no override text" \
	bash -c "! grep -q 'OPERATOR TEMPLATE' '$E2E_DIR/digest/$(basename "${f%%:*}")'"
# a broken override is refused at start: the daemon keeps its word
printf '{{#open}} never closed\n' >"$E2E_DIR/tpl/mail/reply.txt"
e2e_stop_daemon
ASHES_TEMPLATES=${ASHES_TEMPLATES:-$E2E_TOP/templates} \
	"$E2E_BUILD/ashesd" -c "$E2E_DIR/ashesd.conf" --foreground </dev/null \
	>"$E2E_DIR/broken.log" 2>&1 &
pid=$!
for i in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
if kill -0 "$pid" 2>/dev/null; then kill "$pid"; fi
wait "$pid"
rc=$?
sed 's/^/#   /' "$E2E_DIR/broken.log"
t_ok_if "a broken override template: ashesd refuses to start, naming it" \
	bash -c "[ $rc = 1 ] && grep -q 'tpl/mail/reply.txt:1:' '$E2E_DIR/broken.log'"
e2e_end
