#!/bin/bash
# tests/e2e/test_clients_keys.sh -- the key where each mail client puts
# it, and encrypted mail (issue 23, items 2 and 3), through the real
# ashesd between a real Dovecot and Postfix with fresh gpg keys, one mail
# stack and one daemon.  The mails are shaped as each client writes them
# (tests/mail/client-mail.py, from the clients' sources):
#   tina  (Thunderbird, K-9)  registers with her key only in the Autocrypt
#         header; her challenge is a signed+encrypted PGP/MIME mail (a
#         multipart/signed inside multipart/encrypted);
#   otto  (Outlook + GpgOL)   registers with the key attached as an
#         application/octet-stream *.asc;
#   dora  (Delta Chat)        accepts with a one-pass signed+encrypted
#         PGP/MIME mail; tina moves with gpg --sign --encrypt inline;
#   a mail encrypted to a key not the club's gets the plain refusal; a
#   compression bomb (4 GiB) inside the encryption is stopped by the cap;
#   the replies carry an Autocrypt header with the club's key, which gpg
#   imports and can encrypt to; an Autocrypt header's key never serves
#   `key replace`; the game's archive, with the encrypted mails, verifies
#   (gpgv alone checks the one-pass one); an unknown key signing with a
#   subkey is named by the primary key the mail carried.
set -u
. "${ASHES_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/e2e/lib-hostile.sh"

h_start "[game]
size = 3"
CM="python3 $E2E_TOP/tests/mail/client-mail.py"
for who in tina otto dora; do h_add_user "$who"; done
for who in tina2 other; do in_make_key "$who" 1y; done
# other can be encrypted to
GNUPGHOME=$E2E_DIR/gnupg-other gpg --batch --passphrase '' --quick-add-key \
	"$(e2e_fpr other)" cv25519 encr never >/dev/null 2>&1 || e2e_fail "other encr"

# The club's key, with an encryption subkey (as README says to make it).
e2e_daemon_key
GNUPGHOME=$E2E_DIR/daemon-gnupg gpg --batch --passphrase '' --quick-add-key \
	"$dfpr" cv25519 encr never >/dev/null 2>&1 || e2e_fail "no club encr key"
GNUPGHOME=$E2E_DIR/daemon-gnupg gpg --batch --armor --export "$dfpr" >club.asc
e2e_reload "[game]
size = 3
[limits]
registrations_per_hour = 200
[gpg]
sign_replies = yes"

# cm SHAPE WHO BODY [ARGS...]: a client's mail from WHO to the club, its
# Message-ID in IN_MSGID, sent; the club's key known to WHO's keyring.
cm() {
	local shape=$1 who=$2
	shift 2
	printf '%s\n' "$1" >body.txt
	shift
	E2E_SEQ=$((E2E_SEQ + 1))
	IN_MSGID="cm.$who.$(date +%s%N).$E2E_SEQ@$D"
	GNUPGHOME=$E2E_DIR/gnupg-$who gpg --batch --import club.asc 2>/dev/null
	$CM "$shape" --home "$E2E_DIR/gnupg-$who" --signer "$(e2e_fpr "$who")" \
		--from "${CM_FROM:-$who@$D}" --to "ashes@$D" --recipient "$dfpr" \
		--message-id "$IN_MSGID" "$@" body.txt >cm.eml ||
		e2e_fail "client-mail.py $shape for $who"
	in_send "$who" cm.eml
}
code_of() { e2e_digest "$1" | sed -n 's/^ *confirm \([A-Z0-9]*\)$/\1/p' | head -n 1; }
keys_of() { h_player_block "$1" | sed -n 's/^	key *//p'; }

# ---- 2a. Thunderbird / K-9: the key only in the Autocrypt header ----------
n=$(mail_count tina)
t0=$(date +%s%N)
cm autocrypt tina "register tina"
h_is_outcome "2a: register, key only in the Autocrypt header: registered" \
	"ok: 1 command" "$IN_MSGID"
code=
if in_reply tina "Welcome, tina" "$n"; then
	code=$(code_of "$R")
	welcome=$R
fi
n=$(mail_count tina)
cm autocrypt tina "confirm ${code:-NOCODE}"
in_reply tina "is confirmed" "$n" >/dev/null
t_is "2a: tina is bound to her key" "$(e2e_fpr tina)" "$(keys_of tina)"
echo "# figures: 2a Autocrypt-only registration + confirm: $(( ($(date +%s%N) - t0) / 1000000 )) ms, 2 mails in, 2 out"

# ---- 2b. Outlook + GpgOL: the key as application/octet-stream *.asc -------
n=$(mail_count otto)
cm outlook otto "register otto"
h_is_outcome "2b: register, key in an octet-stream .asc: registered" \
	"ok: 1 command" "$IN_MSGID"
