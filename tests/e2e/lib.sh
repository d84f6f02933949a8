# tests/e2e/lib.sh -- the whole loop on real servers, shared by the e2e
# tests and the README's demo (scripts/demo): a private Dovecot + Postfix
# (tests/stack/mailstack), players with their own gpg keys who write with a
# real mail client (mutt), and ashesd in between.
#
# Source it, then:
#   e2e_start [CONFIG-EXTRA]   stack, keys for alice/bob/mallory, ashesd
#   e2e_stop                   stop everything started (also on EXIT)
#   e2e_clock_set SECONDS      move ashesd's clock (needs E2E_CLOCK_OFFSET)
#   e2e_reload [CONFIG-EXTRA]  a new config, taken in by SIGHUP
#   player_send WHO MODE SUBJECT BODY   MODE: pgpmime | inline | unsigned
#   wait_mail WHO REGEX [SECONDS]       print the newest mail file of WHO
#                                       whose headers or text match REGEX
#   mail_text FILE                      its decoded text/plain
#   mail_header FILE NAME               one header's value
# Needs root (Postfix), mutt, gpg, python3 (reading mails only).
#
# Set before e2e_start: E2E_POLL_INTERVAL ([imap] poll_interval, default
# 30s); E2E_DAEMON_ENV, an array of NAME=VALUE words added to ashesd's
# environment; E2E_CLOCK_OFFSET, seconds: ashesd gets
# ASHESD_TEST_CLOCK_OFFSET_FILE=$E2E_DIR/clock-offset holding them;
# E2E_MORE_PLAYERS, names of players beyond alice, bob and mallory (each
# gets a mailbox, password NAME-pw, and a key).
# The test hooks (E2E_CLOCK_OFFSET, and ASHES_TEST_KILL_AT, _CRASH_ON,
# _FAIL_ON, _NO_PGP_SCAN in E2E_DAEMON_ENV) work only in an ashesd built
# with ./configure --enable-test-hooks, as scripts/build builds it
# (src/daemon/test_hooks.h).

