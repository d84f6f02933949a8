#!/bin/sh
# tests/mail/gpg-helper.sh DIR -- build the OpenPGP fixtures of the mail
# tests at test time with real gpg (no private key or signature is ever
# committed).  In DIR it makes:
#   signer/    GNUPGHOME with the secret keys alice, old (expired), rev
#              (revoked), alice2 (spare, for pgp_mime_sign tests), late
#              (to be revoked by the import tests)
#   stranger/  GNUPGHOME with the secret keys of mallory, photo and
#              bigphoto (with photo IDs), all unknown to the daemon
#   verifier/  the daemon's GNUPGHOME: public keys of alice, old, rev (rev
#              revoked), nothing of mallory
#   fpr.NAME   fingerprints;  NAME.pub  public keys (late-certified.pub:
#              late with mallory's certification);  late.rev and
#              mallory.revoke  revocation certificates;
#   NAME.eml   the test mails (see the end).
# A mail produced by mutt's own signing code is mutt.eml (if mutt exists).
# `gpg-helper.sh --kill DIR` stops the gpg-agents started for DIR.
set -eu

if [ "${1:-}" = "--kill" ]; then
	for h in "$2"/signer "$2"/stranger "$2"/verifier; do
		[ -d "$h" ] && gpgconf --homedir "$h" --kill gpg-agent 2>/dev/null || true
	done
	exit 0
fi

D=$1
now=$(date +%s)
day=86400
mkdir -p "$D"
cd "$D"
for h in signer stranger verifier; do
	mkdir -p $h
	chmod 700 $h
done

g() {
	home=$1
	shift
	gpg --homedir "$home" --batch --quiet --no-tty --no-auto-key-retrieve \
		--pinentry-mode loopback --passphrase '' "$@" 2>>gpg.log
}
genkey() { # home name addr at expire
	g "$1" --faked-system-time "$4" --quick-gen-key "$2 <$3>" ed25519 sign "$5"
	g "$1" --list-keys --with-colons "$3" | awk -F: '/^fpr/ { print $10; exit }' > fpr.$2
}

# Keys are made in the past so that signatures dated "10 days ago" are
# still newer than the key (gpg refuses a signature older than its key).
genkey signer alice alice@example.org $((now - 30 * day)) never
genkey signer alice2 alice2@example.org $((now - 30 * day)) never
genkey signer old old@example.org 20200101T000000 1y
genkey signer rev rev@example.org $((now - 30 * day)) never
genkey stranger mallory mallory@example.net $((now - 30 * day)) never
for k in alice old rev; do
	g signer --armor --export "$(cat fpr.$k)" > $k.pub
	g verifier --import $k.pub
done
g stranger --armor --export "$(cat fpr.mallory)" > mallory.pub
# alice2 signs with a subkey, as many real keys do
g signer --faked-system-time $((now - 29 * day)) --quick-add-key "$(cat fpr.alice2)" ed25519 sign never
# Revoke rev with the certificate gpg made at key creation.
sed 's/^:-----/-----/' signer/openpgp-revocs.d/"$(cat fpr.rev)".rev > rev.revoke
g verifier --import rev.revoke

# For pgp_import_known: late (in signer, not in verifier) and its
# revocation certificate as gpg keeps it (leading ':' and all); mallory's
# revocation, for a key the daemon does not hold.
genkey signer late late@example.org $((now - 30 * day)) never
g signer --armor --export "$(cat fpr.late)" > late.pub
cp signer/openpgp-revocs.d/"$(cat fpr.late)".rev late.rev
sed 's/^:-----/-----/' stranger/openpgp-revocs.d/"$(cat fpr.mallory)".rev > mallory.revoke
# late as mallory certified it: what a stranger could send to grow it
g stranger --import late.pub
g stranger --quick-sign-key "$(cat fpr.late)" >/dev/null
g stranger --armor --export "$(cat fpr.late)" > late-certified.pub
g stranger --yes --delete-keys "$(cat fpr.late)"