code=
if in_reply otto "Welcome, otto" "$n"; then code=$(code_of "$R"); fi
n=$(mail_count otto)
cm outlook otto "confirm ${code:-NOCODE}"
in_reply otto "is confirmed" "$n" >/dev/null
t_is "2b: otto is bound to his key" "$(e2e_fpr otto)" "$(keys_of otto)"
h_players dora

# ---- 3c. replies carry the club's key in an Autocrypt header --------------
if [ -n "${welcome:-}" ]; then
	python3 - "$welcome" >club-ac.bin <<'PY'
import base64, email, sys
from email import policy
m = email.message_from_binary_file(open(sys.argv[1], "rb"), policy=policy.compat32)
v = m.get("Autocrypt") or ""
attrs = dict(a.strip().split("=", 1) for a in v.split(";") if "=" in a)
sys.stderr.write("# Autocrypt: addr=%s, prefer-encrypt %s\n" % (attrs.get("addr"), attrs.get("prefer-encrypt", "absent")))
sys.stdout.buffer.write(base64.b64decode("".join(attrs.get("keydata", "").split())))
PY
	t_has "3c: the reply's Autocrypt header names the club's address" \
		"addr=ashes@$D" "$(grep -i -A0 '^Autocrypt:' "$welcome")"
	mkdir -p achome && chmod 700 achome
	GNUPGHOME=$E2E_DIR/achome gpg --batch --import club-ac.bin 2>/dev/null
	t_is "3c: gpg imports the club's key from it" "$dfpr" \
		"$(GNUPGHOME=$E2E_DIR/achome gpg --batch --with-colons --list-keys |
			awk -F: '$1 == "fpr" { print $10; exit }')"
	t_has "3c: and it can encrypt to it" "^sub:.*:[a-z]*e[a-z]*:" \
		"$(GNUPGHOME=$E2E_DIR/achome gpg --batch --with-colons --list-keys)"
	echo "# figures: 3c the club's Autocrypt keydata: $(wc -c <club-ac.bin) bytes binary"
fi

# ---- 3a. a signed+encrypted PGP/MIME challenge (Thunderbird) --------------
n=$(mail_count dora)
cm tb-encrypted tina "challenge dora size=3"
h_is_outcome "3a: Thunderbird's signed+encrypted challenge: played" \
	"ok: 1 command" "$IN_MSGID"
t_is "3a: recorded as signed by tina" "$(e2e_fpr tina)" "$(in_inbound_key "$IN_MSGID")"
first=$IN_MSGID
cp cm.eml tb-challenge.eml
gh=
if in_reply dora "challenge" "$n"; then
	gh=$(e2e_digest "$R" | grep -o 'accept [0-9]*' | head -n 1 | cut -d' ' -f2)
fi
# the same encrypted mail again is a replay
E2E_SEQ=$((E2E_SEQ + 1))
sed "s/^Message-ID: .*/Message-ID: <replay.$E2E_SEQ@$D>/" tb-challenge.eml >replay.eml
in_send tina replay.eml
h_is_outcome "3a: the same encrypted mail again is a replay" "replay:" \
	"replay.$E2E_SEQ@$D"
# Thunderbird's other form (two MIME layers), K-9's: a multipart/signed
# entity inside the encryption
cm tb-encrypted-two-layers tina "games"
h_is_outcome "3a: signed, then encrypted, in two MIME layers: read" \
	"ok: 1 command" "$IN_MSGID"
t_is "3a: ... and recorded as signed by tina" "$(e2e_fpr tina)" \
	"$(in_inbound_key "$IN_MSGID")"

# ---- 3b. Delta Chat accepts: one-pass signed inside the encryption --------
n=$(mail_count tina)
cm dc-encrypted dora "accept ${gh:-0}"
h_is_outcome "3b: Delta Chat's one-pass signed+encrypted accept: played" \
	"ok: 1 command" "$IN_MSGID"
game=$(in_admin games --all | awk '$1 ~ /^[0-9]+$/ { g = $1 } END { print g }')
mv=
if in_reply tina "your move|Your move" "$n"; then
	mv=$(e2e_ashes legal --size 3 | sed -n 1p)
fi
cm inline-encrypted tina "move $game 1 ${mv:-nomove}"
h_is_outcome "3b: gpg --sign --encrypt inline move: played" "ok: 1 command" "$IN_MSGID"
t_is "3b: the game has its first ply" 1 "$(h_ply "$game")"