E2E_TOP=${ASHES_SRCDIR:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
E2E_BUILD=${ASHES_BUILDDIR:-$E2E_TOP/_build}
# TAP output, keys, the mail digest
: "${ASHES_BUILDDIR:=$E2E_BUILD}"
# shellcheck source=tests/lib.sh
. "$E2E_TOP/tests/lib.sh"
MAILSTACK=$E2E_TOP/tests/stack/mailstack
E2E_DIR=
E2E_PIDS=()

e2e_log() { printf '%s\n' "$*" >&2; }

e2e_fail() {
	e2e_log "FAIL: $*"
	if [ -n "$E2E_DIR" ] && [ -f "$E2E_DIR/ashesd.log" ]; then
		e2e_log "---- last lines of ashesd.log ----"
		tail -n 40 "$E2E_DIR/ashesd.log" >&2
	fi
	exit 1
}

# e2e_make_key WHO [EXPIRE [GPG-ARG...]]: a throw-away key of WHO (t_key)
# in $E2E_DIR/gnupg-WHO, its fingerprint in $E2E_DIR/fpr.WHO.
e2e_make_key() {
	local who=$1 home=$E2E_DIR/gnupg-$1
	shift
	t_key "$home" "$who" "$who@$MAIL_DOMAIN" "$@" ||
		e2e_fail "gpg could not make a key for $who"
	t_fpr "$home" >"$E2E_DIR/fpr.$who"
}

# e2e_daemon_key: the daemon's own signing key (never expires) in its
# keyring; its fingerprint in dfpr.
e2e_daemon_key() {
	t_key "$E2E_DIR/daemon-gnupg" ashesd "ashes@$MAIL_DOMAIN" never ||
		e2e_fail "no daemon key"
	dfpr=$(t_fpr "$E2E_DIR/daemon-gnupg")
}

e2e_fpr() { cat "$E2E_DIR/fpr.$1"; }

e2e_pubkey() {
	GNUPGHOME=$E2E_DIR/gnupg-$1 gpg --batch --armor --export "$(e2e_fpr "$1")"
}

# Write the daemon's config; extra lines (sections included) are appended
# after the defaults' sections, so tests can add keys to [game] etc.
e2e_write_config() {
	local pass
	pass=$(eval echo "\$PASS_ashes")
	cat >"$E2E_DIR/ashesd.conf" <<EOF
# ashesd for the e2e tests / demo: everything on loopback.
[imap]
url = imap://127.0.0.1:$IMAP_PORT
starttls = no
user = ashes
password = $pass
mailbox = INBOX
archive_folder = Archive
poll_interval = ${E2E_POLL_INTERVAL:-30s}
idle = yes

[smtp]
url = smtp://127.0.0.1:$SMTP_PORT
starttls = no
from = ashes@$MAIL_DOMAIN
from_name = Ashes club
retry_initial = 1s
retry_max = 4s

[gpg]
home = $E2E_DIR/daemon-gnupg

[database]
path = $E2E_DIR/ashes.db

[log]
target = stderr
level = ${E2E_LOG_LEVEL:-info}
${1:-}
EOF
}

# e2e_clock_set SECONDS: ashesd's clock runs SECONDS ahead of the real one
# from its next look at the clock.  Written aside and renamed: the daemon
# reads the file at every look and must never see it half written.
e2e_clock_set() {
	if ! printf '%s\n' "$1" >"$E2E_DIR/clock-offset.tmp" ||
		! mv -f "$E2E_DIR/clock-offset.tmp" "$E2E_DIR/clock-offset"; then
		e2e_fail "could not write the clock offset"
	fi
}

# e2e_reload CONFIG-EXTRA: rewrite the daemon's config (as e2e_start's)
# and send it SIGHUP; returns once it logged the new one in use.
e2e_reload() {
	local ok bad log=$E2E_DIR/ashesd.log
	# (|| true: a count of 0 is grep's exit 1, fatal under set -e, as
	# in scripts/demo)
	ok=$(grep -c 'configuration reloaded' "$log" || true)
	bad=$(grep -c 'reload failed' "$log" || true)
	e2e_write_config "${1:-}"
	kill -HUP "$E2E_DAEMON_PID" || e2e_fail "ashesd is not running"
	for _ in $(seq 1 300); do
		[ "$(grep -c 'configuration reloaded' "$log")" -gt "$ok" ] &&
			return 0
		[ "$(grep -c 'reload failed' "$log")" -gt "$bad" ] &&
			e2e_fail "ashesd refused the new configuration"
		sleep 0.1
	done
	e2e_fail "ashesd did not reload its configuration"
}

e2e_start_daemon() {
	local -a env=(${E2E_DAEMON_ENV[@]+"${E2E_DAEMON_ENV[@]}"})
	if [ -n "${E2E_CLOCK_OFFSET:-}" ]; then
		[ -f "$E2E_DIR/clock-offset" ] || e2e_clock_set "$E2E_CLOCK_OFFSET"
		env+=("ASHESD_TEST_CLOCK_OFFSET_FILE=$E2E_DIR/clock-offset")
	fi
	env ${env[@]+"${env[@]}"} \
		ASHES_TEMPLATES="${ASHES_TEMPLATES:-$E2E_TOP/templates}" \
		"$E2E_BUILD/ashesd" -c "$E2E_DIR/ashesd.conf" --foreground \
		</dev/null >>"$E2E_DIR/ashesd.log" 2>&1 &
	E2E_DAEMON_PID=$!
	E2E_PIDS+=("$E2E_DAEMON_PID")
	# ready when it logs that it reads the mailbox
	local i
	for i in $(seq 1 100); do
		grep -q 'reading imap://' "$E2E_DIR/ashesd.log" 2>/dev/null && return 0
		kill -0 "$E2E_DAEMON_PID" 2>/dev/null || e2e_fail "ashesd exited at start"
		sleep 0.1
	done
	e2e_fail "ashesd did not start"
}

e2e_stop_daemon() {
	if [ -n "${E2E_DAEMON_PID:-}" ] && kill -0 "$E2E_DAEMON_PID" 2>/dev/null; then
		kill -TERM "$E2E_DAEMON_PID"
		wait "$E2E_DAEMON_PID" 2>/dev/null || true
	fi
	E2E_DAEMON_PID=
}

e2e_start() {
	E2E_DIR=$(mktemp -d /tmp/ashes-e2e.XXXXXX)
	chmod 755 "$E2E_DIR"
	trap e2e_stop EXIT
	local who more=()
	for who in ${E2E_MORE_PLAYERS:-}; do
		more+=("$who:$who-pw")
	done
	bash "$MAILSTACK" start "$E2E_DIR/stack" ashes:ashes-pw alice:alice-pw \
		bob:bob-pw mallory:mallory-pw ${more[@]+"${more[@]}"} \
		>"$E2E_DIR/mailstack.out" 2>&1 ||
		{ cat "$E2E_DIR/mailstack.out" >&2; e2e_fail "mail stack did not start"; }
	# shellcheck disable=SC1091
	. "$E2E_DIR/stack/env"
	for who in alice bob mallory ${E2E_MORE_PLAYERS:-}; do
		e2e_make_key "$who"
	done
	e2e_write_config "${1:-}"
	e2e_start_daemon
}

# e2e_end: the daemon stopped (a sanitizer build reports at exit), its
# logs read for a report, then t_end's lines (and the log's end if a
# check failed); exits with t_end's status.
e2e_end() {
	if [ -n "$E2E_DIR" ] && [ -f "$E2E_DIR/ashesd.log" ]; then
		e2e_stop_daemon
		if grep -q -E 'Sanitizer|runtime error:' "$E2E_DIR"/ashesd.log* 2>/dev/null; then
			t_fail "no sanitizer report in ashesd's logs" \
				"$(grep -h -E -A5 'Sanitizer|runtime error:' "$E2E_DIR"/ashesd.log* | head -n 30)"
		else
			t_ok "no sanitizer report in ashesd's logs"
		fi
	fi
	[ -n "${T_START:-}" ] && echo "# $(($(date +%s) - T_START)) s"
	if ! t_end; then
		if [ -n "$E2E_DIR" ] && [ -f "$E2E_DIR/ashesd.log" ]; then
			echo "---- last lines of ashesd.log ----"
			tail -n 30 "$E2E_DIR/ashesd.log"
		fi
		exit 1
	fi
	exit 0
}

e2e_stop() {
	local p
	e2e_stop_daemon
	for p in "${E2E_PIDS[@]}"; do
		kill "$p" 2>/dev/null || true
	done
	if [ -n "$E2E_DIR" ] && [ -d "$E2E_DIR/stack" ]; then
		bash "$MAILSTACK" stop "$E2E_DIR/stack" >/dev/null 2>&1 || true
	fi
	# each key folder has its own gpg-agent; leave none running
	for p in "$E2E_DIR"/gnupg-* "$E2E_DIR"/daemon-gnupg; do
		[ -d "$p" ] && GNUPGHOME=$p gpgconf --kill all >/dev/null 2>&1
	done
	if [ -n "$E2E_DIR" ] && [ -z "${E2E_KEEP:-}" ]; then
		rm -rf "$E2E_DIR"
	fi
}

# A player's mail, as a PGP/MIME (RFC 3156) or clearsigning mail client
# writes it, signed by the player's own gpg and handed to Postfix by SMTP
# (curl sends the bytes unchanged).  tests/mail has a mail signed by mutt's
# own code; here the bytes are built so that every test mail can be signed
# without a terminal.

# e2e_pgpmime HOME WHO BODY FILE: onto FILE (the headers so far) the
# PGP/MIME body of BODY, signed by WHO's key in the keyring HOME.
e2e_pgpmime() {
	local home=$1 who=$2 body=$3 f=$4 part sig
	part=$(printf 'Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n\r\n%s\r\n' \
		"$(printf '%s' "$body" | sed 's/$/\r/' | sed '$ s/\r$//')"; echo x)
	part=${part%x}
	sig=$(printf '%s' "$part" | GNUPGHOME=$home gpg --batch --armor \
		--detach-sign --digest-algo SHA256 --local-user "$(e2e_fpr "$who")" 2>/dev/null) ||
		e2e_fail "gpg could not sign for $who"
	{
		printf 'Content-Type: multipart/signed; micalg=pgp-sha256;\r\n'
		printf ' protocol="application/pgp-signature"; boundary="e2e-sig"\r\n\r\n'
		printf -- '--e2e-sig\r\n%s\r\n--e2e-sig\r\n' "$part"
		printf 'Content-Type: application/pgp-signature; name="signature.asc"\r\n\r\n'
		printf '%s\r\n' "$sig" | sed 's/$/\r/' | sed 's/\r\r$/\r/'
		printf -- '--e2e-sig--\r\n'
	} >>"$f"
}

# e2e_archive_verify ARCH DAEMON-FPR PLIES: ashes archive verify on the
# unpacked archive ARCH, shown, its output in $E2E_DIR/verify.out; it
# must pass with one line per ply.
e2e_archive_verify() {
	local rc
	e2e_ashes archive verify "$1" --daemon-key "$2" >"$E2E_DIR/verify.out" 2>&1
	rc=$?
	echo "# ashes archive verify:"
	sed 's/^/#   /' "$E2E_DIR/verify.out"
	t_ok_if "verify: exit 0" test "$rc" = 0
	t_ok_if "verify: one line per ply ($3)" \
		test "$(grep -c '^ply [0-9]* ' "$E2E_DIR/verify.out")" = "$3"
}

E2E_SEQ=0
# player_send WHO MODE SUBJECT BODY [HEADER...]
player_send() {
	local who=$1 mode=$2 subject=$3 body=$4
	shift 4
	local home=$E2E_DIR/gnupg-$who
	local f=$E2E_DIR/out.$who.$$.$E2E_SEQ.eml h part sig
	E2E_SEQ=$((E2E_SEQ + 1))
	E2E_LAST_MSGID="<e2e.$who.$(date +%s%N).$E2E_SEQ@$MAIL_DOMAIN>"
	{
		printf 'From: %s <%s@%s>\r\n' "$who" "$who" "$MAIL_DOMAIN"
		printf 'To: ashes@%s\r\n' "$MAIL_DOMAIN"
		printf 'Subject: %s\r\n' "$subject"
		printf 'Date: %s\r\n' "$(date -R)"
		printf 'Message-ID: %s\r\n' "$E2E_LAST_MSGID"
		printf 'User-Agent: ashes-e2e\r\n'
		for h in "$@"; do
			printf '%s\r\n' "$h"
		done
		printf 'MIME-Version: 1.0\r\n'
	} >"$f"
	case $mode in
	pgpmime)
		e2e_pgpmime "$home" "$who" "$body" "$f"
		;;
	inline | unsigned)
		if [ "$mode" = inline ]; then
			body=$(printf '%s\n' "$body" | GNUPGHOME=$home gpg --batch \
				--clearsign --local-user "$(e2e_fpr "$who")" 2>/dev/null) ||
				e2e_fail "gpg --clearsign failed for $who"
		fi
		printf 'Content-Type: text/plain; charset=utf-8\r\n\r\n' >>"$f"
		printf '%s\n' "$body" | sed 's/$/\r/' >>"$f"
		;;
	raw) cat "$body" >"$f" ;;
	*) e2e_fail "player_send: mode $mode" ;;
	esac
	curl -s --url "smtp://127.0.0.1:$SMTP_PORT" --mail-from "$who@$MAIL_DOMAIN" \
		--mail-rcpt "ashes@$MAIL_DOMAIN" --upload-file "$f" ||
		e2e_fail "SMTP refused the mail of $who"
	rm -f "$f"
}

