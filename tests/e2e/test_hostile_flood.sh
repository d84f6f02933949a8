#!/bin/bash
# tests/e2e/test_hostile_flood.sh -- hostile mail that aims at other
# people, through the real ashesd between a real Dovecot and Postfix:
#   poison From: a signed register with a 330-character From address is
#     refused (bad_address), nothing is stored for it, and a flood of them
#     does not rate-limit the real player whose move comes right after;
#   forged delivery reports: a made-up report naming alice and a guessed
#     Message-ID of ours marks nothing; one naming a real Message-ID
#     marks only the address that mail went to, never the Final-Recipient
#     the report claims (the player list shows "(failing: REASON)");
#   backscatter: unsigned mail from an unknown address is answered once
#     a day, and never at an unknown address of the daemon's own domain;
#     unsigned mail forged From a player's address once a day too.
# Each check reads the outcome the daemon recorded (`ashes inbound
# list`), the store, and the mailboxes.
set -u
. "${ASHES_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/e2e/lib-hostile.sh"

# Rate limit 5 an hour: bob's register, confirm, challenge and move are
# 4; eve's flood of 8 goes over it.
h_start "[game]
size = 3

[limits]
sender_rate_limit = 5"
in_make_key eve 1y

h_players alice bob
game_new bob alice 3 pgpmime
game=$G_GAME

