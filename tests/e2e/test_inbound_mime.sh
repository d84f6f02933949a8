#!/bin/bash
# tests/e2e/test_inbound_mime.sh -- how a mail is written, through the
# real ashesd between a real Dovecot and a real Postfix: signed moves in
# quoted-printable, base64, ISO-8859-1 and HTML-only bodies; a 5 MiB mail
# (answered briefly, archived, not parsed, the daemon stays quick); an
# auto-reply (never answered, its commands never run); a delivery report
# (recorded, not answered, the address marked failing), one written like
# Postfix's and one made by this Postfix for a mailbox that went away.
# Each case checks the reply (or its absence) and the store.
# shellcheck disable=SC2317 # the part makers are called through play_encoded
set -u
. "${ASHES_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/e2e/lib-inbound.sh"

in_start
cd "$E2E_DIR" || exit 1
D=$MAIL_DOMAIN
bash "$MAILSTACK" adduser "$E2E_DIR/stack" dave dave-pw >/dev/null ||
	e2e_fail "no mailbox for dave"
in_make_key dave 1y

# ---- players; an ISO-8859-1 register with a non-ASCII name ------------
for who in alice dave; do
	player_send "$who" pgpmime register "register $who

$(e2e_pubkey "$who")"
done
player_send bob inline register "register bob

$(e2e_pubkey bob)"
in_entity_text "register Zoë

$(e2e_pubkey mallory)" iso-8859-1 >ent
in_mail m.eml mallory pgpmime ent
in_send mallory m.eml
for who in alice bob dave; do
	in_reply "$who" "Welcome, $who" 0 || e2e_fail "$who is not registered"
	mode=pgpmime
	[ "$who" = bob ] && mode=inline
	e2e_confirm "$who" "$mode" "$R"
done
if in_reply mallory . 0; then
	t_has "ISO-8859-1: the refused name is quoted back in UTF-8" \
		'"Zoë" cannot be a player name' "$(e2e_digest "$R")"
	t_has "ISO-8859-1: the command line is quoted back" "^> register Zoë" "$(e2e_digest "$R")"
fi
t_hasnt "ISO-8859-1: no player Zoë" "Zo|mallory" "$(in_players)"

na=$(mail_count alice) nb=$(mail_count bob)
player_send alice pgpmime challenge "challenge bob"
in_reply alice "Game 1 created" "$na"
player_send bob inline accept "accept 1"
in_reply bob "accepted game 1" "$nb"
in_reply alice "your move in game 1" "$na"
hist=()

# play_encoded WHO PLY ENTITY-MAKER...: WHO sends move PLY (the first
# legal move) in a PGP/MIME mail whose signed part the maker writes
# (given the command line as its last argument); the reply must say it
# was taken, and the ply be stored.
play_encoded() {
	local who=$1 ply=$2 what=$3 mv n
	shift 3
	mv=$(in_legal "${hist[@]}" | head -n 1)
	n=$(mail_count "$who")
	"$@" "move 1 $ply $mv" >ent
	in_mail m.eml "$who" pgpmime ent
	in_send "$who" m.eml
	if in_reply "$who" "Taken: move 1 $ply|Refused|could not be read" "$n"; then
		t_has "$what: the move is taken" "Taken: move 1 $ply $mv" "$(e2e_digest "$R")"
	fi
	t_is "$what: ply $ply stored" "$ply" "$(in_game_ply 1)"
	hist+=("$mv")
}