# Mails of WHO, oldest first: Dovecot's file names start with the
# delivery time.
e2e_mails() {
	local md=$E2E_DIR/stack/mail/$1/Maildir f
	# Dovecot names a mail SECONDS.MMICROSECONDSPPID.host, the
	# microseconds not padded: by name, a mail of the same second can sort
	# before an older one (M98765 > M123456), and a caller skipping the
	# mails it has seen would skip the new one.  Sort by the numbers.
	for f in "$md"/new/* "$md"/cur/*; do
		[ -f "$f" ] && printf '%s\t%s\n' "${f##*/}" "$f"
	done | sort -t. -k1,1n -k2.2n | cut -f2
}

# Subject and decoded text of a mail, decoded once and kept.
e2e_digest() { T_DIGESTS=$E2E_DIR/digest t_digest "$1"; }

mail_text() {
	python3 - "$1" <<'EOF'
import email, sys
from email import policy
m = email.message_from_binary_file(open(sys.argv[1], "rb"), policy=policy.default)
part = m.get_body(preferencelist=("plain",))
sys.stdout.write(part.get_content() if part is not None else "")
EOF
}

mail_header() {
	python3 - "$1" "$2" <<'EOF'
import email, sys
from email import policy
m = email.message_from_binary_file(open(sys.argv[1], "rb"), policy=policy.default)
v = m.get(sys.argv[2])
print(v if v is not None else "")
EOF
}

