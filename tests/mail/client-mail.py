#!/usr/bin/env python3
"""tests/mail/client-mail.py -- write a mail shaped as an OpenPGP mail
client writes it, signed (and encrypted) by gpg with the test's keys:
never checked in, made at test time.

  client-mail.py SHAPE --home GNUPGHOME --signer KEY --from ADDR --to ADDR
                 [--recipient KEY] [--subject S] [--date RFC2822]
                 [--message-id ID] [--autocrypt-keyfile FILE] BODYFILE > MAIL

--autocrypt-keyfile puts that (binary) key in the Autocrypt header in
place of the signer's own.

SHAPE (each from the client's own source):
  autocrypt      PGP/MIME signed, the key only in the Autocrypt header
                 (Thunderbird with "attach my key" off; Thunderbird for
                 Android/K-9 with OpenKeychain; Delta Chat's signed mail)
  outlook        PGP/MIME signed, the key attached as GpgOL attaches a
                 file: application/octet-stream, name 0xKEYID.asc, base64
  tb-encrypted   Thunderbird's default (mimeEncrypt.sys.mjs, MIME_ENCRYPTED:
                 "one MIME layer, combined enc/sig data"): multipart/
                 encrypted holding one message signed and encrypted at
                 once to --recipient, whose content is a multipart/mixed
                 with protected-headers="v1" and the protected Subject,
                 From and To (RFC 9788), around a second multipart/mixed
                 ("encapsulate") holding the text part; the Autocrypt
                 header outside
  tb-encrypted-two-layers  Thunderbird with SEND_TWO_MIME_LAYERS
                 (MIME_OUTER_ENC_INNER_SIG), and K-9: the same
                 protected-headers entity in a multipart/signed entity,
                 that encrypted
  dc-encrypted   Delta Chat: multipart/encrypted holding a one-pass
                 signed and encrypted MIME entity (gpg --encrypt --sign)
  inline-encrypted  the body is `gpg --armor --sign --encrypt` of the text
                 (GpgOL's inline PGP, a user pasting gpg -sea)
"""
import argparse
import base64
import email.utils
import os
import subprocess
import sys
import time


def gpg(home, *args, data=None):
    cmd = ["gpg", "--homedir", home, "--batch", "--quiet", "--no-tty",
           "--pinentry-mode", "loopback", "--passphrase", "",
           "--trust-model", "always", "--no-auto-key-retrieve"] + list(args)
    r = subprocess.run(cmd, input=data, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, check=False)
    if r.returncode != 0:
        sys.stderr.write(r.stderr.decode(errors="replace"))
        sys.exit("gpg failed: %s" % " ".join(args))
    return r.stdout


def crlf(s):
    return s.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n")


def b64lines(b, width=76):
    s = base64.b64encode(b).decode()
    return "\r\n".join(s[i:i + width] for i in range(0, len(s), width))


def autocrypt_header(key, addr):
    # as Thunderbird writes it: addr, then keydata folded with a space
    k = base64.b64encode(key).decode()
    lines = [k[i:i + 72] for i in range(0, len(k), 72)]
    return "Autocrypt: addr=%s; keydata=\r\n %s\r\n" % (addr, "\r\n ".join(lines))


def headers(a, content_type, extra=""):
    date = a.date or email.utils.formatdate(time.time(), localtime=False)
    mid = "<%s>" % a.message_id if a.message_id else "<%s.%d@%s>" % (
        os.urandom(6).hex(), os.getpid(), a.sender.split("@")[-1])
    return ("From: %s\r\nTo: %s\r\nSubject: %s\r\nDate: %s\r\n"
            "Message-ID: %s\r\nMIME-Version: 1.0\r\n%s"
            "Content-Type: %s\r\n\r\n" % (a.sender, a.to, a.subject, date,
                                          mid, extra, content_type))


def pgp_mime_sign(a, part):
    """multipart/signed over part (bytes, CRLF): (content-type, body)."""
    sig = gpg(a.home, "--armor", "--detach-sign", "--digest-algo", "SHA256",
              "--local-user", a.signer, data=part).decode()
    b = "------------sig" + os.urandom(8).hex()
    body = ("This is an OpenPGP/MIME signed message (RFC 4880 and 3156)\r\n"
            "--%s\r\n" % b).encode() + part + (
        "\r\n--%s\r\nContent-Type: application/pgp-signature; "
        "name=\"OpenPGP_signature.asc\"\r\nContent-Description: OpenPGP "
        "digital signature\r\nContent-Disposition: attachment; "
        "filename=\"OpenPGP_signature.asc\"\r\n\r\n%s\r\n--%s--\r\n"
        % (b, sig.replace("\n", "\r\n").rstrip("\r\n"), b)).encode()
    ct = ('multipart/signed; micalg=pgp-sha256;\r\n protocol="application/'
          'pgp-signature";\r\n boundary="%s"' % b)
    return ct, body


def pgp_mime_encrypt(a, entity, sign):
    args = ["--armor", "--encrypt", "--recipient", a.recipient]
    if sign:
        args += ["--sign", "--local-user", a.signer, "--digest-algo",
                 "SHA256"]
    enc = gpg(a.home, *args, data=entity).decode().replace("\n", "\r\n")
    b = "------------enc" + os.urandom(8).hex()
    body = ("This is an OpenPGP/MIME encrypted message (RFC 4880 and 3156)\r\n"
            "--%s\r\nContent-Type: application/pgp-encrypted\r\n"
            "Content-Description: PGP/MIME version identification\r\n\r\n"
            "Version: 1\r\n\r\n--%s\r\nContent-Type: application/octet-stream;"
            " name=\"encrypted.asc\"\r\nContent-Description: OpenPGP encrypted "
            "message\r\nContent-Disposition: inline; filename=\"encrypted.asc\""
            "\r\n\r\n%s\r\n--%s--\r\n" % (b, b, enc.rstrip("\r\n"), b)).encode()
    ct = ('multipart/encrypted;\r\n protocol="application/pgp-encrypted";'
          '\r\n boundary="%s"' % b)
    return ct, body


