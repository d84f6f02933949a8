#!/bin/bash
# tests/e2e/test_hostile_keys.sh -- who a player is, round three (issue
# 22), through the real ashesd between a real Dovecot and Postfix with
# real gpg keys, one mail stack and one daemon for all of it:
#   3. a clearsigned `key replace` whose attached key (outside the
#      signature) the carrier swapped for their own: refused, the
#      attacker's key never binds; a key pasted inside the signed text
#      binds after the round trip;
#   4. `key replace` with a stranger's key: nothing binds without a mail
#      signed by that key; the stranger's mails speak for nobody and the
#      stranger still registers; the daemon's own key is refused outright;
#   5. with sign_replies, a `message` relay is signed by the daemon's key
#      (the bot's): its note goes out quoted, and the signed relay
#      re-wrapped and mailed back is refused as our own -- the bot's game
#      is untouched, nobody is answered;
#   9. twelve re-registrations of a key that never confirms, From a
#      stranger's address: the stranger gets one code, not twelve;
#  14. a note with a bidi override is refused naming U+202E, nothing
#      relayed;
#   D. look-alike names (a1ice, aIice, alice_, b0b, bob-) are refused,
#      naming the name they look like;
#   E. rate counters whose window is over are pruned by the running
#      daemon.
# Figures (mails sent per case) are printed as "# figures:" lines.
set -u
. "${ASHES_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/e2e/lib-hostile.sh"

h_start "[game]
size = 3"
# stranger: a mailbox nobody registers with (case 9's victim)
for who in carol dave erin stranger; do h_add_user "$who"; done
# keys with no mailbox: carol's next key, the carrier's own key (bound to
# nobody), a key that never confirms, and one that tries the look-alike
# names
for who in carol2 thief zed lookalike; do in_make_key "$who" 1y; done

# The daemon's own key (it signs every reply, and is the bot's).
e2e_daemon_key
conf="[game]
size = 3

[limits]
registrations_per_hour = 200

[bot]
enabled = yes
levels = 1-3
think_time = 200ms
delay = 0
max_games = 4"
e2e_reload "$conf
[gpg]
sign_replies = yes"
for _ in $(seq 1 100); do
	grep -q "bot: Ashes bot plays as key" ashesd.log && break
	sleep 0.1
done
t_has "the bot plays with the daemon's key" "plays as key $dfpr" "$(cat ashesd.log)"

h_players alice bob carol mallory erin

# db QUERY: one value from the daemon's database.
db() { sqlite3 -cmd '.timeout 5000' "$E2E_DIR/ashes.db" "$1"; }
# keyring_has FPR: the daemon's keyring holds that public key.
keyring_has() {
	GNUPGHOME=$E2E_DIR/daemon-gnupg gpg --batch --with-colons --list-keys "$1" \
		>/dev/null 2>&1
}

