#!/bin/bash
# tests/e2e/test_limits.sh -- loops and floods through the real daemon:
# mail marked as bulk or as our own loop is archived and never answered;
# a sender over [limits] sender_rate_limit is answered once more (saying
# so) and then ignored for the hour -- refused mail counts too, so an
# attacker cannot make the daemon send mail to a forged address at will.
set -u
[ "$(id -u)" = 0 ] || { echo "SKIP: needs root (Postfix)"; exit 77; }
. "$(dirname "$0")/lib.sh"

pass=0 fail=0 n=0
ok() {
	n=$((n + 1))
	if [ "$2" = "$3" ]; then
		echo "ok $n - $1"; pass=$((pass + 1))
	else
		echo "not ok $n - $1"; echo "  expected: $2"; echo "  actual:   $3"
		fail=$((fail + 1))
	fi
}

e2e_start "[limits]
sender_rate_limit = 2"
db=$E2E_DIR/ashes.db
inbound() { e2e_ashes inbound list --db "$db"; }

# Bulk and looping mail: recorded, archived, not answered.
player_send bob unsigned "news" "help" "Precedence: bulk"
player_send bob unsigned "loop" "help" "X-Loop: ashes@$MAIL_DOMAIN"
player_send bob unsigned "auto" "help" "Auto-Submitted: auto-generated"
for i in $(seq 1 300); do
	[ "$(inbound | grep -c 'ignored')" -ge 3 ] && break
	sleep 0.1
done
ok "bulk, X-Loop and auto-generated mail recorded as ignored" 3 "$(inbound | grep -c 'ignored')"
sleep 1
ok "none of them answered" 0 "$(mail_count bob)"

# A flood of unsigned mail from one address.
for i in 1 2 3 4 5; do
	player_send mallory unsigned "flood $i" "help"
done
for i in $(seq 1 300); do
	[ "$(inbound | grep -c 'rate-limited')" -ge 2 ] && break
	sleep 0.1
done
f=$(wait_mail mallory "more mails in the last hour" 30) || f=
ok "the first mail over the limit is answered, saying why" yes "$([ -n "$f" ] && echo yes)"
sleep 2
ok "mallory got exactly limit + 1 answers" 3 "$(mail_count mallory)"
ok "the first two were refused as unsigned" 2 \
	"$(for f in $(e2e_mails mallory); do e2e_digest "$f"; done | grep -c 'was not signed')"
ok "the rest of the flood recorded as rate-limited" 2 "$(inbound | grep -c 'rate-limited')"
ok "every mail of the flood recorded" 5 "$(inbound | grep -c 'mallory@')"

# Another sender is not affected by mallory's flood.
f=$(e2e_register alice pgpmime) || f=
ok "another player is still answered" yes "$([ -n "$f" ] && echo yes)"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
