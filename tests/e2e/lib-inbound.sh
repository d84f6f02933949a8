# shellcheck shell=bash
# tests/e2e/lib-inbound.sh -- helpers of the mail-in e2e tests
# (tests/e2e/test_inbound_*.sh): mails built byte by byte (any MIME shape,
# transfer encoding or charset, signed by the player's own gpg over the
# exact bytes of the signed part), sent raw; the store looked at through
# the `ashes` admin commands; TAP-ish checks.
#
# Source it after setting ASHES_BUILDDIR / ASHES_SRCDIR (make check does);
# it sources lib.sh.
#
#   t_ok DESC / t_fail DESC [WHY] / t_todo DESC REASON / t_done
#   t_is DESC EXPECTED ACTUAL        equal strings
#   t_has DESC REGEX TEXT            TEXT matches the extended REGEX
#   t_hasnt DESC REGEX TEXT
#   in_entity_text BODY [CHARSET] [CTE]   a text/plain MIME entity (CRLF)
#   in_mail OUT WHO SIGN ENTITY [HEADER...]   a whole mail; SIGN: pgpmime
#                                    (multipart/signed around ENTITY) or
#                                    none (ENTITY's headers at the top)
#   in_clearsign WHO TEXT            TEXT clearsigned by WHO
#   in_send WHO FILE                 hand FILE to Postfix (envelope WHO)
#   in_inbound_count / in_wait_inbound N [SECS] / in_outcome MSGID
#   in_game_ply GAME / in_players / in_replies WHO
#   in_lmtp_proxy / in_lmtp_cut TEXT Postfix's LMTP through a proxy that
#                                    loses Dovecot's 250 to one delivery
#   in_msgids FILE...                the distinct Message-IDs of the mails
#   in_postfix_accepted MSGID        times Postfix took in a mail of MSGID
# IN_MSGID is the Message-ID (without <>) of the last mail in_mail built.

# The private Postfix needs root; without it (or the tools) the tests skip.
if [ "$(id -u)" != 0 ]; then
	echo "# SKIP: the mail stack needs root (Postfix)"
	exit 77
fi
for _t in gpg curl python3 iconv doveadm; do
	command -v "$_t" >/dev/null 2>&1 || { echo "# SKIP: no $_t"; exit 77; }
done

# shellcheck source=tests/e2e/lib.sh
. "${ASHES_SRCDIR:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}/tests/e2e/lib.sh"
# shellcheck source=tests/mail/muttrc.sh
. "$E2E_TOP/tests/mail/muttrc.sh"

T_START=$(date +%s)
# t_done: lib.sh's e2e_end (the sanitizer check, the totals, the exit)
t_done() { e2e_end; }

# in_entity_text BODY [CHARSET] [CTE]: a text/plain entity with CRLF line
# ends.  BODY is given in UTF-8 and converted to CHARSET (iconv); CTE is
# 8bit (default), quoted-printable or base64.  For quoted-printable, every
# "-" is written =2D and lines longer than 12 characters get a soft line
# break, so that a reader that does not decode sees no command.
in_entity_text() {
	local body=$1 charset=${2:-utf-8} cte=${3:-8bit}
	printf 'Content-Type: text/plain; charset=%s\r\n' "$charset"
	printf 'Content-Transfer-Encoding: %s\r\n\r\n' "$cte"
	printf '%s\n' "$body" | iconv -f UTF-8 -t "$charset" |
		python3 -c '
import base64, sys
cte = sys.argv[1]
data = sys.stdin.buffer.read()
lines = data.split(b"\n")
if lines and lines[-1] == b"":
	lines.pop()
out = sys.stdout.buffer
if cte == "base64":
	b = base64.encodebytes(b"\r\n".join(lines) + b"\r\n")
	out.write(b.replace(b"\n", b"\r\n"))
elif cte == "quoted-printable":
	for line in lines:
		enc = ""
		for i, ch in enumerate(line):
			if ch == 0x2d or ch == 0x3d or ch > 126 or (ch < 32 and ch != 9) \
			   or (ch in (9, 32) and i == len(line) - 1):
				enc += "=%02X" % ch
			else:
				enc += chr(ch)
		# soft breaks, never inside an =XX escape
		while len(enc) > 12:
			cut = 12
			while "=" in enc[cut - 2:cut]:
				cut -= 1
			out.write(enc[:cut].encode() + b"=\r\n")
			enc = enc[cut:]
		out.write(enc.encode() + b"\r\n")
else:
	for line in lines:
		out.write(line + b"\r\n")
' "$cte"
}