# ---- 3. clearsigned key replace, the attachment swapped on the way ---------
# carol clearsigns "key replace" and attaches carol2's key beside it; the
# carrier swaps the attachment for their own key: the signature still
# holds.
clear=$(in_clearsign carol "key replace
-- 
carol, $(date +%s%N)")
mixed() { # mixed CLEARSIGNED-TEXT KEY-FILE: text + application/pgp-keys
	printf 'Content-Type: multipart/mixed; boundary="ks-mix"\r\n\r\n'
	printf -- '--ks-mix\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n'
	printf '%s\n' "$1" | sed 's/$/\r/'
	printf -- '--ks-mix\r\nContent-Type: application/pgp-keys; name="key.asc"\r\n'
	printf 'Content-Disposition: attachment; filename="key.asc"\r\n\r\n'
	sed 's/$/\r/' "$2"
	printf -- '--ks-mix--\r\n'
}
e2e_pubkey thief >thief.asc
mixed "$clear" thief.asc >ent
nc=$(mail_count carol)
in_mail swap.eml carol none ent
in_send carol swap.eml
h_is_outcome "3: clearsigned key replace, attachment swapped: refused" \
	"refused: line 1: key_replace_outside" "$IN_MSGID"
if in_reply carol "outside what your signature covers" "$nc"; then
	t_ok "3: carol is told the key was outside the signature"
fi
t_is "3: carol keeps her key" "$(e2e_fpr carol)" "$(h_keys_of carol)"
t_is "3: the carrier's key is bound to nobody" 0 \
	"$(in_players | grep -c "^	key *$(e2e_fpr thief)\$")"
if keyring_has "$(e2e_fpr thief)"; then
	t_fail "3: nor taken into the daemon's keyring"
else
	t_ok "3: nor taken into the daemon's keyring"
fi
t_is "3: no key claim recorded" 0 "$(db 'SELECT count(*) FROM key_claims')"
in_wait_sent 20
t_is "3: mails to carol for the swapped mail" 1 "$(( $(mail_count carol) - nc ))"
echo "# figures: 3 swapped attachment: 1 mail (the refusal to carol), 0 keys bound (before: carol's account bound to the carrier's key)"

# The honest way: carol2's key pasted inside the clearsigned text; it
# binds only once a mail signed by carol2 brings back the code.
nc=$(mail_count carol)
clear=$(in_clearsign carol "key replace

$(e2e_pubkey carol2)
-- 
carol, $(date +%s%N)")
in_entity_text "$clear" >ent
in_mail in.eml carol none ent
in_send carol in.eml
h_is_outcome "3: key pasted inside the clearsigned text: claimed" "ok: 1 command" "$IN_MSGID"
h_key_confirm 3 carol carol2 "$nc"

# ---- 4. key replace with a stranger's key ----------------------------------
nb=$(mail_count bob)
nd=$(mail_count dave)
in_entity_text "key replace

$(e2e_pubkey dave)" >ent
in_mail m.eml bob pgpmime ent
in_send bob m.eml
h_is_outcome "4: bob claims dave's key: only a claim" "ok: 1 command" "$IN_MSGID"
in_reply bob "not bound yet" "$nb" && t_ok "4: bob is asked for a mail signed by that key"
t_is "4: bob's key is still his own" "$(e2e_fpr bob)" "$(h_keys_of bob)"
in_entity_text "games" >ent
in_mail m.eml dave pgpmime ent
in_send dave m.eml
h_is_outcome "4: a mail signed by dave's key is no order of bob's" \
	"refused: line 1: not_registered" "$IN_MSGID"
t_is "4: ... and speaks for nobody" - "$(in_inbound_player "$IN_MSGID")"
h_players dave
t_is "4: dave registers with his own key all the same" "$(e2e_fpr dave)" "$(h_keys_of dave)"
t_is "4: and bob's claim of it is gone" 0 "$(db 'SELECT count(*) FROM key_claims')"
in_wait_sent 20
t_is "4: mails to bob for the claim" 1 "$(( $(mail_count bob) - nb ))"
echo "# figures: 4 stranger's key: 0 keys bound without the proof; dave registered (before: bob's account took dave's key, dave refused as key_taken)"

# the daemon's own public key: refused outright
nb=$(mail_count bob)
in_entity_text "key replace

$(GNUPGHOME=$E2E_DIR/daemon-gnupg gpg --batch --armor --export "$dfpr")" >ent
in_mail m.eml bob pgpmime ent
in_send bob m.eml
h_is_outcome "4: key replace with the daemon's own key: refused" \
	"refused: line 1: key_replace_own_key" "$IN_MSGID"
in_reply bob "this club's own key" "$nb" && t_ok "4: bob is told it is the club's own key"
t_is "4: no claim of the daemon's key" 0 "$(db 'SELECT count(*) FROM key_claims')"
keyring_has "$dfpr" && t_ok "4: the daemon's key is still in its keyring"

# ---- 5. a signed relay, re-wrapped and mailed back -------------------------
ne=$(mail_count erin)
player_send erin pgpmime "bot" "challenge bot level=1 size=3
-- 
erin, $(date +%s%N)"
f=$(wait_mail erin "Game [0-9]+ begins" 30 "$ne") || e2e_fail "no bot game for erin"
gb=$(e2e_digest "$f" | sed -n 's/^Game \([0-9][0-9]*\) begins.*/\1/p' | head -n 1)
t_has "5: erin plays the bot in game $gb" "^[0-9]+\$" "$gb"
ne=$(mail_count erin)
player_send mallory pgpmime "ch" "challenge erin size=3"
f=$(wait_mail erin "challenge" 30 "$ne") || e2e_fail "no challenge for erin"
gh=$(e2e_digest "$f" | grep -o 'accept [0-9]*' | head -n 1 | cut -d' ' -f2)
player_send erin pgpmime "acc" "accept $gh"
for _ in $(seq 1 100); do [ "$(h_status "$gh")" = active ] && break; sleep 0.2; done
t_is "5: mallory and erin play game $gh" active "$(h_status "$gh")"
game_row() { db "SELECT status || ' ply ' || ply FROM games WHERE id = $1"; }
before_bot=$(game_row "$gb")
ne=$(mail_count erin)
player_send mallory pgpmime "note" "message $gh resign $gb"
relay=
if in_reply erin "sent a message" "$ne" 30; then
	relay=$R
	t_has "5: the relay is signed (sign_replies)" "multipart/signed" "$(cat "$relay")"
	t_has "5: the note goes out quoted, after NAME wrote:" \
		"^mallory wrote:\$" "$(e2e_digest "$relay")"
	t_has "5: ... as a quoted line" "^> resign $gb\$" "$(e2e_digest "$relay")"
	t_hasnt "5: no line of the relay reads as the command" "^resign" \
		"$(e2e_digest "$relay")"
fi
# erin (the sock puppet) re-wraps the signed relay as her own mail: the
# signed part and its signature as they came, new headers.
python3 - "${relay:-/dev/null}" rewrap.eml "erin <erin@$D>" "ashes@$D" \
	"rewrap.$(date +%s%N)@$D" <<'PY'
import re, sys
src, out, frm, to, mid = sys.argv[1:6]
raw = open(src, "rb").read().replace(b"\r\n", b"\n")
head, _, body = raw.partition(b"\n\n")
keep, cur = [], None
for line in head.split(b"\n"):
	if line[:1] in (b" ", b"\t"):
		if cur is not None:
			cur.append(line)
		continue
	name = line.split(b":", 1)[0].lower()
	cur = [line] if name in (b"content-type", b"mime-version",
				 b"content-transfer-encoding") else None
	if cur is not None:
		keep.append(cur)
lines = [b"From: " + frm.encode(), b"To: " + to.encode(),
	 b"Subject: Re: your note", b"Message-ID: <" + mid.encode() + b">",
	 b"Date: Mon, 01 Jan 2029 00:00:00 +0000"]
for k in keep:
	lines.extend(k)
msg = b"\n".join(lines) + b"\n\n" + body
open(out, "wb").write(msg.replace(b"\n", b"\r\n"))
PY
mid=$(sed -n 's/^Message-ID: <\(.*\)>\r$/\1/p' rewrap.eml)
ne=$(mail_count erin)
in_send erin rewrap.eml
h_is_outcome "5: the re-wrapped signed relay is refused as our own key" \
	"refused: own_key" "$mid"
t_is "5: ... and speaks for nobody (not the bot)" - "$(in_inbound_player "$mid")"
t_is "5: nothing changed in the bot's game $gb" "$before_bot" "$(game_row "$gb")"
t_has "5: the log names the copy" "signed by our own key $dfpr" "$(cat ashesd.log)"
in_wait_sent 20
sleep 1
t_is "5: nobody is answered for it (erin's mails)" 0 "$(( $(mail_count erin) - ne ))"
t_is "5: the bot game has no move signed by a mail from the mailbox" 0 \
	"$(db "SELECT count(*) FROM moves m JOIN inbound i ON i.id = m.inbound_id WHERE m.game_id = $gb AND i.source NOT LIKE 'bot%'")"
echo "# figures: 5 re-wrapped relay: 0 mails answered, bot game $gb unchanged ($before_bot) (before: the bot resigned)"

# ---- 14. a bidi override in a note -----------------------------------------
nm=$(mail_count mallory)
ne=$(mail_count erin)
player_send mallory pgpmime "bidi" "message $gh gg $(printf '\u202e')ngiser$(printf '\u202c') well played"
if in_reply mallory "U\\+202E" "$nm"; then
	t_has "14: the refusal names the character" "U\\+202E \\(RIGHT-TO-LEFT OVERRIDE\\)" \
		"$(e2e_digest "$R")"
fi
in_wait_sent 20
sleep 1
t_is "14: nothing is relayed to erin" 0 "$(( $(mail_count erin) - ne ))"
echo "# figures: 14 bidi note: 0 mails relayed, 1 refusal to the sender"

# ---- D. look-alike names ------------------------------------------------
for name in a1ice aIice alice_ b0b bob-; do
	in_entity_text "register $name

$(e2e_pubkey lookalike)
-- 
$(date +%s%N)" >ent
	IN_FROM="dave <dave@$D>" in_mail m.eml lookalike pgpmime ent
	in_send dave m.eml
	h_is_outcome "D: $name is refused as a look-alike" \
		"refused: line 1: name_looks_like" "$IN_MSGID"
done
t_is "D: none of them is a player" 0 "$(in_players | awk -F'\t' '/^[0-9]+\t/ { print $2 }' |
	grep -cxE 'a1ice|aIice|alice_|b0b|bob-')"
if in_pick dave 0 "a1ice looks like alice"; then
	t_ok "D: the refusal names the name it looks like"
fi

# ---- 9. twelve re-registrations From a stranger's address -----------------
nd=$(mail_count stranger)
t0=$(date +%s)
last=
for i in $(seq 1 12); do
	in_entity_text "register zed

$(e2e_pubkey zed)
-- 
zed $i $(date +%s%N)" >ent
	IN_FROM="stranger <stranger@$D>" in_mail "z$i.eml" zed pgpmime ent
	in_send stranger "z$i.eml"
	last=$IN_MSGID
done
h_wait_outcome "$last" 60 >/dev/null || t_fail "9: the twelfth registration was not recorded"
in_wait_sent 30
sleep 2
codes=$(( $(mail_count stranger) - nd ))
t_is "9: twelve registrations, one code to the stranger" 1 "$codes"
t_is "9: the other eleven are recorded as code_sent_today" 11 \
	"$(in_admin inbound list | grep -c 'code_sent_today')"
echo "# figures: 9 twelve re-registrations: $codes mail(s) to the stranger (before: 12) in $(( $(date +%s) - t0 )) s"

# ---- E. rate counters pruned by the running daemon ------------------------
now=$(date +%s)
db "INSERT INTO rate_limits (sender, window_start, count) VALUES
	('old@prune.test', $((now - 3 * 86400)), 5),
	('older@prune.test', $((now - 30 * 86400)), 9),
	('fresh@prune.test', $((now - 60)), 1)" ||
	t_fail "E: could not seed rate rows"
t_is "E: three seeded rows" 3 "$(db "SELECT count(*) FROM rate_limits WHERE sender LIKE '%@prune.test'")"
# a reload opens the loop anew: the prune runs at its first idle round
e2e_reload "$conf
[gpg]
sign_replies = yes"
for _ in $(seq 1 100); do
	[ "$(db "SELECT count(*) FROM rate_limits WHERE sender LIKE 'old%@prune.test'")" = 0 ] && break
	sleep 0.2
done
t_is "E: the rows whose window is over are gone" 0 \
	"$(db "SELECT count(*) FROM rate_limits WHERE sender LIKE 'old%@prune.test'")"
t_is "E: the fresh row stays" 1 "$(db "SELECT count(*) FROM rate_limits WHERE sender = 'fresh@prune.test'")"
echo "# figures: E rate_limits: $(db 'SELECT count(*) FROM rate_limits') rows left after the prune"

t_done
