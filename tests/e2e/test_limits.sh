#!/bin/bash
# tests/e2e/test_limits.sh -- loops and floods through the real daemon:
# mail marked as bulk or as our own loop is archived and never answered;
# a sender over [limits] sender_rate_limit is answered once more (saying
# so) and then ignored for the hour -- refused mail counts too, so an
# attacker cannot make the daemon send mail to a forged address at will;
# an unknown address of the daemon's own domain is never answered.
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

# A flood of unsigned mail from one address.  mallory has not registered
# and her address is of the daemon's own domain, so it is a forged sender
# as far as the daemon can tell: none of the five is answered (the
# backscatter rule), but the flood is still counted: the first two are
# refused as unsigned, the third (limit + 1) as rate-limited, the rest
# ignored.
for i in 1 2 3 4 5; do
	player_send mallory unsigned "flood $i" "help"
done
for i in $(seq 1 300); do
	[ "$(inbound | grep -c 'rate-limited')" -ge 2 ] && break
	sleep 0.1
done
sleep 2
ok "the unsigned flood from an unknown address of our domain: no answer" 0 "$(mail_count mallory)"
ok "the first two were refused as unsigned, not answered" 2 \
	"$(inbound | grep -c 'refused: unsigned (not answered: From is an unknown address of our own domain)')"
ok "the third (limit + 1) was refused as rate-limited, not answered" 1 \
	"$(inbound | grep -c 'refused: rate_limited (not answered: From is an unknown address of our own domain)')"
ok "the rest of the flood recorded as rate-limited" 2 "$(inbound | grep -c 'ignored: rate-limited')"
ok "every mail of the flood recorded" 5 "$(inbound | grep -c 'mallory@')"

# A flood of signed mail from a registered player: counted by key.  bob's
# register and confirm are his first two mails of the hour (limit 2), so
# his first "games" is limit + 1: answered, saying why; the next two are
# ignored.
e2e_register bob pgpmime >/dev/null
nb=$(mail_count bob)
for i in 1 2 3; do
	player_send bob pgpmime "games" "games
-- 
bob $i"
done
f=$(wait_mail bob "more mails in the last hour" 30 "$nb") || f=
ok "the first mail over the limit is answered, saying why" yes "$([ -n "$f" ] && echo yes)"
for i in $(seq 1 300); do
	[ "$(inbound | grep -c 'ignored: rate-limited')" -ge 4 ] && break
	sleep 0.1
done
sleep 2
ok "bob got exactly one answer to his flood" $((nb + 1)) "$(mail_count bob)"
ok "the rest of bob's flood recorded as rate-limited" 4 "$(inbound | grep -c 'ignored: rate-limited')"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
