# tests/lib.sh -- what every shell test shares (bash): the programs under
# test, a scratch folder, TAP output and the players' gpg keys.  The
# e2e tests get the mail stack and the daemon from tests/e2e/lib.sh,
# which sources this file.
#
#   $ashes $ashesd, ASHES_SRCDIR ASHES_BUILDDIR ASHES_TEMPLATES
#   t_need CMD...           SKIP (exit 77) unless every CMD is installed
#   t_tmp                   LC_ALL=C (exact outputs, byte order) and
#                           $tmp, a scratch folder removed on exit with
#                           the gpg agents of its key folders; t_at_exit
#                           CMD runs CMD (one word list) before that
#   t_ok NAME / t_fail NAME [DETAIL] / t_todo NAME WHY
#   t_is NAME EXPECTED ACTUAL, t_has / t_hasnt NAME REGEX TEXT
#   t_ok_if NAME COMMAND... ok when COMMAND succeeds
#   t_wait SECONDS COMMAND... poll (20 a second, no program started
#                           but COMMAND) until COMMAND succeeds; 1 if
#                           it did not in time
#   t_end                   the plan and the "N passed, N failed" line
#                           (tests/summary.sh counts it); 0 if none failed
#   t_key HOME NAME ADDRESS [EXPIRE [GPG-ARG...]]   an ed25519 signing
#                           key with no passphrase (EXPIRE: gpg's, 1y by
#                           default) in its own GNUPGHOME; t_fpr HOME
#                           prints its fingerprint
#   t_players WHO...        keys for players under $tmp (gnupg-WHO, address
#                           WHO@example.org); fpr WHO, pubkey WHO;
#                           t_import HOME WHO... their public keys into
#                           the keyring HOME (made if missing)
#   t_smtp_sink SECONDS     an SMTP server on 127.0.0.1 that takes SECONDS
#                           a mail (tests/daemon/smtp_server.py): mails in
#                           $tmp/sent, its port in $tmp/port, its log
#                           $tmp/smtp.log; stopped on exit
#   t_digest FILE           Subject line and decoded text of a mail
#                           (one python run per file, kept in $T_DIGESTS)
#   run ARG...              $ashes with no input (needs t_tmp); sets out,
#                           err and rc

: "${ASHES_SRCDIR:=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}"
: "${ASHES_BUILDDIR:=$(pwd)}"
ashes=$ASHES_BUILDDIR/ashes
ashesd=$ASHES_BUILDDIR/ashesd
export ASHES_TEMPLATES=${ASHES_TEMPLATES:-$ASHES_SRCDIR/templates}

t_need() {
	local c
	for c in "$@"; do
		command -v "$c" >/dev/null 2>&1 || { echo "1..0 # SKIP: no $c"; exit 77; }
	done
}