# Keys with a photo ID (an attribute user ID holding a JPEG): a small one
# that fits the import limit and a 100 KB one that does not.
jpeg() { # size file -- a JFIF header and random bytes
	{ printf '\377\330\377\340\000\020JFIF\000\001\001\000\000\001\000\001\000\000'
	  head -c "$1" /dev/urandom; printf '\377\331'; } > "$2"
}
jpeg 3000 small.jpg
jpeg 100000 big.jpg
genkey stranger photo photo@example.net $((now - 30 * day)) never
genkey stranger bigphoto bigphoto@example.net $((now - 30 * day)) never
printf 'addphoto\n%s\nsave\n' "$PWD/small.jpg" |
	g stranger --command-fd 0 --edit-key "$(cat fpr.photo)" >/dev/null
# gpg asks whether a JPEG this large is really meant
printf 'addphoto\n%s\ny\nsave\n' "$PWD/big.jpg" |
	g stranger --command-fd 0 --edit-key "$(cat fpr.bigphoto)" >/dev/null
for k in photo bigphoto; do
	g stranger --list-keys --with-colons "$(cat fpr.$k)" | grep -q '^uat:'
	g stranger --armor --export "$(cat fpr.$k)" > $k.pub
done

crlf() { sed 's/$/\r/' "$1"; }

hdrs() { # from subject [extra]
	printf 'From: %s\nTo: ashes@club.example\nSubject: %s\nDate: %s\nMessage-ID: <%s@example.org>\n%b' \
		"$1" "$2" "$(date -R)" "$(basename "$out" .eml)" "${3:-}"
}

# pgpmime HOME KEY PARTFILE [gpg-args...] -- a PGP/MIME mail (LF lines)
# whose first part is PARTFILE, signed over its CRLF form.
pgpmime() {
	home=$1 key=$2 part=$3
	shift 3
	crlf "$part" > part.crlf
	rm -f part.sig
	g "$home" "$@" -u "$(cat fpr.$key)" --armor --detach-sign -o part.sig part.crlf
	printf 'MIME-Version: 1.0\nContent-Type: multipart/signed; micalg=pgp-sha256;\n protocol="application/pgp-signature"; boundary="=-sig-b1"\n\n'
	printf 'This is an OpenPGP/MIME signed message (RFC 4880 and 3156)\n--=-sig-b1\n'
	cat "$part"
	printf '\n--=-sig-b1\nContent-Type: application/pgp-signature; name="signature.asc"\nContent-Description: OpenPGP digital signature\nContent-Disposition: attachment; filename="signature.asc"\n\n'
	cat part.sig
	printf '\n--=-sig-b1--\n'
}

# clearsign HOME KEY TEXTFILE [gpg-args...] -- clearsigned text on stdout
clearsign() {
	home=$1 key=$2 text=$3
	shift 3
	rm -f text.asc
	g "$home" "$@" -u "$(cat fpr.$key)" --clearsign -o text.asc "$text"
	cat text.asc
}

plain_part() { # text -> a text/plain part file "part"
	printf 'Content-Type: text/plain; charset=UTF-8\nContent-Transfer-Encoding: 7bit\n\n%s\n' "$1" > part
}

# --- signed mails ---
out=pgpmime.eml
plain_part 'move 12 a1-b2'
{ hdrs 'Alice <alice@example.org>' 'game 7'; pgpmime signer alice part; } > $out
crlf pgpmime.eml > pgpmime-crlf.eml

out=tampered.eml
sed 's/^move 12 a1-b2$/move 12 a1-b3/' pgpmime.eml > $out

# The same words signed again a minute earlier, and by another key: new
# signatures, not replays of pgpmime.eml.
out=same-text-earlier.eml
{ hdrs 'Alice <alice@example.org>' 'game 7'; pgpmime signer alice part --faked-system-time $((now - 60)); } > $out
out=same-text-mallory.eml
{ hdrs 'Mallory <mallory@example.net>' 'game 7'; pgpmime stranger mallory part; } > $out