# ---- 3d. the archive proves the encrypted mails ----------------------------
arch=$E2E_DIR/archive-$game
conf=$E2E_DIR/ashesd.conf
if e2e_ashes archive export "$game" -o "$arch" --config "$conf" >export.out 2>&1; then
	t_ok "3d: the game with encrypted mails exports"
	e2e_ashes archive verify "$arch" --daemon-key "$dfpr" >verify.out 2>&1
	rc=$?
	sed 's/^/#   /' verify.out
	t_is "3d: ashes archive verify passes" 0 "$rc"
	# and gpgv alone, with the archive's keys, checks the one-pass
	# signed message kept without its encryption (in the players' own
	# copy: the public one's keys carry no self-signed user ID, which
	# gpgv will not take)
	rm -rf "$arch.full"
	e2e_ashes archive export "$game" --full -o "$arch.full" --config "$conf" \
		>export-full.out 2>&1 || sed 's/^/#   /' export-full.out
	gpg --dearmor <"$arch.full/keys.asc" >keys.gpg 2>/dev/null
	pgp=$(ls "$arch.full"/*.pgp 2>/dev/null | head -n 1)
	t_has "3d: the one-pass mail is kept as a signed message (.pgp)" '\.pgp$' "$pgp"
	if [ -n "$pgp" ] && gpgv --keyring "$E2E_DIR/keys.gpg" "$pgp" 2>gpgv.out; then
		t_ok "3d: gpgv verifies $(basename "$pgp") with keys.asc alone"
	else
		sed 's/^/#   /' gpgv.out
		t_fail "3d: gpgv verifies the signed message with keys.asc alone"
	fi
	# README.txt's check-by-hand line covers the .pgp too (public copy)
	line=$(sed -n 's/^  \(sh -ec .*\)$/\1/p' "$arch/README.txt")
	mkdir -m 700 "$E2E_DIR/hand-gnupg"
	(cd "$arch" && env -i PATH=/usr/bin:/bin HOME="$E2E_DIR/hand-gnupg" \
		GNUPGHOME="$E2E_DIR/hand-gnupg" sh -c "$line") >hand.out 2>&1
	rc=$?
	GNUPGHOME=$E2E_DIR/hand-gnupg gpgconf --kill all >/dev/null 2>&1
	t_is "3d: README's check-by-hand line passes" 0 "$rc"
	# one good signature a signature file: MANIFEST.asc, every .sig, the
	# clearsigned .asc, and the .pgp
	want=$(cd "$arch" && ls | grep -cE '^(MANIFEST\.asc|.*\.sig|.*\.pgp)$|^[0-9m].*\.asc$')
	t_is "3d: ... one good signature a signature file, the .pgp's included" \
		"$want" "$(grep -c 'Good signature' hand.out)"
	t_is "3d: no file of the archive is encrypted" 0 \
		"$(grep -l 'multipart/encrypted' "$arch"/* 2>/dev/null | wc -l)"
else
	sed 's/^/#   /' export.out
	t_fail "3d: the game with encrypted mails exports"
fi

# ---- 3e. encrypted to a key not the club's: the plain refusal -------------
n=$(mail_count tina)
printf 'games\n' >body.txt
E2E_SEQ=$((E2E_SEQ + 1))
IN_MSGID="cm.other.$E2E_SEQ@$D"
GNUPGHOME=$E2E_DIR/gnupg-tina gpg --batch --import "$E2E_DIR/gnupg-other/pubring.kbx" 2>/dev/null
GNUPGHOME=$E2E_DIR/gnupg-other gpg --batch --armor --export "$(e2e_fpr other)" >other.asc
GNUPGHOME=$E2E_DIR/gnupg-tina gpg --batch --import other.asc 2>/dev/null
$CM inline-encrypted --home "$E2E_DIR/gnupg-tina" --signer "$(e2e_fpr tina)" \
	--from "tina@$D" --to "ashes@$D" --recipient "$(e2e_fpr other)" \
	--message-id "$IN_MSGID" body.txt >cm.eml || e2e_fail "other.eml"
in_send tina cm.eml
h_is_outcome "3e: encrypted to another key: refused as encrypted" \
	"refused: encrypted" "$IN_MSGID"
if in_reply tina "was encrypted" "$n"; then
	t_has "3e: the refusal says what to send instead" "signed but not encrypted" \
		"$(e2e_digest "$R")"
fi
t_has "3e: the operator's log says why it was not read" \
	"encrypted mail not read: it is not encrypted to a key of this club" \
	"$(grep 'encrypted mail not read' "$E2E_DIR/ashesd.log")"

# ---- 3f. a compression bomb inside the encryption: stopped by the cap -----
# 4 GiB of zeros in nested compressed packets, encrypted to the club
# (gpg --no-literal: the packets as they are), mailed inline by otto
python3 "$E2E_TOP/tests/mail/pgp-bomb.py" bomb 4 >bomb.bin
GNUPGHOME=$E2E_DIR/gnupg-otto gpg --batch --import club.asc 2>/dev/null
GNUPGHOME=$E2E_DIR/gnupg-otto gpg --batch --trust-model always --no-literal \
	--armor --encrypt --recipient "$dfpr" --compress-algo none -o bomb.asc \
	bomb.bin 2>/dev/null || e2e_fail "no bomb"
in_entity_text "$(cat bomb.asc)" >ent
in_mail bomb.eml otto none ent
n=$(mail_count otto)
t0=$(date +%s%N)
in_send otto bomb.eml
h_is_outcome "3f: a bomb inside the encryption: refused, not decrypted" \
	"refused: encrypted" "$IN_MSGID"
ms=$(( ($(date +%s%N) - t0) / 1000000 ))
t_has "3f: within the budget (${ms} ms from SMTP to the record)" '^[0-9]+$' \
	"$([ "$ms" -lt 20000 ] && echo "$ms")"
if in_reply otto "was encrypted" "$n"; then
	t_has "3f: the reply says the cap stopped it" "larger than [0-9]+ bytes" \
		"$(e2e_digest "$R" | tr '\n' ' ')"
fi
echo "# figures: 3f bomb: $(wc -c <bomb.asc) bytes armored, 4 GiB inside; refused in ${ms} ms (SMTP to record), cap [limits] max_message_size"

# ---- 2c. an Autocrypt header's key never serves key replace ---------------
GNUPGHOME=$E2E_DIR/gnupg-tina2 gpg --batch --export "$(e2e_fpr tina2)" >tina2.bin
n=$(mail_count tina)
cm autocrypt tina "key replace" --autocrypt-keyfile tina2.bin
h_is_outcome "2c: key replace with the new key in the Autocrypt header: refused" \
	"refused: line 1:" "$IN_MSGID"
t_is "2c: tina keeps her key" "$(e2e_fpr tina)" "$(keys_of tina)"
t_is "2c: no key claim recorded" 0 \
	"$(sqlite3 -cmd '.timeout 5000' "$E2E_DIR/ashes.db" 'SELECT count(*) FROM key_claims')"

# ---- 2d. an unknown key signing with a subkey, no key in the mail: the ---
# refusal names the key the signature names and how each client sends
# its key; with the key attached (GpgOL), the "not registered" refusal
# no longer asks for an attachment only.  (A refusal goes only to an
# address the club knows, once a day: sam writes From dora's and otto's:
# tina had hers, for 3e.)
mkdir -p gnupg-sam && chmod 700 gnupg-sam
GNUPGHOME=$E2E_DIR/gnupg-sam gpg --batch --passphrase '' --quick-gen-key \
	"sam <sam@$D>" ed25519 cert 1y >/dev/null 2>&1 || e2e_fail "sam key"
GNUPGHOME=$E2E_DIR/gnupg-sam gpg --batch --with-colons --list-keys |
	awk -F: '$1 == "fpr" { print $10; exit }' >fpr.sam
GNUPGHOME=$E2E_DIR/gnupg-sam gpg --batch --passphrase '' --quick-add-key \
	"$(e2e_fpr sam)" ed25519 sign 1y >/dev/null 2>&1 || e2e_fail "sam subkey"
samsub=$(GNUPGHOME=$E2E_DIR/gnupg-sam gpg --batch --with-colons --list-keys |
	awk -F: '$1 == "fpr" { n++; if (n == 2) { print $10; exit } }')
n=$(mail_count dora)
in_entity_text "games" >ent
IN_FROM="dora <dora@$D>" in_mail nokey.eml sam pgpmime ent
in_send dora nokey.eml
h_is_outcome "2d: an unknown key, no key in the mail: refused" "refused: unknown_key" "$IN_MSGID"
if in_reply dora "no player here has registered" "$n"; then
	txt=$(e2e_digest "$R" | tr '\n' ' ')
	t_has "2d: the refusal names the signing key" "$samsub" "$txt"
	t_has "2d: and how Thunderbird, K-9, Delta Chat and Outlook send a key" \
		"Autocrypt header.*Delta Chat.*GpgOL" "$txt"
fi
n=$(mail_count otto)
CM_FROM="otto@$D" cm outlook sam "games"
h_is_outcome "2d: Outlook's mail with the key attached, no register: refused" \
	"refused: line 1: not_registered" "$IN_MSGID"
if in_reply otto "not a registered player" "$n"; then
	t_has "2d: the refusal names the Autocrypt header beside attaching" \
		"Autocrypt header" "$(e2e_digest "$R" | tr '\n' ' ')"
fi

t_done
