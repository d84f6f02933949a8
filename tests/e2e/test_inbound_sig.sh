#!/bin/bash
# tests/e2e/test_inbound_sig.sh -- who speaks in a mail, through the real
# ashesd reading a real Dovecot and answering through a real Postfix:
# PGP/MIME and inline signed moves, register with the key pasted or
# attached (application/pgp-keys inside multipart/mixed inside the signed
# part), and the refusals: unsigned, tampered, unknown key, expired key,
# replayed signed text, stale ply, and a From forged by a registered
# player signing with his own key.  Registering takes a confirmation
# round trip (the code mailed to the From address comes back signed);
# a refused mail whose signer nobody verified is answered only at a
# known address, once a day.  Each case checks the reply the sender
# gets (its reason) and the store (games, plies, players, outbox, the
# recorded outcome) through the `ashes` admin commands.  Mails whose
# order does not matter are sent together, to keep the test short.
set -u
. "${ASHES_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/e2e/lib-inbound.sh"

in_start
cd "$E2E_DIR" || exit 1
D=$MAIL_DOMAIN

# carol's key expires 40 s from now: registered (and her address
# confirmed) while valid, used after.  eve's key is never registered.
bash "$MAILSTACK" adduser "$E2E_DIR/stack" carol carol-pw >/dev/null ||
	e2e_fail "no mailbox for carol"
in_make_key carol seconds=40
carol_made=$(date +%s)
in_make_key eve 1y

# ---- register with the key pasted; a key nobody registered ------------
for who in alice bob carol mallory; do eval "n_$who=0"; done
player_send carol pgpmime register "register carol

$(e2e_pubkey carol)"
player_send alice pgpmime register "register alice

$(e2e_pubkey alice)"
player_send bob inline register "register bob

$(e2e_pubkey bob)"
in_entity_text "challenge alice" >ent
in_mail m.eml mallory pgpmime ent
unknown_id=$IN_MSGID
in_send mallory m.eml
if in_reply carol "Welcome, carol" 0; then
	t_ok "carol registers (PGP/MIME, key pasted)"
	e2e_confirm carol pgpmime "$R"
fi
if in_reply alice "Welcome, alice" 0; then
	t_has "alice (PGP/MIME, key pasted): the welcome names her key" \
		"Your key: $(e2e_fpr alice)" "$(e2e_digest "$R")"
	t_has "alice: the code goes to her From address" \
		"To make alice@$D the address your game mails go to" "$(e2e_digest "$R")"
	e2e_confirm alice pgpmime "$R"
	in_reply alice "alice@$D is confirmed" 1 &&
		t_ok "alice: her From address is confirmed with the code"
fi
if in_reply bob "Welcome, bob" 0; then
	t_ok "bob registers (inline clearsigned, key pasted)"
	e2e_confirm bob inline "$R"
fi
players=$(in_players)
t_has "player list: alice with her key" "^	key +$(e2e_fpr alice)" "$players"
t_has "player list: bob with his address" "^	address bob@$D" "$players"
t_is "three players, no game" "3 0" \
	"$(printf '%s\n' "$players" | grep -c '^[0-9]') $(in_games_count)"
# mallory's address is of the daemon's domain and nobody holds it: a
# forged sender as far as the daemon can tell, so no answer (below, the
# same refusal at a known address is answered)
in_wait_inbound 7 || t_fail "7 mails recorded"
t_is "unknown key at an unknown address of our domain: recorded, not answered" \
	"refused: unknown_key (not answered: From is an unknown address of our own domain)" \
	"$(in_outcome "$unknown_id")"
t_is "unknown key at an unknown address of our domain: no mail to mallory" 0 \
	"$(mail_count mallory)"

# ---- register with the key ATTACHED; a challenge -----------------------
{
	printf 'Content-Type: multipart/mixed; boundary="in-mix"\r\n\r\n'
	printf -- '--in-mix\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n'
	printf 'register mallory\r\n\r\n'
	printf -- '--in-mix\r\nContent-Type: application/pgp-keys; name="mallory.asc"\r\n'
	printf 'Content-Disposition: attachment; filename="mallory.asc"\r\n\r\n'
	e2e_pubkey mallory | sed 's/$/\r/'
	printf -- '--in-mix--\r\n'
} >ent
in_mail m.eml mallory pgpmime ent
in_send mallory m.eml
na=$(mail_count alice) nb=$(mail_count bob)
in_entity_text "challenge bob" >ent
in_mail challenge.eml alice pgpmime ent
challenge_id=$IN_MSGID
in_send alice challenge.eml
if in_reply mallory "Welcome, mallory" 0; then
	t_has "register with the key attached: the welcome names it" \
		"Your key: $(e2e_fpr mallory)" "$(e2e_digest "$R")"
	e2e_confirm mallory pgpmime "$R"