# ---- 2. a register with a 330-character From, eight times ---------------
long=$(head -c $((330 - 1 - ${#D})) /dev/zero | tr '\0' e)@$D
[ "${#long}" = 330 ] || e2e_fail "the long address is ${#long} characters"
players_before=$(in_players)
eve_ids=()
for i in 1 2 3 4 5 6 7 8; do
	# a new signed text each time (a text counts once, ever)
	in_entity_text "register eve

$(e2e_pubkey eve)
-- 
eve $i" >ent
	IN_FROM="eve <$long>" in_mail "eve$i.eml" eve pgpmime ent
	eve_ids+=("$IN_MSGID")
	in_send mallory "eve$i.eml"
	# the first is handled before the others are sent: it is the one
	# under the rate limit for sure
	[ "$i" = 1 ] && h_is_outcome "long From: the first register is refused as a bad address" \
		"refused: line 1: bad_address" "$IN_MSGID"
done
# bob's move, right behind them
f=$(raw_wait bob "move $game 1 MOVE" 30) || e2e_fail "bob has no your-move mail"
pick=$(e2e_ashes legal --size 3 | head -n 1)
nb=$(mail_count bob)
in_entity_text "move $game 1 $pick" >ent
in_mail bobmove.eml bob pgpmime ent
bob_id=$IN_MSGID
in_send bob bobmove.eml
h_is_outcome "bob's move right after the long-From mails: applied" \
	"ok: 1 command" "$bob_id"
in_reply bob "Taken: move $game 1 $pick" "$nb" &&
	t_ok "bob's move right after the long-From mails: answered"
t_is "bob's move stored" 1 "$(h_ply "$game")"
for id in "${eve_ids[@]}"; do h_wait_outcome "$id" 30 >/dev/null; done
outs=$(for id in "${eve_ids[@]}"; do h_outcome "$id"; done)
t_is "long From: 5 refused as bad_address, 1 rate-limited (answered), 2 ignored" \
	"5 1 2" "$(printf '%s\n' "$outs" | grep -c '^refused: line 1: bad_address') $(printf '%s\n' "$outs" | grep -c '^refused: rate_limited') $(printf '%s\n' "$outs" | grep -c '^ignored: rate-limited')"
t_is "long From: no player, claim or key stored for it" "$players_before" "$(in_players)"
t_hasnt "long From: the address is nowhere in the player list" "eeeeeeee" "$(in_players)"
# the key each refused register brought left the daemon's keyring again:
# refused mail must not grow it
if GNUPGHOME=$E2E_DIR/daemon-gnupg gpg --batch --list-keys "$(e2e_fpr eve)" >/dev/null 2>&1; then
	t_fail "long From: eve's key is not left in the daemon's keyring"
else
	t_ok "long From: eve's key is not left in the daemon's keyring"
fi
t_hasnt "no mail of bob or alice was rate-limited" "rate" \
	"$(in_admin inbound list | grep -E '  (alice|bob) ')"

# ---- 8. forged delivery reports ------------------------------------------
# dsn FILE FINAL-RECIPIENT MESSAGE-ID: a report as Postfix writes one.
dsn() {
	{
		printf 'From: MAILER-DAEMON@mx.%s (Mail Delivery System)\r\n' "$D"
		printf 'To: ashes@%s\r\nSubject: Undelivered Mail Returned to Sender\r\n' "$D"
		printf 'Date: %s\r\nMessage-ID: <dsn.%s.%s@mx.%s>\r\n' "$(date -R)" "$RANDOM" "$(date +%s%N)" "$D"
		printf 'Auto-Submitted: auto-replied\r\nMIME-Version: 1.0\r\n'
		printf 'Content-Type: multipart/report; report-type=delivery-status;\r\n'
		printf '\tboundary="dsn-b"\r\n\r\n'
		printf -- '--dsn-b\r\nContent-Description: Notification\r\n'
		printf 'Content-Type: text/plain; charset=us-ascii\r\n\r\n'
		printf 'Your message could not be delivered.\r\n\r\n'
		printf '<%s>: host mx.%s said: 550 5.1.1 no such user\r\n\r\n' "$2" "$D"
		printf -- '--dsn-b\r\nContent-Description: Delivery report\r\n'
		printf 'Content-Type: message/delivery-status\r\n\r\n'
		printf 'Reporting-MTA: dns; mx.%s\r\n\r\n' "$D"
		printf 'Final-Recipient: rfc822; %s\r\nOriginal-Recipient: rfc822; %s\r\n' "$2" "$2"
		printf 'Action: failed\r\nStatus: 5.1.1\r\n'
		printf 'Diagnostic-Code: smtp; 550 5.1.1 no such user\r\n\r\n'
		printf -- '--dsn-b\r\nContent-Description: Undelivered Message Headers\r\n'
		printf 'Content-Type: text/rfc822-headers\r\n\r\n'
		printf 'From: Ashes club <ashes@%s>\r\nTo: %s\r\n' "$D" "$2"
		printf 'Subject: [ashes #%s] bob vs alice\r\nMessage-ID: %s\r\n\r\n' "$game" "$3"
		printf -- '--dsn-b--\r\n'
	} >"$1"
}
dsn_id() { sed -n 's/^Message-ID: <\(.*\)>\r$/\1/p' "$1" | head -n 1; }
dsn forged.eml "alice@$D" "<ashes.1.0.1.0@$D>"
forged_id=$(dsn_id forged.eml)
in_send "" forged.eml
h_is_outcome "forged report, guessed Message-ID: recorded as naming no mail of ours" \
	"ignored: bounce (names no mail of ours)" "$forged_id"
t_hasnt "forged report, guessed Message-ID: alice's address is not failing" \
	"failing" "$(h_player_block alice)"
t_has "alice's address is still hers" "^	address alice@$D\$" "$(h_player_block alice)"
# bob forges one naming alice, with the Message-ID of a mail of ours he
# got: only the address that mail went to (bob's own) is marked
R=$(raw_wait bob "Taken: move $game 1" 10 "$nb") || R=
bobs=$(mail_header "$R" Message-ID)
t_has "a Message-ID of a mail of ours to bob" "^<ashes\\." "$bobs"
dsn forged2.eml "alice@$D" "$bobs"
forged2_id=$(dsn_id forged2.eml)
in_send "" forged2.eml
h_is_outcome "report naming alice with a mail of ours to bob: one address marked" \
	"ignored: bounce (1 address marked failing)" "$forged2_id"
t_hasnt "... and it is not alice's" "failing" "$(h_player_block alice)"
t_has "... but bob's, the mail's recipient: (failing: REASON) with its parenthesis" \
	"^	address bob@$D  \\(failing: our mail bounced\\)\$" "$(h_player_block bob)"

# ---- 12. backscatter -------------------------------------------------------
# three unsigned mails from an address of another domain nobody holds
stranger=stranger@elsewhere.test
ids=()
for i in 1 2 3; do
	in_entity_text "games" >ent
	IN_FROM="Stranger <$stranger>" in_mail "s$i.eml" mallory none ent
	ids+=("$IN_MSGID")
	in_send mallory "s$i.eml"
done
for id in "${ids[@]}"; do h_wait_outcome "$id" 30 >/dev/null; done
outs=$(for id in "${ids[@]}"; do h_outcome "$id"; done)
t_is "unknown address: one refusal answered" 1 "$(printf '%s\n' "$outs" | grep -cx 'refused: unsigned')"
t_is "unknown address: the other two not answered (its refusal today)" 2 \
	"$(printf '%s\n' "$outs" | grep -cxF 'refused: unsigned (not answered: this address had its refusal today)')"
in_wait_sent 20
t_is "unknown address: exactly one reply queued to it" 1 "$(in_admin outbox list |
	awk -v a="$stranger" '$1 ~ /^[0-9]+$/ && $6 == a { n++ } END { print n + 0 }')"
# three unsigned mails whose From is a player's address: nobody verified
# who sent them either (anyone can write alice's address), so alice's
# address gets one refusal a day too, not one per forged mail
na=$(mail_count alice)
ids=()
for i in 1 2 3; do
	in_entity_text "games" >ent
	in_mail "a$i.eml" alice none ent
	ids+=("$IN_MSGID")
	in_send mallory "a$i.eml"
done
for id in "${ids[@]}"; do h_wait_outcome "$id" 30 >/dev/null; done
in_wait_sent 20
sleep 1
t_is "unsigned mails forged From alice: one answered, two not (her refusal today)" \
	"1 2" "$(for id in "${ids[@]}"; do h_outcome "$id"; done | grep -cx 'refused: unsigned') $(for id in "${ids[@]}"; do h_outcome "$id"; done | grep -cxF 'refused: unsigned (not answered: this address had its refusal today)')"
t_is "unsigned mails forged From alice: alice got one mail" $((na + 1)) "$(mail_count alice)"
# an unknown address of the daemon's own domain: a forged sender
nobody=nobody@$D
in_entity_text "games" >ent
IN_FROM="Nobody <$nobody>" in_mail n.eml mallory none ent
h_id=$IN_MSGID
in_send mallory n.eml
h_is_outcome "unknown address of our own domain: recorded, not answered" \
	"refused: unsigned (not answered: From is an unknown address of our own domain)" "$h_id"
t_is "unknown address of our own domain: no reply queued to it" 0 "$(in_admin outbox list |
	awk -v a="$nobody" '$1 ~ /^[0-9]+$/ && $6 == a { n++ } END { print n + 0 }')"

t_done