qp() { in_entity_text "$1
-- 
Grüße ☺" utf-8 quoted-printable; }
b64() { in_entity_text "$1" utf-8 base64; }
latin1() { in_entity_text "$1
-- 
Amitiés, Zoë" iso-8859-1; }
html() {
	printf 'Content-Type: text/html; charset=utf-8\r\n\r\n'
	printf '<html><head><title>resign 1</title><style>p { x: y }</style></head>\r\n'
	printf '<body><!-- resign 1 --><div>%s</div>\r\n' "${1// /\&nbsp;}"
	printf '<div><br></div><p>&lt;3 &amp; bye</p></body></html>\r\n'
}
play_encoded alice 1 "quoted-printable (soft breaks, =2D)" qp
if grep -q "move 1 1 ${hist[0]}" m.eml; then
	t_fail "quoted-printable: the command was readable undecoded"
else
	t_ok "quoted-printable: the command is not readable undecoded"
fi
play_encoded bob 2 "base64" b64
play_encoded alice 3 "ISO-8859-1 with a non-ASCII signature line" latin1
play_encoded bob 4 "HTML-only (title, style, comment dropped)" html

# ---- a 5 MiB mail, then a small one; an auto-reply ---------------------
in_wait_sent
snap=$(in_snapshot)
na=$(mail_count alice) nb=$(mail_count bob)
ob=$(in_outbox_count)
ni=$(in_inbound_count)
{
	printf 'Content-Type: multipart/mixed; boundary="in-mix"\r\n\r\n'
	printf -- '--in-mix\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n'
	printf 'challenge bob\r\n\r\n'
	printf -- '--in-mix\r\nContent-Type: image/jpeg; name="board.jpg"\r\n'
	printf 'Content-Transfer-Encoding: base64\r\n\r\n'
	head -c $((5 * 1024 * 1024)) /dev/urandom | base64 -w 76 | sed 's/$/\r/'
	printf -- '--in-mix--\r\n'
} >ent
in_mail big.eml alice pgpmime ent
big_id=$IN_MSGID
big_size=$(stat -c %s big.eml)
t0=$(date +%s%N)
in_send alice big.eml
player_send bob pgpmime board "board 1"
t1=$(date +%s%N)
if in_reply bob "^Game 1 " "$nb" 30; then
	t2=$(date +%s%N)
	t_ok "after the 5 MiB mail, a small one is answered"
	echo "# 5 MiB mail sent in $(( (t1 - t0) / 1000000 )) ms; the next mail answered $(( (t2 - t1) / 1000000 )) ms after it was sent"
fi
if in_reply alice "too big" "$na" 30; then
	# Postfix and Dovecot add a few header lines on the way
	got=$(e2e_digest "$R" | sed -n 's/.*too big to be read here (\([0-9]*\) bytes; the limit is 1048576).*/\1/p')
	if [ -n "$got" ] && [ "$got" -ge "$big_size" ] && [ "$got" -lt $((big_size + 4096)) ]; then
		t_ok "5 MiB: the brief reply gives the size ($got) and the limit"
	else
		t_fail "5 MiB: the brief reply gives the size and the limit" "$(e2e_digest "$R")"
	fi
	t_is "5 MiB: the reply is brief" 1 "$(( $(stat -c %s "$R") < 4096 ))"
fi
t_has "5 MiB: recorded as too big" "too.big" "$(in_outcome "$big_id")"
t_is "5 MiB: moved to the Archive folder" 1 \
	"$(in_doveadm search -u ashes mailbox Archive header Message-ID "$big_id" | wc -l)"
# an auto-reply, signed by a player and holding a command: ignored
in_entity_text "resign 1" >ent
IN_SUBJECT="Out of office" in_mail m.eml alice pgpmime ent "Auto-Submitted: auto-replied"
auto_id=$IN_MSGID
in_send alice m.eml
in_wait_inbound $((ni + 3)) || t_fail "the auto-reply was not recorded"
in_wait_sent
t_has "auto-reply: recorded, not answered" "auto" "$(in_outcome "$auto_id")"
t_is "5 MiB and auto-reply: no game made, none resigned" "$snap" "$(in_snapshot)"
t_is "5 MiB, board, auto-reply: two replies queued" $((ob + 2)) "$(in_outbox_count)"
t_is "alice got one mail (too big)" $((na + 1)) "$(mail_count alice)"

# ---- a delivery report naming one of our Message-IDs ------------------
R=$(e2e_mails bob | tail -n 1)
ourid=$(mail_header "$R" Message-ID)
ni=$(in_inbound_count)
ob=$(in_outbox_count)
{
	printf 'From: MAILER-DAEMON@mx.%s (Mail Delivery System)\r\n' "$D"
	printf 'To: ashes@%s\r\nSubject: Undelivered Mail Returned to Sender\r\n' "$D"
	printf 'Date: %s\r\nMessage-ID: <dsn.%s@mx.%s>\r\n' "$(date -R)" "$RANDOM" "$D"
	printf 'Auto-Submitted: auto-replied\r\nMIME-Version: 1.0\r\n'
	printf 'Content-Type: multipart/report; report-type=delivery-status;\r\n'
	printf '\tboundary="dsn-b"\r\n\r\n'
	printf -- '--dsn-b\r\nContent-Description: Notification\r\n'
	printf 'Content-Type: text/plain; charset=us-ascii\r\n\r\n'
	printf 'I am sorry to have to inform you that your message could not\r\n'
	printf 'be delivered to one or more recipients.\r\n\r\n'
	printf '<bob@%s>: host mx.%s said: 552 5.2.2 mailbox full\r\n\r\n' "$D" "$D"
	printf -- '--dsn-b\r\nContent-Description: Delivery report\r\n'
	printf 'Content-Type: message/delivery-status\r\n\r\n'
	printf 'Reporting-MTA: dns; mx.%s\r\n\r\n' "$D"
	printf 'Final-Recipient: rfc822; bob@%s\r\nAction: failed\r\nStatus: 5.2.2\r\n' "$D"
	printf 'Diagnostic-Code: smtp; 552 5.2.2 mailbox full\r\n\r\n'
	printf -- '--dsn-b\r\nContent-Description: Undelivered Message Headers\r\n'
	printf 'Content-Type: text/rfc822-headers\r\n\r\n'
	printf 'From: Ashes club <ashes@%s>\r\nTo: bob@%s\r\n' "$D" "$D"
	printf 'Subject: [ashes #1] alice vs bob\r\nMessage-ID: %s\r\n\r\n' "$ourid"
	printf -- '--dsn-b--\r\n'
} >dsn.eml
in_send "" dsn.eml
in_wait_inbound $((ni + 1)) || t_fail "the delivery report was not recorded"
in_wait_sent
t_has "bounce: bob's address is marked failing, with why, in parentheses" \
	"address bob@$D  \\(failing: our mail bounced\\)\$" "$(in_players)"
t_is "bounce: nothing queued" "$ob" "$(in_outbox_count)"
t_hasnt "bounce: alice's address is not failing" "address alice@$D +\\(failing" "$(in_players)"

# ---- a real bounce: this Postfix cannot deliver to dave any more -------
sed -i '/^dave:/d' "$E2E_DIR/stack/dovecot/users"
sleep 1.1 # Dovecot re-reads its passwd-file at most once a second
ni=$(in_inbound_count)
ob=$(in_outbox_count)
player_send dave pgpmime games "games"
in_wait_inbound $((ni + 2)) 30 || t_fail "no bounce came back for dave's reply"
in_wait_sent
t_is "real bounce: one reply queued (to dave), none to the bounce" $((ob + 1)) "$(in_outbox_count)"
if grep -q "status=bounced" "$E2E_DIR/stack/postfix/maillog"; then
	t_ok "real bounce: Postfix bounced the reply to dave"
else
	t_fail "real bounce: Postfix bounced the reply to dave"
fi
t_has "real bounce: dave's address is marked failing, with why, in parentheses" \
	"address dave@$D  \\(failing: our mail bounced\\)\$" "$(in_players)"

t_done