T_AT_EXIT=()
t_at_exit() { T_AT_EXIT+=("$*"); }
t_cleanup() {
	local c h
	for c in ${T_AT_EXIT[@]+"${T_AT_EXIT[@]}"}; do eval "$c"; done
	for h in "$tmp"/gnupg-* "$tmp"/*-gnupg; do
		[ -d "$h" ] && GNUPGHOME=$h gpgconf --kill all >/dev/null 2>&1
	done
	rm -rf "$tmp"
}
t_tmp() {
	export LC_ALL=C
	tmp=$(mktemp -d)
	trap t_cleanup EXIT
}

T_N=0 T_FAILED=0 T_TODO=0
t_ok() { T_N=$((T_N + 1)); echo "ok $T_N - $1"; }
t_fail() {
	T_N=$((T_N + 1)) T_FAILED=$((T_FAILED + 1))
	echo "not ok $T_N - $1"
	[ -n "${2:-}" ] && printf '%s\n' "$2" | head -n 30 | sed 's/^/#   /'
	return 0
}
# A check that shows a known product bug: reported, not counted as failed.
t_todo() {
	T_N=$((T_N + 1)) T_TODO=$((T_TODO + 1))
	echo "not ok $T_N - $1 # TODO $2"
}
t_is() {
	if [ "$2" = "$3" ]; then
		t_ok "$1"
	else
		t_fail "$1" "expected: $(printf '%s' "$2" | head -c 800)
actual:   $(printf '%s' "$3" | head -c 800)"
	fi
}
t_has() {
	if printf '%s\n' "$3" | grep -qE -- "$2"; then
		t_ok "$1"
	else
		t_fail "$1" "no match for /$2/ in:
$3"
	fi
}
t_hasnt() {
	if printf '%s\n' "$3" | grep -qE -- "$2"; then
		t_fail "$1" "unexpected match for /$2/ in:
$3"
	else
		t_ok "$1"
	fi
}
t_ok_if() {
	local what=$1
	shift
	if "$@"; then t_ok "$what"; else t_fail "$what"; fi
}
t_wait() {
	local end=$((${EPOCHREALTIME/./} + $1 * 1000000))
	shift
	until "$@"; do
		[ "${EPOCHREALTIME/./}" -lt "$end" ] || return 1
		sleep 0.05
	done
}
t_end() {
	local passed=$((T_N - T_FAILED - T_TODO))
	echo "1..$T_N"
	if [ "$T_TODO" -gt 0 ]; then
		echo "$passed passed, $T_FAILED failed, $T_TODO known failures (TODO)"
	else
		echo "$passed passed, $T_FAILED failed"
	fi
	[ "$T_FAILED" = 0 ]
}

run() {
	"$ashes" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
	rc=$?
	out=$(cat "$tmp/out")
	err=$(cat "$tmp/err")
}

t_key() {
	local home=$1 name=$2 addr=$3 expire=${4:-1y}
	shift 3
	[ $# -gt 0 ] && shift
	mkdir -p "$home" && chmod 700 "$home"
	GNUPGHOME=$home gpg --batch --pinentry-mode loopback --passphrase '' \
		"$@" --quick-gen-key "$name <$addr>" ed25519 sign "$expire" \
		>/dev/null 2>&1
}
t_fpr() {
	GNUPGHOME=$1 gpg --batch --with-colons --list-secret-keys 2>/dev/null |
		awk -F: '/^fpr/ { print $10; exit }'
}

t_players() {
	local w
	for w in "$@"; do
		t_key "$tmp/gnupg-$w" "$w" "$w@example.org" ||
			{ echo "Bail out! gpg made no key for $w"; exit 1; }
	done
}
fpr() { t_fpr "$tmp/gnupg-$1"; }
pubkey() {
	GNUPGHOME=$tmp/gnupg-$1 gpg --batch --armor --export "$(fpr "$1")" \
		2>/dev/null
}
t_import() {
	local home=$1 w
	shift
	[ -d "$home" ] || mkdir -m 700 "$home"
	for w in "$@"; do
		pubkey "$w" | GNUPGHOME=$home gpg --batch --import >/dev/null 2>&1
	done
}

# t_conf MAILDIR DB GNUPGHOME [SMTP-LINE...]: the head of an ashesd
# configuration reading the folder MAILDIR, sending as the club (the
# SMTP-LINEs before its From), its database DB and keyring GNUPGHOME; the
# test appends its own sections.
t_conf() {
	local maildir=$1 db=$2 home=$3
	shift 3
	printf '[source]\ntype = maildir\nmaildir = %s\n[smtp]\n' "$maildir"
	[ $# -gt 0 ] && printf '%s\n' "$@"
	printf 'from = ashes@club.example\n[database]\npath = %s\n' "$db"
	printf '[gpg]\nhome = %s\n' "$home"
}

# t_add_players CONF WHO...: each WHO registered with the key of
# $tmp/gnupg-WHO, as the operator does.
t_add_players() {
	local conf=$1 w
	shift
	for w in "$@"; do
		"$ashes" player add "$w" "$w@example.org" "$(fpr "$w")" \
			--config "$conf" >/dev/null ||
			{ echo "Bail out! player add $w"; exit 1; }
	done
}

# t_once CONF WHAT: ashesd --once on CONF (the mail in its folder, then
# its timer), checked to succeed.
t_once() {
	"$ashesd" --once -c "$1" >>"$tmp/daemon.log" 2>&1 </dev/null
	t_is "ashesd --once ($2)" 0 "$?"
}

# t_deliver CONF FILE: FILE.tmp made FILE in the folder at once, then
# read by ashesd --once on CONF; the test bails out if that fails.
t_deliver() {
	mv "$2.tmp" "$2"
	"$ashesd" --once -c "$1" >>"$tmp/daemon.log" 2>&1 </dev/null ||
		{ echo "Bail out! ashesd --once"; exit 1; }
}

# t_legal SIZE N MOVE...: the N-th legal move on a board of SIZE after
# the MOVEs.
t_legal() {
	local size=$1 k=$2
	shift 2
	"$ashes" legal --size "$size" "$@" | sed -n "${k}p"
}

# t_swap_plies: plies 2 and 3 of ./record.txt (an unpacked archive's)
# exchange their moves and annotations, their numbers kept.
t_swap_plies() {
	python3 - <<'EOF'
lines = open("record.txt").read().split("\n")
i = [k for k, l in enumerate(lines) if l.startswith("2. ")][0]
j = [k for k, l in enumerate(lines) if l.startswith("3. ")][0]
lines[i], lines[j] = "2. " + lines[j][3:], "3. " + lines[i][3:]
open("record.txt", "w").write("\n".join(lines))
EOF
}

# t_signed WHO PART [GPG-OPTION...]: the Content-Type and body of a
# PGP/MIME mail whose signed part is PART (CRLF lines), signed by WHO's
# key as a mail program signs it.
t_signed() {
	local who=$1 part=$2 sig
	shift 2
	sig=$(printf '%s' "$part" | GNUPGHOME=$tmp/gnupg-$who gpg --batch \
		"$@" --armor --detach-sign --digest-algo SHA256 2>/dev/null)
	printf 'Content-Type: multipart/signed; micalg=pgp-sha256;\r\n'
	printf ' protocol="application/pgp-signature"; boundary="sig"\r\n\r\n'
	printf -- '--sig\r\n%s\r\n--sig\r\n' "$part"
	printf 'Content-Type: application/pgp-signature\r\n\r\n'
	printf '%s\r\n' "$sig" | sed 's/$/\r/' | sed 's/\r\r$/\r/'
	printf -- '--sig--\r\n'
}

t_smtp_sink() {
	mkdir -p "$tmp/sent"
	python3 "$ASHES_SRCDIR/tests/daemon/smtp_server.py" "$tmp/sent" \
		"$tmp/port" "$tmp/smtp.log" "$1" </dev/null >/dev/null 2>&1 &
	T_SINK_PID=$!
	t_at_exit 'kill "$T_SINK_PID" 2>/dev/null'
	t_wait 10 test -s "$tmp/port" || { echo "Bail out! no SMTP sink"; exit 1; }
}

# -S: the email package is in the standard library, so skip
# site-packages, which costs most of python's start-up.
t_digest() {
	local f=$1 c
	c=${T_DIGESTS:-$tmp/digest}/${f##*/}
	c=${c%%:*}
	if [ ! -f "$c" ]; then
		mkdir -p "${c%/*}"
		python3 -S - "$f" >"$c.tmp" <<'EOF'
import email, sys
from email import policy
m = email.message_from_binary_file(open(sys.argv[1], "rb"), policy=policy.default)
sys.stdout.write("Subject: %s\n" % (m.get("Subject") or ""))
part = m.get_body(preferencelist=("plain",))
sys.stdout.write(part.get_content() if part is not None else "")
EOF
		mv "$c.tmp" "$c"
	fi
	cat "$c"
}