# wait_mail WHO REGEX [SECONDS] [SKIP]: the first mail of WHO, after the
# first SKIP mails, whose Subject or text matches REGEX.
wait_mail() {
	local who=$1 re=$2 secs=${3:-30} skip=${4:-0} i f n
	for i in $(seq 1 $((secs * 10))); do
		n=0
		for f in $(e2e_mails "$who"); do
			n=$((n + 1))
			[ "$n" -gt "$skip" ] || continue
			if e2e_digest "$f" | grep -qE -- "$re"; then
				echo "$f"
				return 0
			fi
		done
		sleep 0.1
	done
	return 1
}

mail_count() { e2e_mails "$1" | wc -l; }

# The local rules engine, as a player would use it to think.
e2e_ashes() {
	ASHES_TEMPLATES=$E2E_TOP/templates "$E2E_BUILD/ashes" "$@"
}

# e2e_register WHO MODE: register WHO with the public key pasted into the
# signed text, then confirm the address with the code mailed to it (as a
# player would: a signed mail saying "confirm CODE"); prints the welcome.
e2e_register() {
	local who=$1 mode=$2 f n
	n=$(mail_count "$who")
	player_send "$who" "$mode" "register" "register $who

$(e2e_pubkey "$who")"
	f=$(wait_mail "$who" "Welcome, $who" 30 "$n") ||
		e2e_fail "$who got no welcome (mode $mode)"
	e2e_confirm "$who" "$mode" "$f"
	echo "$f"
}

