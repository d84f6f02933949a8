#!/bin/bash
# tests/daemon/test_outbox_e2e.sh -- the outbox in the running ashesd on
# the private mail stack (tests/e2e/lib.sh): the daemon signs its mails
# with its own key (sign_replies), a "your move" mail carries the real
# board picture (PNG or SVG, as queued) as a text/html alternative and gpg
# verifies it; an observer's mail has List-Unsubscribe, and the mail that
# link makes (Subject and body "unobserve GAME") stops the observer mails.
set -u
if [ "$(id -u)" != 0 ]; then
	echo "SKIP: needs root (private Postfix)"
	exit 77
fi
for t in gpg python3 curl; do
	command -v "$t" >/dev/null || { echo "SKIP: no $t"; exit 77; }
done
[ -x /usr/sbin/postfix ] && command -v dovecot >/dev/null ||
	{ echo "SKIP: no Postfix or Dovecot"; exit 77; }
. "${ASHES_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
CHECK=$E2E_TOP/tests/daemon/outbox_check.py

e2e_start "[game]
size = 3"
# The daemon's own key, then sign_replies on, and start it again.
e2e_stop_daemon
home=$E2E_DIR/daemon-gnupg
e2e_daemon_key
sed -i "s|^home = $home\$|&\nsign_replies = yes\nsigning_key = $dfpr|" \
	"$E2E_DIR/ashesd.conf"
grep -q "^sign_replies = yes" "$E2E_DIR/ashesd.conf" || e2e_fail "config not edited"
e2e_start_daemon

for who in alice bob mallory; do
	e2e_register "$who" pgpmime >/dev/null
done
player_send alice pgpmime challenge "challenge bob size=3"
f=$(wait_mail alice "Game [0-9]+ created" 30) || e2e_fail "no answer to the challenge"
game=$(e2e_game_of "$f")
wait_mail bob "challenges you to game $game" 30 >/dev/null || e2e_fail "bob got no challenge"
player_send mallory pgpmime "observe" "observe $game"
wait_mail mallory "You now observe game $game" 30 >/dev/null || e2e_fail "mallory cannot observe"
player_send bob pgpmime "Re: [ashes #$game]" "accept $game"
f=$(wait_mail alice "it is your move in game $game" 30) || e2e_fail "no your-move mail"

# --- the your-move mail: signed by the daemon, board picture, headers
t_ok_if "your-move mail: signed by the daemon's key, html with the board (the real picture), text first" \
	python3 "$CHECK" "$f" --signed "$dfpr" "$home" --html \
	--header "Reply-To=ashes@$MAIL_DOMAIN" --header "X-Loop=ashes@$MAIL_DOMAIN" \
	--header Auto-Submitted=auto-generated
t_ok_if "your-move mail: From is the daemon" \
	test "$(mail_header "$f" From)" = "Ashes club <ashes@$MAIL_DOMAIN>"
t_ok_if "your-move mail: a Date" test -n "$(mail_header "$f" Date)"
t_ok_if "your-move mail: no List-Unsubscribe for a player" \
	test -z "$(mail_header "$f" List-Unsubscribe)"

# --- a move: the observer's mail, and the way out it offers
pick=$(e2e_ashes legal --size 3 | tail -n 1)
player_send alice pgpmime "Re: [ashes #$game]" "move $game 1 $pick"
o=$(wait_mail mallory "game $game .*which you observe" 30)
t_ok_if "mallory got an observer mail" test -n "$o"
unsub=$(mail_header "$o" List-Unsubscribe)
t_ok_if "observer mail: List-Unsubscribe <mailto:ashes@$MAIL_DOMAIN?subject=unobserve%20$game&body=unobserve%20$game>" \
	test "$unsub" = "<mailto:ashes@$MAIL_DOMAIN?subject=unobserve%20$game&body=unobserve%20$game>"
t_ok_if "observer mail: signed, with the board" \
	python3 "$CHECK" "$o" --signed "$dfpr" "$home" --html --header Auto-Submitted=auto-generated

# What a mail client sends for that link: the Subject, no text (signed,
# as mallory's client signs everything).
n=$(mail_count mallory)
player_send mallory pgpmime "unobserve $game" "unobserve $game"
r=$(wait_mail mallory "You no longer observe game $game" 30 "$n")
t_ok_if "the List-Unsubscribe mail (subject and body) ended mallory's observing" test -n "$r"
t_ok_if "the answer to it is auto-replied" \
	test "$(mail_header "$r" Auto-Submitted)" = auto-replied

# bob moves; alice is told; mallory is not any more
n=$(mail_count mallory)
pick2=$(e2e_ashes legal --size 3 "$pick" | tail -n 1)
na=$(mail_count alice)
player_send bob pgpmime "Re: [ashes #$game]" "move $game 2 $pick2"
wait_mail alice "it is your move in game $game" 30 "$na" >/dev/null ||
	e2e_fail "alice got no second your-move mail"
sleep 1
t_ok_if "no observer mail to mallory after unobserve" test "$(mail_count mallory)" = "$n"

# --- nothing pending or failed in the outbox (the last may be on its way)
unsent() {
	ASHES_TEMPLATES=$E2E_TOP/templates "$E2E_BUILD/ashes" outbox list \
		--db "$E2E_DIR/ashes.db" | awk '$2 == "pending" || $2 == "failed"'
}
for i in $(seq 1 50); do
	[ -z "$(unsent)" ] && break
	sleep 0.1
done
t_ok_if "outbox: every row sent" \
	test -z "$(unsent)"

e2e_end