# in_clearsign WHO TEXT: the inline clearsigned text (LF line ends).
in_clearsign() {
	printf '%s\n' "$2" | GNUPGHOME=$E2E_DIR/gnupg-$1 gpg --batch \
		--clearsign --local-user "$(e2e_fpr "$1")" 2>/dev/null ||
		e2e_fail "gpg --clearsign failed for $1"
}

# in_mail OUT WHO SIGN ENTITY-FILE [HEADER...]: write a whole mail to OUT.
# From is "WHO <WHO@domain>" unless IN_FROM is set (a full header value);
# Subject is IN_SUBJECT (default "ashes").  pgpmime signs the exact bytes
# of ENTITY-FILE (CRLF) with WHO's key, detached, as mutt does; none puts
# the entity's own headers at the top of the mail.  Extra gpg options for
# the signature (e.g. --faked-system-time) come from IN_GPG_OPTS.
in_mail() {
	local out=$1 who=$2 sign=$3 entity=$4 h sig
	shift 4
	E2E_SEQ=$((E2E_SEQ + 1))
	IN_MSGID="in.$who.$(date +%s%N).$E2E_SEQ@$MAIL_DOMAIN"
	{
		printf 'From: %s\r\n' "${IN_FROM:-$who <$who@$MAIL_DOMAIN>}"
		printf 'To: ashes@%s\r\n' "$MAIL_DOMAIN"
		printf 'Subject: %s\r\n' "${IN_SUBJECT:-ashes}"
		printf 'Date: %s\r\n' "$(date -R)"
		printf 'Message-ID: <%s>\r\n' "$IN_MSGID"
		for h in "$@"; do
			printf '%s\r\n' "$h"
		done
		printf 'MIME-Version: 1.0\r\n'
	} >"$out"
	case $sign in
	pgpmime)
		# shellcheck disable=SC2086
		sig=$(GNUPGHOME=$E2E_DIR/gnupg-$who gpg --batch --armor \
			--detach-sign --digest-algo SHA256 ${IN_GPG_OPTS:-} \
			--local-user "$(e2e_fpr "$who")" <"$entity" 2>/dev/null) ||
			e2e_fail "gpg could not sign for $who"
		{
			printf 'Content-Type: multipart/signed; micalg=pgp-sha256;\r\n'
			printf ' protocol="application/pgp-signature"; boundary="in-sig-b"\r\n\r\n'
			printf 'This is an OpenPGP/MIME signed message (RFC 4880 and 3156)\r\n'
			printf -- '--in-sig-b\r\n'
			cat "$entity"
			printf '\r\n--in-sig-b\r\n'
			printf 'Content-Type: application/pgp-signature; name="signature.asc"\r\n'
			printf 'Content-Description: OpenPGP digital signature\r\n\r\n'
			printf '%s\n' "$sig" | sed 's/$/\r/'
			printf -- '\r\n--in-sig-b--\r\n'
		} >>"$out"
		;;
	none) cat "$entity" >>"$out" ;;
	*) e2e_fail "in_mail: sign mode $sign" ;;
	esac
}

# in_send WHO FILE: hand FILE unchanged to Postfix, envelope sender WHO
# (an empty WHO sends with the null sender <>, as bounces are).
in_send() {
	local from=
	[ -n "$1" ] && from=$1@$MAIL_DOMAIN
	curl -s --url "smtp://127.0.0.1:$SMTP_PORT" --mail-from "$from" \
		--mail-rcpt "ashes@$MAIL_DOMAIN" --upload-file "$2" ||
		e2e_fail "SMTP refused the mail $2"
}

in_admin() { e2e_ashes "$@" --db "$E2E_DIR/ashes.db"; }

# Mails recorded by the daemon (handled, refused or ignored alike).
in_inbound_count() {
	in_admin inbound list | awk '$1 ~ /^[0-9]+$/ { n++ } END { print n + 0 }'
}