fi
t_has "player list: mallory with the attached key" \
	"^	key +$(e2e_fpr mallory)" "$(in_players)"
in_reply alice "Game 1 created" "$na"
player_send bob inline "accept" "accept 1"
in_reply bob "accepted game 1" "$nb"
in_reply alice "your move in game 1" "$na"
t_is "game 1 active at ply 0" "0" "$(in_game_ply 1)"

# ---- an unknown key (eve's) at a known address: answered there ---------
nm=$(mail_count mallory)
in_entity_text "challenge alice" >ent
IN_FROM="mallory <mallory@$D>" in_mail m.eml eve pgpmime ent
in_send mallory m.eml
if in_reply mallory "no player here" "$nm"; then
	t_has "unknown key: the reply says the key is not registered" \
		"signed with a key that no player here has registered" "$(e2e_digest "$R")"
	t_has "unknown key: the reply names the fingerprint" "$(e2e_fpr eve)" "$(e2e_digest "$R")"
fi
t_is "unknown key at a known address: recorded as refused (answered)" \
	"refused: unknown_key" "$(in_outcome "$IN_MSGID")"

# ---- PGP/MIME signed move ----------------------------------------------
mapfile -t legal < <(in_legal)
m1=${legal[0]}
na=$(mail_count alice) nb=$(mail_count bob)
in_entity_text "move 1 1 $m1" >ent
in_mail m.eml alice pgpmime ent
in_send alice m.eml
in_reply alice "Taken: move 1 1 $m1" "$na" && t_ok "PGP/MIME move: taken, says the reply"
t_is "PGP/MIME move: ply 1 stored" 1 "$(in_game_ply 1)"
in_reply bob "your move in game 1" "$nb" && t_ok "bob is told it is his move"

# ---- inline clearsigned move (kept for the replay below) --------------
mapfile -t legal < <(in_legal "$m1")
m2=${legal[0]}
nb=$(mail_count bob)
in_entity_text "$(in_clearsign bob "move 1 2 $m2")" >ent
in_mail bobmove.eml bob none ent
bob_move_id=$IN_MSGID
in_send bob bobmove.eml
in_reply bob "Taken: move 1 2 $m2" "$nb" && t_ok "inline move: taken, says the reply"
t_is "inline move: ply 2 stored" 2 "$(in_game_ply 1)"
t_is "inline move: attributed to bob's key" "$(e2e_fpr bob)" "$(in_inbound_key "$bob_move_id")"
mapfile -t legal < <(in_legal "$m1" "$m2")
m3=${legal[0]} m3b=${legal[1]}

# ---- refusals, sent together -------------------------------------------
in_wait_sent
snap=$(in_snapshot)
na=$(mail_count alice) nb=$(mail_count bob) nm=$(mail_count mallory)
oa=$(in_outbox_to alice)
# unsigned
in_entity_text "move 1 3 $m3" >ent
in_mail m.eml alice none ent
unsigned_id=$IN_MSGID
in_send alice m.eml
# tampered: the signed text changed after signing.  From bob: a mail
# whose signer is not verified is answered once a day per address, and
# alice's address has its answer for the unsigned mail above.
in_entity_text "move 1 3 $m3" >ent
in_mail m.eml bob pgpmime ent
tampered_id=$IN_MSGID
sed -i "s/^move 1 3 $m3\r\$/move 1 3 $m3b\r/" m.eml
grep -q "move 1 3 $m3b" m.eml || t_fail "tampered: could not change the signed text"
in_send bob m.eml
# From forged to alice's address (and envelope), signed by mallory's key
in_entity_text "move 1 3 $m3" >ent
IN_FROM="alice <alice@$D>" in_mail m.eml mallory pgpmime ent
forged_id=$IN_MSGID
in_send alice m.eml
# replays: the same signed bytes under a new Message-ID
sed "s/^Message-ID: <\(.*\)>\r\$/Message-ID: <replay.\1>\r/" bobmove.eml >replay1.eml
in_send bob replay1.eml
sed "s/^Message-ID: <\(.*\)>\r\$/Message-ID: <replay.\1>\r/" challenge.eml >replay2.eml
in_send alice replay2.eml
# stale ply
in_entity_text "move 1 2 $m3" >ent
in_mail m.eml alice pgpmime ent
stale_id=$IN_MSGID
in_send alice m.eml