out=clearsigned.eml
printf 'move 12 a1-b2\n' > text
{ hdrs 'Alice <alice@example.org>' 'game 7' 'Content-Type: text/plain; charset=utf-8\n'; printf '\n'; clearsign signer alice text; } > $out

# The same over weak digests (refused: SHA-1 unless allowed, RIPEMD-160
# always).
for d in SHA1 RIPEMD160; do
	out=digest-$d.eml
	{ hdrs 'Alice <alice@example.org>' 'game 7' 'Content-Type: text/plain; charset=utf-8\n'; printf '\n'; clearsign signer alice text --digest-algo $d; } > $out
done

# The outside test's replay bypass: a clearsigned text with an empty line,
# and the same signed block with that line dash-escaped ("- ") and
# trailing blanks added -- gpg verifies both, and they are one signature.
out=replay-blank.eml
printf 'challenge bob\n\nboard 1\n' > text
clearsign signer alice text > replay.asc
{ hdrs 'Alice <alice@example.org>' 'x' 'Content-Type: text/plain; charset=utf-8\n'; printf '\n'; cat replay.asc; } > $out
out=replay-dash.eml
{ hdrs 'Alice <alice@example.org>' 'x' 'Content-Type: text/plain; charset=utf-8\n'; printf '\n'
  awk 'BEGIN { body = 0 } /^$/ && body == 0 { body = 1; print; next }
       body == 1 && /^$/ { print "- "; body = 2; next }
       /^challenge bob$/ { print "challenge bob  \t"; next } { print }' replay.asc; } > $out

# ISO-8859-1 clearsigned text: signed in its own charset, read as UTF-8
out=latin1-clearsigned.eml
printf 'register Ren\351 M\374ller\n' > text
{ hdrs 'Rene <alice@example.org>' 'register' 'Content-Type: text/plain; charset=ISO-8859-1\nContent-Transfer-Encoding: quoted-printable\n'
  printf '\n'; clearsign signer alice text | sed 's/=/=3D/g; s/\xe9/=E9/; s/\xfc/=FC/'; } > $out

out=outside.eml
printf 'move 12 a1-b2\n' > text
{ hdrs 'Alice <alice@example.org>' 'game 7' 'Content-Type: text/plain; charset=utf-8\n'
  printf '\nresign\n\n'; clearsign signer alice text; printf '\n-- \nSent from my phone, resign\n'; } > $out

out=unknown.eml
plain_part 'move 3 c1-c2'
{ hdrs 'Mallory <mallory@example.net>' 'x'; pgpmime stranger mallory part; } > $out

out=register-attached.eml
{ printf 'Content-Type: multipart/mixed; boundary="mix-1"\n\n--mix-1\n'
  printf 'Content-Type: text/plain; charset=UTF-8\n\nregister Mallory\n\n--mix-1\n'
  printf 'Content-Type: application/pgp-keys; name="OpenPGP_0x.asc"\nContent-Disposition: attachment; filename="OpenPGP_0x.asc"\nContent-Transfer-Encoding: base64\n\n'
  base64 mallory.pub; printf '\n--mix-1--\n'; } > part
{ hdrs 'Mallory <mallory@example.net>' 'register'; pgpmime stranger mallory part; } > $out

out=register-pasted.eml
{ printf 'register Mallory\n\n'; cat mallory.pub; } > text
{ hdrs 'Mallory <mallory@example.net>' 'register' 'Content-Type: text/plain; charset=utf-8\n'; printf '\n'; clearsign stranger mallory text; } > $out

out=expired-key.eml
plain_part 'move 1 a1-a2'
{ hdrs 'Old <old@example.org>' 'x'; pgpmime signer old part --faked-system-time 20200601T000000; } > $out

out=revoked-key.eml
{ hdrs 'Rev <rev@example.org>' 'x'; pgpmime signer rev part; } > $out

out=sig-expired.eml
{ hdrs 'Alice <alice@example.org>' 'x'; pgpmime signer alice part --faked-system-time $((now - 10 * day)) --default-sig-expire 1d; } > $out

out=too-old.eml
{ hdrs 'Alice <alice@example.org>' 'x'; pgpmime signer alice part --faked-system-time $((now - 10 * day)); } > $out

out=future.eml
{ hdrs 'Alice <alice@example.org>' 'x'; pgpmime signer alice part --faked-system-time $((now + 3600)); } > $out

# Thunderbird (78+) layout: signed multipart/mixed holding the text and
# the sender's key, format=flowed, protected-headers.
out=thunderbird.eml
{ printf 'Content-Type: multipart/mixed; boundary="------------tb-inner"; protected-headers="v1"\n'
  printf 'From: Alice <alice@example.org>\nTo: ashes@club.example\nSubject: game 7\n\n'
  printf -- '--------------tb-inner\nContent-Type: text/plain; charset=UTF-8; format=flowed\nContent-Transfer-Encoding: quoted-printable\n\n'
  printf 'move 12 a1-b2=20\nthanks =E2=80=94 Alice\n\n'
  printf -- '--------------tb-inner\nContent-Type: application/pgp-keys; name="OpenPGP_0xA.asc"\nContent-Disposition: attachment; filename="OpenPGP_0xA.asc"\nContent-Transfer-Encoding: quoted-printable\n\n'
  cat alice.pub; printf '\n--------------tb-inner--\n'; } > part
{ printf 'User-Agent: Mozilla/5.0 (X11; Linux x86_64; rv:102.0) Gecko/20100101 Thunderbird/102.15.0\n'
  hdrs 'Alice <alice@example.org>' 'game 7'; pgpmime signer alice part; } > $out
crlf $out > tb.tmp && mv tb.tmp $out

# A signed mail forwarded inside a mixed one with a list footer.
out=footer.eml
plain_part 'move 12 a1-b2'
pgpmime signer alice part | sed '1,/^$/d' > signed.body
{ hdrs 'Alice <alice@example.org>' 'game 7'
  printf 'MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary="foot"\n\n--foot\n'
  printf 'Content-Type: multipart/signed; micalg=pgp-sha256;\n protocol="application/pgp-signature"; boundary="=-sig-b1"\n\n'
  cat signed.body
  printf '\n--foot\nContent-Type: text/plain\n\nresign\n--foot--\n'; } > $out

out=bad-sigdata.eml
sed '/^-----BEGIN PGP SIGNATURE-----$/,/^-----END PGP SIGNATURE-----$/c\
-----BEGIN PGP SIGNATURE-----\
\
bm90IGEgc2lnbmF0dXJl\
=AAAA\
-----END PGP SIGNATURE-----' pgpmime.eml > $out

# --- mutt's own signing code (crypt_use_gpgme + crypt_autosign) ---
# Mutt 2.2 does not apply crypt_autosign in batch mode (stdin not a tty),
# so it runs on a pseudo-terminal (script(1)): Enter at the To and Subject
# prompts, the editor is `true`, and 'y' in the compose menu sends through
# a "sendmail" that writes the mail to mutt.eml.  'y' is repeated until the
# mail exists, because mutt may flush type-ahead before the menu shows.
if command -v mutt >/dev/null 2>&1 && command -v script >/dev/null 2>&1; then
	cat > sendmail.sh <<EOF
#!/bin/sh
cat > "$PWD/mutt.eml"
EOF
	chmod +x sendmail.sh
	. "$(dirname "$0")/muttrc.sh"
	mutt_rc "$PWD" "$(cat fpr.alice)" alice@example.org Alice > muttrc
	printf 'move 12 a1-b2\n' > mutt.body
	( sleep 0.5; printf '\r'; sleep 0.2; printf '\r'; i=0
	  while [ ! -s mutt.eml ] && [ $i -lt 40 ]; do
		sleep 0.5; printf 'y'; i=$((i + 1))
	  done; sleep 0.5 ) |
	TERM=vt100 GNUPGHOME="$PWD/signer" HOME="$PWD" timeout 40 \
		script -qec "mutt -n -F '$PWD/muttrc' -s 'game 7' -i '$PWD/mutt.body' ashes@club.example" \
		/dev/null > mutt.log 2>&1 || true
fi
exit 0
