#!/bin/bash
# tests/e2e/test_hostile_identity.sh -- who a mail speaks for, under
# attack, through the real ashesd between a real Dovecot and Postfix with
# real gpg keys:
#   address squatting: mallory registers with alice's address as From
#     before alice does; the code goes to alice's mailbox, alice still
#     registers and confirms her address, mallory's codes are refused;
#   replays: an inline signed text re-sent with an empty line dash-escaped
#     ("- ", which gpg still verifies) is the same text; a signed bare
#     move re-sent with its headers pointing at another game is a replay;
#   Message-ID pre-emption: an unsigned mail that takes a Message-ID
#     first does not stop the signed mail that carries it too;
#   revocation: a revocation certificate, in an unsigned mail (pasted or
#     attached), revokes the key here and tells its player; `key replace`
#     moves a player to a new key once a mail signed by the new key
#     brings back the code, and the old one stops working.
# Each check reads the outcome the daemon recorded (`ashes inbound
# list`), the store (`ashes player list`, games) and the mailboxes.
set -u
. "${ASHES_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/e2e/lib-hostile.sh"

h_start "[game]
size = 3"
for who in carol dave erin; do h_add_user "$who"; done
# dave's second key, with dave's own user ID
mkdir -p gnupg-dave2 && chmod 700 gnupg-dave2
GNUPGHOME=$E2E_DIR/gnupg-dave2 gpg --batch --pinentry-mode loopback --passphrase '' \
	--quick-gen-key "dave <dave@$D>" ed25519 sign 1y >/dev/null 2>&1 ||
	e2e_fail "no second key for dave"
GNUPGHOME=$E2E_DIR/gnupg-dave2 gpg --batch --with-colons --list-secret-keys 2>/dev/null |
	awk -F: '/^fpr/ { print $10; exit }' >fpr.dave2

# h_outcomes MSGID: every outcome recorded under that Message-ID, in order.
h_outcomes() {
	in_admin inbound list | awk -v id="$1" '
		$1 ~ /^[0-9]+$/ {
			line = $0
			sub(/^ *[0-9]+ +[^ ]+ +[^ ]+ +[^ ]+ +[^ ]+ +/, "", line)
		}
		$1 == "message-id" && $2 == id { print line }'
}

# ---- 6. address squatting -------------------------------------------------
in_entity_text "register mallory

$(e2e_pubkey mallory)" >ent
IN_FROM="alice <alice@$D>" in_mail squat.eml mallory pgpmime ent
in_send mallory squat.eml
if in_reply alice "Welcome, mallory" 0; then
	t_ok "squatting: the code for alice's address goes to alice's mailbox"
	squat_code=$(e2e_digest "$R" | sed -n 's/^ *confirm \([A-Z0-9]*\)$/\1/p' | head -n 1)
	t_has "squatting: that mail holds the code" "^[A-Z2-9]{10}\$" "$squat_code"
fi
t_is "squatting: mallory's own mailbox got nothing" 0 "$(mail_count mallory)"
t_has "squatting: mallory's claim is not confirmed" \
	"^	claims  alice@$D  \\(not confirmed\\)\$" "$(h_player_block mallory)"
t_hasnt "squatting: mallory has no address" "^	address" "$(h_player_block mallory)"

h_players alice bob carol dave erin
t_has "squatting: alice registered and confirmed her own address" \
	"^	address alice@$D\$" "$(h_player_block alice)"
in_entity_text "confirm ABCDEFGHJK" >ent
in_mail m.eml mallory pgpmime ent
in_send mallory m.eml
h_is_outcome "squatting: mallory's confirm with a wrong code is refused" \
	"refused: line 1: bad_code" "$IN_MSGID"
# even the code itself (as if it leaked) binds nothing now
in_entity_text "confirm ${squat_code:-NOCODE2345}" >ent
in_mail m.eml mallory pgpmime ent
in_send mallory m.eml
h_is_outcome "squatting: mallory's confirm with her real code, after alice's, is refused" \
	"refused: line 1: address_taken" "$IN_MSGID"
t_is "squatting: alice's address is bound once in the player list, to alice" \
	"1 1" "$(in_players | grep -c "^	address alice@$D\$") $(h_player_block alice | grep -c "^	address alice@$D\$")"