def main():
    p = argparse.ArgumentParser()
    p.add_argument("shape")
    p.add_argument("--home", required=True)
    p.add_argument("--signer", required=True)
    p.add_argument("--from", dest="sender", required=True)
    p.add_argument("--to", required=True)
    p.add_argument("--recipient")
    p.add_argument("--subject", default="ashes")
    p.add_argument("--date")
    p.add_argument("--message-id")
    p.add_argument("--autocrypt-keyfile")
    p.add_argument("body")
    a = p.parse_args()
    with open(a.body, "rb") as f:
        text = crlf(f.read())
    if not text.endswith(b"\r\n"):
        text += b"\r\n"
    key = gpg(a.home, "--export", "--export-options", "export-minimal",
              a.signer)
    if a.autocrypt_keyfile:
        with open(a.autocrypt_keyfile, "rb") as f:
            key = f.read()
    ac = autocrypt_header(key, a.sender)
    textpart = (b"Content-Type: text/plain; charset=UTF-8\r\n"
                b"Content-Transfer-Encoding: 7bit\r\n\r\n" + text)
    out = sys.stdout.buffer
    if a.shape == "autocrypt":
        ct, body = pgp_mime_sign(a, textpart)
        out.write(headers(a, ct, ac).encode() + body)
    elif a.shape == "outlook":
        armored = gpg(a.home, "--armor", "--export", a.signer)
        keyid = gpg(a.home, "--list-keys", "--with-colons", a.signer).decode()
        keyid = [l.split(":")[4] for l in keyid.splitlines()
                 if l.startswith("pub")][0][-8:]
        b = "=-" + os.urandom(8).hex()
        mixed = ("Content-Type: multipart/mixed; boundary=\"%s\"\r\n\r\n"
                 "--%s\r\n" % (b, b)).encode() + textpart + (
            "\r\n--%s\r\nContent-Type: application/octet-stream; "
            "name=\"0x%s.asc\"\r\nContent-Transfer-Encoding: base64\r\n"
            "Content-Disposition: attachment; filename=\"0x%s.asc\"\r\n\r\n"
            "%s\r\n--%s--\r\n" % (b, keyid, keyid, b64lines(armored),
                                  b)).encode()
        ct, body = pgp_mime_sign(a, mixed)
        out.write(headers(a, ct).encode() + body)
    elif a.shape == "tb-encrypted":
        b = "------------" + os.urandom(12).hex()
        e = "------------" + os.urandom(12).hex()
        entity = ("Content-Type: multipart/mixed; boundary=\"%s\";\r\n"
                  " protected-headers=\"v1\"\r\nSubject: %s\r\nFrom: %s\r\n"
                  "To: %s\r\n\r\n--%s\r\nContent-Type: multipart/mixed; "
                  "boundary=\"%s\"\r\n\r\n--%s\r\n" %
                  (b, a.subject, a.sender, a.to, b, e, e)).encode() + \
            textpart + ("--%s--\r\n\r\n--%s--\r\n" % (e, b)).encode()
        ct, body = pgp_mime_encrypt(a, entity, True)
        out.write(headers(a, ct, ac).encode().replace(
            b"Subject: " + a.subject.encode(), b"Subject: ...") + body)
    elif a.shape == "tb-encrypted-two-layers":
        b = "------------mix" + os.urandom(8).hex()
        mixed = ("Content-Type: multipart/mixed; boundary=\"%s\";\r\n"
                 " protected-headers=\"v1\"\r\nFrom: %s\r\nTo: %s\r\n"
                 "Subject: %s\r\n\r\n--%s\r\n" % (b, a.sender, a.to, a.subject,
                                                  b)).encode() + textpart + (
            "\r\n--%s--\r\n" % b).encode()
        sct, sbody = pgp_mime_sign(a, mixed)
        entity = ("Content-Type: %s\r\n\r\n" % sct).encode() + sbody
        ct, body = pgp_mime_encrypt(a, entity, False)
        out.write(headers(a, ct, ac).encode().replace(
            b"Subject: " + a.subject.encode(), b"Subject: ...") + body)
    elif a.shape == "dc-encrypted":
        entity = ("Content-Type: text/plain; charset=\"utf-8\"; "
                  "protected-headers=\"v1\"\r\nSubject: %s\r\n"
                  "Chat-Version: 1.0\r\n\r\n" % a.subject).encode() + text
        ct, body = pgp_mime_encrypt(a, entity, True)
        out.write(headers(a, ct, ac + "Chat-Version: 1.0\r\n").encode().replace(
            b"Subject: " + a.subject.encode(), b"Subject: [...]") + body)
    elif a.shape == "inline-encrypted":
        enc = gpg(a.home, "--armor", "--encrypt", "--sign", "--recipient",
                  a.recipient, "--local-user", a.signer, "--digest-algo",
                  "SHA256", data=text)
        out.write(headers(a, "text/plain; charset=utf-8").encode() +
                  crlf(enc))
    else:
        sys.exit("unknown shape " + a.shape)


if __name__ == "__main__":
    main()