# in_wait_inbound N [SECS]: wait until at least N mails are recorded.
in_wait_inbound() {
	for _ in $(seq 1 $((${2:-20} * 10))); do
		[ "$(in_inbound_count)" -ge "$1" ] && return 0
		sleep 0.1
	done
	return 1
}

# in_outcome MSGID: the recorded outcome of that mail ("" if none).
in_outcome() {
	in_admin inbound list | awk -v id="$1" '
		$1 ~ /^[0-9]+$/ { line = substr($0, 75) }
		$1 == "message-id" && $2 == id { print line; exit }'
}

# in_inbound_player MSGID: the player the mail was attributed to ("-").
in_inbound_player() {
	in_admin inbound list | awk -v id="$1" '
		$1 ~ /^[0-9]+$/ { p = $4 }
		$1 == "message-id" && $2 == id { print p; exit }'
}

# in_inbound_key MSGID: the fingerprint recorded as the signer ("-" if none).
in_inbound_key() {
	in_admin inbound list | awk -v id="$1" '
		$1 == "message-id" && $2 == id { print $4; exit }'
}

# in_game_ply GAME: plies played in GAME ("" if there is no such game).
in_game_ply() {
	in_admin games --all | awk -v g="$1" '$1 == g { print $5 }'
}

in_games_count() {
	in_admin games --all | awk '$1 ~ /^[0-9]+$/ { n++ } END { print n + 0 }'
}

in_players() { in_admin player list; }

in_outbox_count() {
	in_admin outbox list | awk '$1 ~ /^[0-9]+$/ { n++ } END { print n + 0 }'
}

# in_reply WHO REGEX SKIP [SECS]: wait for the first mail of WHO after the
# first SKIP whose Subject or text matches; its file in R.  A test fails
# when none comes.  (Not to be called in $(...): it counts failures.)
in_reply() {
	R=$(wait_mail "$1" "$2" "${4:-20}" "$3") && return 0
	t_fail "a mail to $1 matching /$2/ within ${4:-20} s"
	return 1
}

# in_wait_count WHO N [SECS]: wait until WHO has N mails.
in_wait_count() {
	for _ in $(seq 1 $((${3:-20} * 10))); do
		[ "$(mail_count "$1")" -ge "$2" ] && return 0
		sleep 0.1
	done
	t_fail "$1 got $2 mails within ${3:-20} s (has $(mail_count "$1"))"
	return 1
}

# in_pick WHO SKIP REGEX: like in_reply among the mails already there.
in_pick() {
	local f n=0
	R=
	for f in $(e2e_mails "$1"); do
		n=$((n + 1))
		[ "$n" -gt "$2" ] || continue
		if e2e_digest "$f" | grep -qE -- "$3"; then
			R=$f
			return 0
		fi
	done
	t_fail "a mail to $1 matching /$3/"
	return 1
}

# in_legal MOVE...: the legal moves after these, sorted, one a line.
in_legal() { e2e_ashes legal --size 5 "$@"; }

# in_make_key WHO EXPIRE: like lib.sh's keys, with the expiry given
# (gpg's syntax: 1y, seconds=N ...).  Extra gpg options in IN_GPG_OPTS.
in_make_key() {
	# shellcheck disable=SC2086
	e2e_make_key "$1" "$2" ${IN_GPG_OPTS:-}
}

in_doveadm() {
	doveadm -c "$E2E_DIR/stack/dovecot/dovecot.conf" "$@"
}


# The parts of the store a refused mail must leave alone: games (with
# their plies) and players (with addresses and keys).
in_snapshot() {
	in_admin games --all
	in_admin player list
}

# in_outbox_to WHO: replies and notices queued for WHO's address.
in_outbox_to() {
	in_admin outbox list | awk -v a="$1@$MAIL_DOMAIN" '$1 ~ /^[0-9]+$/ && $6 == a { n++ } END { print n + 0 }'
}

# in_wait_sent [SECS]: until nothing in the outbox is pending.
in_wait_sent() {
	for _ in $(seq 1 $((${1:-20} * 10))); do
		in_admin outbox list --status pending | awk '$1 ~ /^[0-9]+$/ { n++ } END { exit n > 0 }' &&
			return 0
		sleep 0.1
	done
	return 1
}