# "Until then this address gets nothing from us but this code", says the
# welcome: the squatter's later mails must not be answered at alice's
# address (or anyone could mail her at will through the daemon)
in_wait_sent 20
sleep 1
t_is "squatting: of mallory's mails, alice's mailbox got the code only" 1 \
	"$(for f in $(e2e_mails alice); do e2e_digest "$f"; done | grep -c '^Hello mallory')"

# ---- 3. replays --------------------------------------------------------------
# (a) an inline signed challenge whose text holds an empty line
signed=$(in_clearsign alice "challenge bob

-- 
alice, $(date +%s%N)")
printf '%s\n' "$signed" >ent.asc
in_entity_text "$signed" >ent
in_mail ch1.eml alice none ent
in_send alice ch1.eml
h_is_outcome "replay: the inline signed challenge is applied" "ok: 1 command" "$IN_MSGID"
games1=$(in_games_count)
t_is "replay: one game" 1 "$games1"
# the same signed block, the empty line inside the text dash-escaped
printf '%s\n' "$signed" | awk '
	/^-----BEGIN PGP SIGNATURE-----/ { sig = 1 }
	/^$/ && !sig { n++; if (n == 2) { print "- "; next } }
	{ print }' >dash.asc
t_is "replay: exactly one line changed, to \"- \"" "- " \
	"$(diff ent.asc dash.asc | sed -n 's/^> //p')"
if GNUPGHOME=$E2E_DIR/gnupg-alice gpg --batch --verify dash.asc >/dev/null 2>&1; then
	t_ok "replay: gpg verifies the dash-escaped text"
else
	t_fail "replay: gpg verifies the dash-escaped text"
fi
in_entity_text "$(cat dash.asc)" >ent
in_mail ch2.eml alice none ent
in_send alice ch2.eml
h_is_outcome "replay: the dash-escaped copy is a replay" \
	"replay: signed text used before" "$IN_MSGID"
t_is "replay: still one game" 1 "$(in_games_count)"

# (b) a bare move in game 1's thread, re-sent in game 2's
g1=1
player_send bob pgpmime "accept" "accept $g1"
game_new alice bob 3 pgpmime
g2=$G_GAME
f1=$(raw_wait alice "move $g1 1 MOVE" 30) || e2e_fail "no your-move mail for game $g1"
f2=$(raw_wait alice "move $g2 1 MOVE" 30) || e2e_fail "no your-move mail for game $g2"
pick=$(e2e_ashes legal --size 3 | head -n 1)
id1=$(mail_header "$f1" Message-ID) id2=$(mail_header "$f2" Message-ID)
in_entity_text "$pick

On $(mail_header "$f1" Date), Ashes club wrote:
$(h_quote "$f1")" >ent
IN_SUBJECT="Re: $(mail_header "$f1" Subject)" in_mail bare1.eml alice pgpmime ent \
	"In-Reply-To: $id1" "References: $id1"
in_send alice bare1.eml
h_is_outcome "bare move quoting game $g1's mail: applied" "ok: 1 command" "$IN_MSGID"
t_is "bare move: game $g1 at ply 1" 1 "$(h_ply "$g1")"
sed -e "s/^Subject: .*\$/Subject: Re: $(mail_header "$f2" Subject | sed 's/[\/&]/\\&/g')\r/" \
	-e "s/^In-Reply-To: .*\$/In-Reply-To: $id2\r/" \
	-e "s/^References: .*\$/References: $id2\r/" \
	-e "s/^Message-ID: <\(.*\)>\r\$/Message-ID: <again.\1>\r/" bare1.eml >bare2.eml
t_has "the copy names game $g2 in its headers" "^Subject: Re: \\[ashes #$g2\\]" "$(cat bare2.eml)"
in_send alice bare2.eml
h_is_outcome "the same signed move under game $g2's headers: a replay" \
	"replay: signed text used before" "again.$IN_MSGID"
t_is "no move from it: game $g1 at ply 1, game $g2 at ply 0" "1 0" "$(h_ply "$g1") $(h_ply "$g2")"

# ---- 9. Message-ID pre-emption -----------------------------------------------
taken=preempt.$(date +%s%N)@$D
in_entity_text "help" >ent
in_mail m.eml mallory none ent
sed -i "s/^Message-ID: .*\$/Message-ID: <$taken>\r/" m.eml
in_send mallory m.eml
h_wait_outcome "$taken" 30 >/dev/null || t_fail "the unsigned mail was not recorded"
na=$(mail_count alice)
in_entity_text "move $g2 1 $pick" >ent
in_mail m.eml alice pgpmime ent
sed -i "s/^Message-ID: .*\$/Message-ID: <$taken>\r/" m.eml
in_send alice m.eml
for _ in $(seq 1 150); do
	[ "$(h_outcomes "$taken" | wc -l)" -ge 2 ] && break
	sleep 0.2
done
t_is "pre-emption: the signed move under a Message-ID taken first is applied" \
	"ok: 1 command" "$(h_outcomes "$taken" | sed -n 2p)"
in_reply alice "Taken: move $g2 1 $pick" "$na" &&
	t_ok "pre-emption: and answered"
t_is "pre-emption: game $g2 at ply 1" 1 "$(h_ply "$g2")"

# ---- 7. revocation certificates ----------------------------------------------
revcert() { sed 's/^:-----/-----/' "$E2E_DIR/gnupg-$1/openpgp-revocs.d/$(e2e_fpr "$1").rev"; }
nc=$(mail_count carol)
in_entity_text "Please revoke my key, it was stolen.

$(revcert carol)" >ent
in_mail m.eml carol none ent
in_send carol m.eml
h_is_outcome "revocation pasted in an unsigned mail: key revoked" "key revoked (1)" "$IN_MSGID"
if in_reply carol "revoked here now" "$nc"; then
	t_has "carol is told, naming her key" "$(e2e_fpr carol)" "$(e2e_digest "$R")"
fi
t_hasnt "carol's key is no longer hers" "$(e2e_fpr carol)" "$(h_player_block carol)"
nc=$(mail_count carol)
in_entity_text "games" >ent
in_mail m.eml carol pgpmime ent
in_send carol m.eml
h_is_outcome "a mail signed by carol's revoked key is refused" "refused: key_revoked" "$IN_MSGID"
if in_reply carol "revoked" "$nc"; then
	t_has "the reply says the key has been revoked" "has been revoked" "$(e2e_digest "$R")"
fi
# attached as application/pgp-keys, as a mail client attaches a key
ne=$(mail_count erin)
{
	printf 'Content-Type: multipart/mixed; boundary="rev-mix"\r\n\r\n'
	printf -- '--rev-mix\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n'
	printf 'My key is compromised; its revocation is attached.\r\n\r\n'
	printf -- '--rev-mix\r\nContent-Type: application/pgp-keys; name="revocation.asc"\r\n'
	printf 'Content-Disposition: attachment; filename="revocation.asc"\r\n\r\n'
	revcert erin | sed 's/$/\r/'
	printf -- '--rev-mix--\r\n'
} >ent
in_mail m.eml erin none ent
in_send erin m.eml
h_is_outcome "revocation attached as application/pgp-keys: key revoked" "key revoked (1)" "$IN_MSGID"
in_reply erin "revoked here now" "$ne" && t_ok "erin is told her key is revoked"
in_entity_text "games" >ent
in_mail m.eml erin pgpmime ent
in_send erin m.eml
h_is_outcome "a mail signed by erin's revoked key is refused" "refused: key_revoked" "$IN_MSGID"

# ---- 7. key replace ------------------------------------------------------------
nd=$(mail_count dave)
in_entity_text "key replace

$(e2e_pubkey dave2)" >ent
in_mail m.eml dave pgpmime ent
in_send dave m.eml
h_is_outcome "key replace signed by the old key, new key pasted: claimed" "ok: 1 command" "$IN_MSGID"
h_key_confirm "key replace" dave dave2 "$nd"
nd=$(mail_count dave)
in_entity_text "games" >ent
IN_FROM="dave <dave@$D>" in_mail m.eml dave2 pgpmime ent
in_send dave m.eml
h_is_outcome "a mail signed by the new key works" "ok: 1 command" "$IN_MSGID"
t_is "... as dave" dave "$(in_inbound_player "$IN_MSGID")"
in_reply dave "Hello dave" "$nd" && t_ok "... and dave is answered"
in_entity_text "games
-- 
old key" >ent
in_mail m.eml dave pgpmime ent
in_send dave m.eml
h_is_outcome "a mail signed by the old key is refused" "refused: line 1: not_registered" "$IN_MSGID"
t_is "... and speaks for nobody" - "$(in_inbound_player "$IN_MSGID")"

t_done
