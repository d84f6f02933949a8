# shellcheck shell=bash
# tests/e2e/lib-hostile.sh -- helpers of the hostile-mail e2e tests
# (tests/e2e/test_hostile_*.sh): each case of the security review is a
# mail an attacker can send, through the real ashesd between a real
# Dovecot and a real Postfix with real gpg keys, and a check of exactly
# what the daemon recorded, stored and answered.  Sources lib-inbound.sh
# (t_ok, in_mail, in_send ...; exits 77 without root) and lib-game.sh
# (game_new, game_restart_daemon, raw_wait ...), and adds:
#
#   h_outcome MSGID                the recorded outcome ("" if none yet)
#   h_wait_outcome MSGID [SECS]    wait until the mail is recorded; print it
#   h_is_outcome DESC PREFIX MSGID the outcome starts with PREFIX
#   h_players WHO...               register WHO (PGP/MIME, key pasted) and
#                                  confirm the address, all at once
#   h_add_user WHO                 a mailbox and a key for WHO
#   h_player_block NAME            NAME's lines of `ashes player list`
#   h_status GAME / h_ply GAME     a game's status / plies played
#   h_quote FILE                   the text of a mail, quoted ("> ")

# shellcheck source=tests/e2e/lib-inbound.sh
. "${ASHES_SRCDIR:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}/tests/e2e/lib-inbound.sh"
# shellcheck source=tests/e2e/lib-game.sh
. "${ASHES_SRCDIR:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}/tests/e2e/lib-game.sh"

# h_outcome MSGID: read from `ashes inbound list`, which prints a mail's
# line (ID, RECEIVED as "date time", PLAYER, FROM, OUTCOME) and below it
# "message-id ID".  A From longer than its column pushes the outcome to
# the right, so the From is skipped as a word, not by its width.
h_outcome() {
	in_admin inbound list | awk -v id="$1" '
		$1 ~ /^[0-9]+$/ {
			line = $0
			sub(/^ *[0-9]+ +[^ ]+ +[^ ]+ +[^ ]+ +[^ ]+ +/, "", line)
		}
		$1 == "message-id" && $2 == id { print line; exit }'
}

h_wait_outcome() {
	local o
	for _ in $(seq 1 $((${2:-30} * 5))); do
		o=$(h_outcome "$1")
		if [ -n "$o" ]; then
			printf '%s\n' "$o"
			return 0
		fi
		sleep 0.2
	done
	return 1
}

# h_is_outcome DESC PREFIX MSGID: wait for the mail, check its outcome
# starts with PREFIX (a fixed string).
h_is_outcome() {
	local o
	o=$(h_wait_outcome "$3" 30)
	case $o in
	"$2"*) t_ok "$1" ;;
	*) t_fail "$1" "expected an outcome starting with: $2
actual: ${o:-(not recorded)}" ;;
	esac
}

# h_add_user WHO: a mailbox on the stack and a key (1 year) for WHO.
h_add_user() {
	bash "$MAILSTACK" adduser "$E2E_DIR/stack" "$1" "$1-pw" >/dev/null ||
		e2e_fail "no mailbox for $1"
	in_make_key "$1" 1y
}

# h_players WHO...: every WHO registers at once (PGP/MIME, key pasted),
# answers the code, and is confirmed: a round trip for all, not for each.
h_players() {
	local who f code
	local -A n
	for who in "$@"; do
		n[$who]=$(mail_count "$who")
		player_send "$who" pgpmime register "register $who

$(e2e_pubkey "$who")"
	done
	for who in "$@"; do
		f=$(wait_mail "$who" "Welcome, $who" 30 "${n[$who]}") ||
			e2e_fail "$who got no welcome"
		code=$(e2e_digest "$f" | sed -n 's/^ *confirm \([A-Z0-9]*\)$/\1/p' | head -n 1)
		[ -n "$code" ] || e2e_fail "no confirmation code for $who"
		n[$who]=$(mail_count "$who")
		player_send "$who" pgpmime "code" "confirm $code"
	done
	for who in "$@"; do
		wait_mail "$who" "is confirmed" 30 "${n[$who]}" >/dev/null ||
			e2e_fail "$who could not confirm the address"
	done
}

# h_player_block NAME: the player's line and the indented lines below it.
h_player_block() {
	in_admin player list | awk -v n="$1" '
		/^[0-9]+\t/ { on = ($2 == n) }
		on { print }' FS='\t'
}

# h_start CONFIG: the mail stack and one daemon with CONFIG (in_start),
# the test in $E2E_DIR, the mail domain as D.
h_start() {
	in_start "$@"
	cd "$E2E_DIR" || exit 1
	D=$MAIL_DOMAIN
}

# h_keys_of NAME: the fingerprints of the keys bound to player NAME.
h_keys_of() { h_player_block "$1" | sed -n 's/^	key *//p'; }

# h_code_of FILE: the confirmation code in a reply.
h_code_of() { e2e_digest "$1" | sed -n 's/^ *confirm \([A-Z0-9]*\)$/\1/p' | head -n 1; }

# h_key_confirm LABEL WHO NEWKEY N: the end of a `key replace` that WHO's
# mail has claimed (N mails in WHO's mailbox before it): the "not bound
# yet" reply names NEWKEY and holds a code; WHO's key is the old one until
# the code comes back in a mail signed by NEWKEY, which binds it, and WHO
# is told.
h_key_confirm() {
	local label=$1 who=$2 new=$3 n=$4 code=
	if in_reply "$who" "not bound yet" "$n"; then
		t_has "$label: the reply names the new key" "$(e2e_fpr "$new")" \
			"$(e2e_digest "$R")"
		code=$(h_code_of "$R")
		t_has "$label: the reply holds a code" "^[A-Z2-9]{10}\$" "$code"
	fi
	t_is "$label: until the proof, $who's key is the old one" \
		"$(e2e_fpr "$who")" "$(h_keys_of "$who")"
	n=$(mail_count "$who")
	in_entity_text "confirm ${code:-NOCODE2345}" >ent
	IN_FROM="$who <$who@$MAIL_DOMAIN>" in_mail conf.eml "$new" pgpmime ent
	in_send "$who" conf.eml
	h_is_outcome "$label: confirm signed by the new key binds it" \
		"ok: 1 command" "$IN_MSGID"
	in_reply "$who" "Your key is replaced" "$n" &&
		t_ok "$label: $who is told, at the player's address"
	t_is "$label: $who's key is $new's now" "$(e2e_fpr "$new")" \
		"$(h_keys_of "$who")"
}

h_status() { in_admin games --all | awk -v g="$1" '$1 == g { print $2 }'; }
h_ply() { in_game_ply "$1"; }

# h_quote FILE: the mail's text as a mail client quotes it in a reply.
h_quote() { e2e_digest "$1" | sed 1d | sed 's/^/> /'; }

# h_wait_dead [SECS]: until the daemon process is gone (0), or not (1).
h_wait_dead() {
	for _ in $(seq 1 $((${1:-30} * 10))); do
		kill -0 "$E2E_DAEMON_PID" 2>/dev/null || return 0
		sleep 0.1
	done
	return 1
}