in_wait_count alice $((na + 3))
in_wait_count bob $((nb + 2))
in_wait_count mallory $((nm + 1))
in_wait_sent
if in_pick alice "$na" "not signed"; then
	t_has "unsigned: the reply says why" \
		"Your mail was not signed, so nothing in it was done" "$(e2e_digest "$R")"
fi
if in_pick bob "$nb" "does not match"; then
	t_has "tampered: the reply says the signature does not match" \
		"signature on your mail does not match its text" "$(e2e_digest "$R")"
fi
if in_pick mallory "$nm" "game 1"; then
	t_ok "forged From: the reply goes to mallory's registered address"
	t_has "forged From: refused as mallory's, not his game" \
		"you do not play in game 1" "$(e2e_digest "$R")"
	t_has "forged From: the reply greets mallory" "Hello mallory" "$(e2e_digest "$R")"
fi
in_pick bob "$nb" "used in an earlier mail" && t_ok "replayed move: refused as a replay"
if in_pick alice "$na" "used in an earlier mail"; then
	t_ok "replayed challenge: refused as a replay"
fi
if in_pick alice "$na" "your move was for ply"; then
	t_has "stale ply: the reply names both plies" \
		"game 1 is at ply 3; your move was for ply 2" "$(e2e_digest "$R")"
fi
t_is "refusals: games, plies and players unchanged" "$snap" "$(in_snapshot)"
t_is "refusals: one game in all" 1 "$(in_games_count)"
# alice: unsigned, replayed challenge, stale ply (the tampered mail is
# bob's now; the forged one is answered to mallory)
t_is "refusals: one reply each, 3 to alice, none for the forged mail" \
	"$((oa + 3))" "$(in_outbox_to alice)"
t_is "refusals: alice got exactly 3 mails" "$((na + 3))" "$(mail_count alice)"
t_is "refusals: bob got exactly 2 mails (tampered, replayed move)" \
	"$((nb + 2))" "$(mail_count bob)"
t_has "unsigned: recorded as refused" "unsigned" "$(in_outcome "$unsigned_id")"
t_has "tampered: recorded as a bad signature" "bad.signature" "$(in_outcome "$tampered_id")"
t_has "forged From: recorded as refused" "not_your_game" "$(in_outcome "$forged_id")"
t_is "forged From: attributed to mallory" mallory "$(in_inbound_player "$forged_id")"
t_has "replays: recorded as replays" "replay.*replay" \
	"$(in_outcome "replay.$bob_move_id") $(in_outcome "replay.$challenge_id")"
t_has "stale ply: recorded" "stale_ply" "$(in_outcome "$stale_id")"

# ---- alice's real move 3, with the words mallory signed first --------
# signed by mutt's own PGP/MIME code, as a player's mail client does
na=$(mail_count alice)
if in_mutt_mail m.eml alice "game 1" "move 1 3 $m3"; then
	t_has "mutt made a PGP/MIME signed mail" "^Content-Type: multipart/signed" "$(cat m.eml)"
else
	echo "# no mutt here (or it failed): the mail is built by the test"
	in_entity_text "move 1 3 $m3" >ent
	in_mail m.eml alice pgpmime ent
fi
in_send alice m.eml
in_reply alice "Taken: move 1 3 $m3|earlier mail" "$na"
t_has "move 3 is taken although mallory signed the same words" \
	"Taken: move 1 3 $m3" "$(e2e_digest "$R")"
t_is "ply 3 stored" 3 "$(in_game_ply 1)"

# ---- expired key -------------------------------------------------------
while [ "$(date +%s)" -le $((carol_made + 41)) ]; do sleep 1; done
snap=$(in_snapshot)
nc=$(mail_count carol)
in_entity_text "challenge alice" >ent
# gpg signs only with a valid key: sign as of 10 s after the key was made
IN_GPG_OPTS="--faked-system-time $((carol_made + 10))" in_mail m.eml carol pgpmime ent
in_send carol m.eml
if in_reply carol "expired" "$nc"; then
	t_has "expired key: the reply says the key has expired" \
		"signed with a key that has expired" "$(e2e_digest "$R")"
fi
t_is "expired key: nothing changed" "$snap" "$(in_snapshot)"
t_has "expired key: recorded as refused" "expired" "$(in_outcome "$IN_MSGID")"

t_done