# e2e_confirm WHO MODE MAIL: send back the code MAIL holds; wait until the
# address is confirmed.
e2e_confirm() {
	local who=$1 mode=$2 code n
	code=$(e2e_digest "$3" | sed -n 's/^ *confirm \([A-Z0-9]*\)$/\1/p' | head -1)
	[ -n "$code" ] || e2e_fail "no confirmation code for $who"
	n=$(mail_count "$who")
	player_send "$who" "$mode" "confirm" "confirm $code"
	wait_mail "$who" "is confirmed" 30 "$n" >/dev/null ||
		e2e_fail "$who could not confirm the address (mode $mode)"
}

# The game number in the last reply of WHO matching "Game N created".
e2e_game_of() {
	e2e_digest "$1" | sed -n 's/.*Game \([0-9][0-9]*\) created.*/\1/p' | head -1
}

# e2e_play_game GAME WHITE BLACK SIZE WMODE BMODE SEED [SHOW]
# Both players answer each "your move" mail with a move that the local
# engine lists as legal (a seeded choice), until the game ends.  With SHOW
# set, print each mail's subject and board.  Sets E2E_PLIES and
# E2E_RESULT (white|black|draw).
e2e_play_game() {
	local game=$1 white=$2 black=$3 size=$4 wmode=$5 bmode=$6 seed=$7
	local show=${8:-}
	local -a hist=()
	local -A seen=([$white]=0 [$black]=0)
	local who mode f ply moves n pick status i found
	RANDOM=$seed
	while :; do
		status=$(e2e_ashes status --size "$size" "${hist[@]}" | sed -n 's/^result: //p')
		[ "$status" = ongoing ] || break
		# whose turn: the "your move" mail says which ply to play
		found=
		for i in $(seq 1 600); do
			for who in "$white" "$black"; do
				n=$(mail_count "$who")
				[ "$n" -gt "${seen[$who]}" ] || continue
				f=$(wait_mail "$who" "move $game [0-9]+ MOVE" 1 "${seen[$who]}") || continue
				seen[$who]=$(mail_count "$who")
				found=$who
				break 2
			done
			sleep 0.1
		done
		[ -n "$found" ] || e2e_fail "no 'your move' mail for game $game after ${#hist[@]} moves"
		who=$found
		ply=$(e2e_digest "$f" | sed -n "s/^ *move $game \([0-9][0-9]*\) MOVE.*/\1/p" | head -1)
		if [ -n "$show" ]; then
			echo
			echo "---- to $who: $(e2e_digest "$f" | sed -n '1s/^Subject: //p')"
			e2e_digest "$f" | sed -n '/^Game /,/^Send back/p' | sed '$d'
		fi
		mapfile -t moves < <(e2e_ashes legal --size "$size" "${hist[@]}")
		[ "${#moves[@]}" -gt 0 ] || e2e_fail "no legal move for $who at ply $ply"
		pick=${moves[$((RANDOM % ${#moves[@]}))]}
		mode=$wmode
		[ "$who" = "$black" ] && mode=$bmode
		[ -n "$show" ] && echo "==> $who plays: move $game $ply $pick"
		player_send "$who" "$mode" "Re: [ashes #$game]" "move $game $ply $pick"
		hist+=("$pick")
	done
	E2E_PLIES=${#hist[@]}
	E2E_RESULT=$status
	E2E_HISTORY="${hist[*]}"
}