# in_mutt_mail OUT WHO SUBJECT BODY: a mail signed by mutt's own PGP/MIME
# code (crypt_use_gpgme, crypt_autosign) with WHO's key, written to OUT by
# the "sendmail" mutt is given.  Mutt only autosigns on a terminal, so it
# runs under script(1): Enter at the To and Subject prompts, the editor is
# `true`, and 'y' (sent until the mail exists) in the compose menu.  As in
# tests/mail/gpg-helper.sh.  Fails when mutt or script is missing.
in_mutt_mail() {
	local out=$1 who=$2 subject=$3 body=$4 d=$E2E_DIR/mutt-$2
	command -v mutt >/dev/null 2>&1 && command -v script >/dev/null 2>&1 ||
		return 1
	mkdir -p "$d"
	rm -f "$d/out.eml"
	printf '#!/bin/sh\ncat > "%s/out.eml"\n' "$d" >"$d/sendmail.sh"
	chmod +x "$d/sendmail.sh"
	mutt_rc "$d" "$(e2e_fpr "$who")" "$who@$MAIL_DOMAIN" "$who" >"$d/muttrc"
	printf '%s\n' "$body" >"$d/body"
	( sleep 0.5; printf '\r'; sleep 0.2; printf '\r'
	  for _ in $(seq 1 40); do
		[ -s "$d/out.eml" ] && break
		sleep 0.5; printf 'y'
	  done; sleep 0.5 ) |
	TERM=vt100 GNUPGHOME=$E2E_DIR/gnupg-$who HOME=$d timeout 40 \
		script -qec "mutt -n -F '$d/muttrc' -s '$subject' -i '$d/body' ashes@$MAIL_DOMAIN" \
		/dev/null >"$d/mutt.log" 2>&1
	[ -s "$d/out.eml" ] || return 1
	cp "$d/out.eml" "$out"
}

# in_start [CONFIG-EXTRA]: e2e_start, and at exit in_stop: lib.sh's
# e2e_stop removes the folder but leaves a gpg-agent running for every
# GNUPGHOME that signed or verified; stop those first.
in_start() {
	e2e_start "$@"
	trap in_stop EXIT
}

in_stop() {
	local h
	e2e_stop_daemon
	for h in "$E2E_DIR"/gnupg-* "$E2E_DIR"/daemon-gnupg; do
		[ -d "$h" ] && gpgconf --homedir "$h" --kill gpg-agent >/dev/null 2>&1
	done
	e2e_stop
}

# in_lmtp_proxy: from now on Postfix delivers through a proxy in front of
# Dovecot's LMTP that passes everything on, but for one mail once armed
# (in_lmtp_cut).  Call it before mail flows: Postfix's running lmtp and
# qmgr keep the old route while they are busy.
# in_lmtp_cut TEXT: for the first mail from now on whose bytes hold TEXT
# and that Dovecot saves, its "250 ... Saved" to the end of DATA is
# swallowed, the connection closed -- what Dovecot stopped between saving
# a mail and answering does.  Postfix never hears the 250 ("lost
# connection ... while sending end of data -- message may be sent more
# than once"), keeps the mail queued and delivers it again on its next
# try: the mailbox holds the one queued mail twice.  SMTP and LMTP are
# at-least-once by design; nothing on the sending side can tell.  What
# the proxy swallowed is in $E2E_DIR/lmtp-cut.log.
in_lmtp_cut() {
	if ! printf '%s' "$1" >"$E2E_DIR/lmtp-cut.text.tmp" ||
		! mv "$E2E_DIR/lmtp-cut.text.tmp" "$E2E_DIR/lmtp-cut.text"; then
		e2e_fail "in_lmtp_cut: cannot arm the proxy"
	fi
}

