#!/bin/bash
# tests/daemon/test_outbox_archive.sh -- the mail command `archive GAME`
# end to end in the real ashesd (--once over a folder of signed mails,
# its SMTP a sink on 127.0.0.1, tests/daemon/smtp_server.py): the outbox
# makes the game's archive when it sends the mail and attaches it as
# game-N.tar.gz (application/gzip), and `ashes archive verify` passes on
# the attachment as received; without a daemon signing key the mail goes
# out saying so, and the row is sent, not retried for ever.
set -u
: "${ASHES_SRCDIR:=$(cd "$(dirname "$0")/../.." && pwd)}"
. "$ASHES_SRCDIR/tests/lib.sh"
unset ASHES_DB ASHES_NOW
t_need gpg gpgv tar sha256sum python3
t_tmp
conf=$tmp/ashesd.conf


# ---- the SMTP sink ----------------------------------------------------
t_smtp_sink 0

# ---- players, their keys, the daemon's configuration -----------------
t_players alice bob
t_import "$tmp/daemon-gnupg" alice bob
mkdir "$tmp/mail"
{
	t_conf "$tmp/mail" "$tmp/ashes.db" "$tmp/daemon-gnupg" \
		"url = smtp://127.0.0.1:$(cat "$tmp/port")" "starttls = no"
	printf '[game]\nsize = 4\n'
} >"$conf"
t_add_players "$conf" alice bob

# send WHO BODY: a PGP/MIME mail signed by WHO, read by ashesd --once,
# which then sends what it queued to the sink.
seq=0
send() {
	local who=$1 body=$2 f part
	seq=$((seq + 1))
	f=$tmp/mail/$seq.eml
	part=$(printf 'Content-Type: text/plain; charset=utf-8\r\n\r\n%s\r\n' \
		"$body"; echo x)
	part=${part%x}
	{
		printf 'From: %s <%s@example.org>\r\nTo: ashes@club.example\r\n' "$who" "$who"
		printf 'Subject: ashes\r\nDate: %s\r\n' "$(date -R)"
		printf 'Message-ID: <t%d.%s@example.org>\r\nMIME-Version: 1.0\r\n' "$seq" "$who"
		t_signed "$who" "$part"
	} >"$f.tmp"
	t_deliver "$conf" "$f"
}
legal() { t_legal 4 "$@"; } # N MOVE...
# The archive mail the sink got last for WHO: "TYPE NAME" of its
# attachment (or "none"), and the attachment into FILE; its text into
# FILE.txt.
archive_mail() { # WHO FILE
	python3 - "$tmp/sent" "$1@example.org" "$2" <<'PY'
import email, email.policy, glob, os, sys
d, who, out = sys.argv[1:4]
mails = sorted(glob.glob(os.path.join(d, "*.eml")),
               key=lambda p: int(os.path.basename(p)[:-4]))
for p in reversed(mails):
    m = email.message_from_binary_file(open(p, "rb"),
                                       policy=email.policy.default)
    if who not in str(m["To"]) or "archive" not in \
            m.get_body(("plain",)).get_content():
        continue
    if "Hello" not in m.get_body(("plain",)).get_content() or \
            "is the archive of game" not in \
            m.get_body(("plain",)).get_content():
        continue
    open(out + ".txt", "w").write(m.get_body(("plain",)).get_content())
    for part in m.iter_attachments():
        if part.get_content_disposition() == "attachment":
            open(out, "wb").write(part.get_payload(decode=True))
            print(part.get_content_type(), part.get_filename())
            break
    else:
        print("none")
    break
else:
    print("no archive mail")
PY
}

# ---- a game, and its archive asked for before the daemon has a key ----
send alice "challenge bob size=4"
send bob "accept 1"
h=()
m=$(legal 3); send alice "move 1 1 $m"; h+=("$m")
m=$(legal 2 "${h[@]}"); send bob "move 1 2 $m"; h+=("$m")
send alice "archive 1"
t_is "no daemon key: the archive mail goes out without a file" none \
	"$(archive_mail alice "$tmp/a1")"
t_is "and says why" 1 \
	"$(grep -c 'no key to sign it with yet' "$tmp/a1.txt")"
t_is "the row is sent, not waiting or failed" "0 0" \
	"$("$ashes" outbox list --status pending --config "$conf" | grep -c archive) $("$ashes" outbox list --status failed --config "$conf" | grep -c archive)"

# ---- with a key: the archive, attached, verifies ----------------------
GNUPGHOME=$tmp/daemon-gnupg gpg --batch --passphrase '' --quick-gen-key \
	'ashesd <ashes@club.example>' ed25519 sign never >/dev/null 2>&1
daemon_fpr=$(GNUPGHOME=$tmp/daemon-gnupg gpg --batch --with-colons \
	--list-secret-keys | awk -F: '/^fpr/ { print $10; exit }')
send bob "archive 1"
t_is "the archive mail carries game-1.tar.gz" \
	"application/gzip game-1.tar.gz" "$(archive_mail bob "$tmp/g1.tar.gz")"
t_is "and says nothing is missing" 0 \
	"$(grep -c 'not attached' "$tmp/g1.tar.gz.txt")"
"$ashes" archive verify "$tmp/g1.tar.gz" --daemon-key "$daemon_fpr" \
	>"$tmp/verify.out" 2>&1
rc=$?
t_is "the attachment verifies with the daemon's key" 0 "$rc"
[ "$rc" = 0 ] || sed 's/^/# /' "$tmp/verify.out"
t_is "verify: a line per ply" 2 "$(grep -c '^ply [12] ' "$tmp/verify.out")"
tar -xzf "$tmp/g1.tar.gz" -C "$tmp"
t_is "the archive holds the plies' mails and MANIFEST.asc" \
	"0001.eml 0002.eml MANIFEST.asc" \
	"$(cd "$tmp/game-1" && ls 0001.eml 0002.eml MANIFEST.asc | tr '\n' ' ' | sed 's/ $//')"
t_is "no archive left behind in TMPDIR" 0 \
	"$(ls -d "${TMPDIR:-/tmp}"/ashesd-archive-* 2>/dev/null | wc -l)"

t_end