in_lmtp_proxy() {
	local port pf=$E2E_DIR/lmtp-cut.port
	rm -f "$pf" "$E2E_DIR/lmtp-cut.text"
	CUT_TEXT_FILE=$E2E_DIR/lmtp-cut.text CUT_LOG=$E2E_DIR/lmtp-cut.log \
		CUT_PORT_FILE=$pf CUT_UPSTREAM=$LMTP_PORT python3 -c '
import os, socket, threading
text_file = os.environ["CUT_TEXT_FILE"]
upstream = int(os.environ["CUT_UPSTREAM"])
log = open(os.environ["CUT_LOG"], "a", buffering=1)
lock = threading.Lock()
armed = [True]

def shut(s):
	try:
		s.shutdown(socket.SHUT_RDWR)
	except OSError:
		pass

# Dovecot to Postfix.  Only shutdown() here: the sockets are closed by
# serve() once this thread is done, so no descriptor is reused under it.
def answers(c, u, ended):
	got = b""
	try:
		while True:
			b = u.recv(65536)
			if not b:
				break
			if not ended.is_set():
				c.sendall(b)
				continue
			# the answer to the end of DATA, read whole: swallow a
			# 250; pass anything else on (Dovecot going down) and
			# stay armed for the next try
			got += b
			if not got.endswith(b"\r\n"):
				continue
			first = got.split(b"\r\n")[0].decode(errors="replace")
			if got.startswith(b"250"):
				log.write("swallowed: %s\n" % first)
				break
			log.write("passed on: %s\n" % first)
			with lock:
				armed[0] = True
			ended.clear()
			c.sendall(got)
			got = b""
	except OSError:
		pass
	shut(c)
	shut(u)

# Postfix to Dovecot, line by line, watching for the end of DATA.
def serve(c):
	try:
		u = socket.create_connection(("127.0.0.1", upstream))
	except OSError:
		c.close()	# Dovecot down: Postfix sees it at the greeting
		return
	ended = threading.Event()
	t = threading.Thread(target=answers, args=(c, u, ended), daemon=True)
	t.start()
	buf, data = b"", None
	try:
		while True:
			b = c.recv(65536)
			if not b:
				break
			buf += b
			while b"\r\n" in buf:
				line, buf = buf.split(b"\r\n", 1)
				line += b"\r\n"
				if data is None:
					if line.upper() == b"DATA\r\n":
						data = b""
				elif line == b".\r\n":
					try:
						text = open(text_file, "rb").read()
					except OSError:
						text = b""
					with lock:
						if text and armed[0] and text in data:
							armed[0] = False
							ended.set()
					data = None
				else:
					data += line
				u.sendall(line)
	except OSError:
		pass
	shut(u)
	t.join()
	c.close()
	u.close()

ls = socket.socket()
ls.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
ls.bind(("127.0.0.1", 0))
ls.listen(16)
with open(os.environ["CUT_PORT_FILE"] + ".tmp", "w") as f:
	f.write("%d\n" % ls.getsockname()[1])
os.rename(os.environ["CUT_PORT_FILE"] + ".tmp", os.environ["CUT_PORT_FILE"])
while True:
	c, _ = ls.accept()
	threading.Thread(target=serve, args=(c,), daemon=True).start()
' </dev/null >>"$E2E_DIR/lmtp-cut.log" 2>&1 &
	E2E_PIDS+=("$!")
	for _ in $(seq 1 100); do
		[ -s "$pf" ] && break
		sleep 0.05
	done
	port=$(cat "$pf" 2>/dev/null)
	[ -n "$port" ] || e2e_fail "the LMTP proxy did not start"
	postconf -c "$E2E_DIR/stack/postfix" -e \
		"virtual_transport = lmtp:inet:127.0.0.1:$port" ||
		e2e_fail "postconf failed"
	# the master re-reads main.cf; qmgr and lmtp start again with it
	kill -HUP "$(tr -d ' ' <"$E2E_DIR/stack/postfix-queue/pid/master.pid")" ||
		e2e_fail "Postfix is not running"
}

# in_msgids FILE...: the distinct Message-IDs of these mails, one a line.
in_msgids() {
	[ $# -gt 0 ] || return 0
	awk 'FNR == 1 { h = 1 } /^\r?$/ { h = 0 }
		h && tolower($1) == "message-id:" { sub(/\r$/, ""); print $2 }' "$@" |
		sort -u
}

# in_postfix_accepted MSGID: how many times Postfix took in a mail with
# this Message-ID (<> included or not) from a client: once per SMTP
# transaction, whatever it then delivers.
in_postfix_accepted() {
	local id=${1#<}
	id=${id%>}
	grep -F "message-id=<$id>" "$E2E_DIR/stack/postfix/maillog" 2>/dev/null |
		grep -c 'postfix/cleanup'
}
