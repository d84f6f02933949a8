# tests/e2e/lib-game.sh -- helpers for the whole-game, recovery and config
# e2e tests (test_game*, test_recovery*, test_daemon_config*) and the e2e
# benchmarks.  Sources lib.sh and adds:
#
#   game_new WHITE BLACK SIZE MODE [OPTS]   challenge + accept; sets G_GAME
#   game_play GAME WHITE BLACK SIZE WMODE BMODE SEED [MAX]
#                                            play until the end (or MAX plies)
#   raw_wait WHO STRING [SECONDS] [SKIP]     first mail of WHO (after SKIP)
#                                            whose raw bytes hold STRING
#   db_moves GAME / db_plies GAME            the move list the daemon stored
#   outbox_unsent                            outbox rows not sent yet
#   club_db SQL / club_set_offset SECONDS / club_daemon_now
#   club_ask WHO TEXT / club_wake_tick SINCE  the club tests' (ladder,
#                                            tournament) database, the
#                                            daemon's clock, a signed
#                                            command and its answer, a run
#                                            of the timer
#   mail_attachment MAIL OUT                 a mail's .tar.gz into OUT
#   (TAP output: tests/lib.sh's t_*, e2e_end in lib.sh)
#
# Why not lib.sh's e2e_play_game: it decodes every mail with two python3
# runs, and python3 takes a second or more to start on the loaded test
# machine, so a 21-ply game took over three minutes.  The daemon answers a
# move in well under a second; here the "your move" line is found in the
# raw mail (a short ASCII line survives quoted-printable unchanged), and
# python runs only once per mail a check really reads.

# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

# raw_wait WHO STRING [SECONDS] [SKIP]
raw_wait() {
	local who=$1 s=$2 secs=${3:-30} skip=${4:-0} i f
	for i in $(seq 1 $((secs * 20))); do
		f=$(e2e_mails "$who" | tail -n +$((skip + 1)) |
			xargs -r grep -l -F -- "$s" 2>/dev/null | head -n 1)
		if [ -n "$f" ]; then
			echo "$f"
			return 0
		fi
		sleep 0.05
	done
	return 1
}

# game_new WHITE BLACK SIZE MODE [OPTS]: WHITE challenges BLACK (with the
# challenge options OPTS, e.g. clock=days:1), BLACK accepts; sets G_GAME
# once WHITE has the first "your move" mail.  Not in a
# subshell, so that e2e_fail stops the test.  The text below the "-- "
# signature line (ignored by the daemon) makes each challenge's signed
# text new: a signed text counts once, ever.
game_new() {
	local white=$1 black=$2 size=$3 mode=$4 opts=${5:+ $5} f nw nb
	nw=$(mail_count "$white")
	nb=$(mail_count "$black")
	player_send "$white" "$mode" "challenge" "challenge $black size=$size$opts
-- 
$white, $(date +%s%N)"
	f=$(wait_mail "$white" "Game [0-9]+ created" 30 "$nw") ||
		e2e_fail "no answer to the challenge"
	G_GAME=$(e2e_game_of "$f")
	[ -n "$G_GAME" ] || e2e_fail "no game number in the challenge reply"
	wait_mail "$black" "challenges you to game $G_GAME" 30 "$nb" >/dev/null ||
		e2e_fail "$black got no challenge"
	player_send "$black" "$mode" "Re: [ashes #$G_GAME]" "accept $G_GAME"
	raw_wait "$white" "move $G_GAME 1 MOVE" 30 "$nw" >/dev/null ||
		e2e_fail "$white got no first 'your move' mail for game $G_GAME"
}

# game_play GAME WHITE BLACK SIZE WMODE BMODE SEED [MAX]
# Answers each "your move" mail (found by its ply line) with a move the
# local engine lists as legal, until the game ends or MAX plies were sent.
# Sets G_PLIES, G_RESULT (white|black|draw|ongoing), G_HISTORY (array),
# G_TURN (white|black: who moves next, if ongoing).
game_play() {
	local game=$1 white=$2 black=$3 size=$4 wmode=$5 bmode=$6 seed=$7
	local max=${8:-100000} st who mode ply f pick
	local -a moves
	G_HISTORY=()
	RANDOM=$seed
	while :; do
		st=$(e2e_ashes status --size "$size" "${G_HISTORY[@]}")
		G_RESULT=$(printf '%s\n' "$st" | sed -n 's/^result: //p')
		G_TURN=$(printf '%s\n' "$st" | sed -n 's/^turn: //p')
		[ "$G_RESULT" = ongoing ] || break
		[ "${#G_HISTORY[@]}" -lt "$max" ] || break
		ply=$((${#G_HISTORY[@]} + 1))
		if [ "$G_TURN" = white ]; then who=$white mode=$wmode; else who=$black mode=$bmode; fi
		f=$(raw_wait "$who" "move $game $ply MOVE" 60) ||
			e2e_fail "$who got no 'your move' mail for ply $ply of game $game"
		mapfile -t moves < <(e2e_ashes legal --size "$size" "${G_HISTORY[@]}")
		[ "${#moves[@]}" -gt 0 ] || e2e_fail "no legal move at ply $ply"
		pick=${moves[$((RANDOM % ${#moves[@]}))]}
		player_send "$who" "$mode" "Re: [ashes #$game]" "move $game $ply $pick"
		G_HISTORY+=("$pick")
	done
	G_PLIES=${#G_HISTORY[@]}
}

# The moves the daemon stored for GAME, one a line, in ply order.
db_moves() {
	e2e_ashes game show "$1" --db "$E2E_DIR/ashes.db" |
		sed -n 's/^ *[0-9][0-9]*\. \([^ ]*\)  by .*/\1/p'
}

# The ply numbers the daemon stored for GAME, one a line.
db_plies() {
	e2e_ashes game show "$1" --db "$E2E_DIR/ashes.db" |
		sed -n 's/^ *\([0-9][0-9]*\)\. [^ ]*  by .*/\1/p'
}

# Outbox rows not sent (pending or failed), as `ashes outbox list` shows them.
outbox_unsent() {
	e2e_ashes outbox list --db "$E2E_DIR/ashes.db" |
		awk '$2 == "pending" || $2 == "failed"'
}

# mail_attachment MAIL OUT: the mail's application/gzip attachment (an
# archive mail's game-N.tar.gz) into OUT; 1 if it has none.
mail_attachment() {
	python3 - "$1" "$2" <<'EOF'
import email, sys
from email import policy
m = email.message_from_binary_file(open(sys.argv[1], "rb"), policy=policy.default)
for part in m.walk():
    if part.get_content_type() == "application/gzip":
        open(sys.argv[2], "wb").write(part.get_payload(decode=True))
        sys.exit(0)
sys.exit(1)
EOF
}

# How many mails of WHO carry Message-ID ID (the whole header line).
mails_with_id() {
	e2e_mails "$1" | xargs -r grep -l -i -F -x -- "Message-ID: $2" 2>/dev/null | wc -l
}


# Skip (exit 77, automake's SKIP) where the whole loop cannot run.
game_require_stack() {
	local t
	if [ "$(id -u)" != 0 ]; then
		echo "SKIP: needs root (private Postfix)"
		exit 77
	fi
	for t in postfix dovecot gpg curl python3; do
		command -v "$t" >/dev/null 2>&1 || PATH=$PATH:/usr/sbin command -v "$t" >/dev/null 2>&1 || {
			echo "SKIP: $t not installed"
			exit 77
		}
	done
}

# Stop and start the stack's Postfix only (mailstack has no command for
# it): the same steps as mailstack's postfix_stop / postfix_start.
smtp_port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$SMTP_PORT") 2>/dev/null; }
smtp_down() {
	local pidf=$MAILSTACK_DIR/postfix-queue/pid/master.pid pid kids p i
	pid=$(tr -d ' ' <"$pidf")
	kids=$(pgrep -P "$pid" || true)
	# shellcheck disable=SC2086
	kill -TERM "$pid" $kids 2>/dev/null || true
	for p in $pid $kids; do
		for i in $(seq 1 100); do
			kill -0 "$p" 2>/dev/null || break
			sleep 0.05
		done
	done
	rm -f "$pidf"
	for i in $(seq 1 100); do
		smtp_port_open || return 0
		sleep 0.05
	done
	e2e_fail "Postfix's port $SMTP_PORT still open"
}
smtp_up() {
	/usr/lib/postfix/sbin/master -c "$MAILSTACK_DIR/postfix" -w \
		</dev/null >>"$MAILSTACK_DIR/postfix/start.log" 2>&1 ||
		e2e_fail "Postfix did not start again"
	local i
	for i in $(seq 1 100); do
		smtp_port_open && return 0
		sleep 0.05
	done
	e2e_fail "Postfix's port $SMTP_PORT did not open"
}

# Restart the daemon with a fresh log (lib.sh's e2e_start_daemon waits for
# a line of the log, which an old log already holds); the old logs stay
# as ashesd.log.1, .2, ...
game_restart_daemon() {
	local n=1
	e2e_stop_daemon
	while [ -f "$E2E_DIR/ashesd.log.$n" ]; do n=$((n + 1)); done
	[ -f "$E2E_DIR/ashesd.log" ] && mv "$E2E_DIR/ashesd.log" "$E2E_DIR/ashesd.log.$n"
	e2e_start_daemon
}

# Mails in the mailbox the daemon reads (delivered, not yet archived).
ashes_inbox_count() {
	local md=$E2E_DIR/stack/mail/ashes/Maildir
	find "$md/new" "$md/cur" -maxdepth 1 -type f 2>/dev/null | wc -l
}

# Message-IDs of the daemon's mails that WHO got more than once.
dup_ids() {
	e2e_mails "$1" | xargs -r grep -h -i '^Message-ID:' | sort | uniq -d
}

# How many distinct daemon Message-IDs WHO got.
daemon_ids() {
	e2e_mails "$1" | xargs -r grep -h -i '^Message-ID: <ashes\.' | sort -u | wc -l
}

# digest_has FILE REGEX: FILE is set and its Subject or text matches.
digest_has() { [ -n "$1" ] && e2e_digest "$1" | grep -qE -- "$2"; }

# mail_build WHO SUBJECT BODY FILE: a PGP/MIME mail of WHO signed by WHO's
# gpg, written to FILE (the same bytes player_send would send), for the
# benchmarks, which deliver many mails at once.
mail_build() {
	local who=$1 subject=$2 body=$3 f=$4
	{
		printf 'From: %s <%s@%s>\r\n' "$who" "$who" "$MAIL_DOMAIN"
		printf 'To: ashes@%s\r\n' "$MAIL_DOMAIN"
		printf 'Subject: %s\r\n' "$subject"
		printf 'Date: %s\r\n' "$(date -R)"
		printf 'Message-ID: <bench.%s.%s@%s>\r\n' "$who" "$(date +%s%N)" "$MAIL_DOMAIN"
		printf 'MIME-Version: 1.0\r\n'
	} >"$f"
	e2e_pgpmime "$E2E_DIR/gnupg-$who" "$who" "$body" "$f"
}

# smtp_send_files FROM FILE...: hand the mails to Postfix over one SMTP
# connection (one python run, not one curl per mail).
smtp_send_files() {
	python3 -S - "$SMTP_PORT" "$1@$MAIL_DOMAIN" "ashes@$MAIL_DOMAIN" "${@:2}" <<'EOF'
import smtplib, sys
port, frm, to = int(sys.argv[1]), sys.argv[2], sys.argv[3]
s = smtplib.SMTP("127.0.0.1", port)
for f in sys.argv[4:]:
    s.sendmail(frm, [to], open(f, "rb").read())
s.quit()
EOF
}

# game_many N SIZE: alice challenges bob to N games and bob accepts them,
# 60 commands a mail (needs [limits] max_commands >= 60; the parser's cap
# is 64); sets G_FIRST and G_LAST, the game numbers (consecutive).
game_many() {
	local n=$1 size=$2 i k body acc f na first last
	G_FIRST= G_LAST=
	for ((k = 0; k < n; k += 60)); do
		body=
		for ((i = k; i < n && i < k + 60; i++)); do
			body+="challenge bob size=$size"$'\n'
		done
		na=$(mail_count alice)
		player_send alice pgpmime "challenges" "$body-- 
$(date +%s%N)"
		f=$(raw_wait alice "created" 120 "$na") || e2e_fail "no answer to the challenges"
		first=$(e2e_digest "$f" | sed -n 's/.*Game \([0-9][0-9]*\) created.*/\1/p' | head -n 1)
		last=$(e2e_digest "$f" | sed -n 's/.*Game \([0-9][0-9]*\) created.*/\1/p' | tail -n 1)
		[ -n "$first" ] && [ $((last - first)) = $((i - k - 1)) ] ||
			e2e_fail "challenges made games ${first:-none}..${last:-none}"
		G_FIRST=${G_FIRST:-$first}
		G_LAST=$last
		acc=
		for ((i = first; i <= last; i++)); do acc+="accept $i"$'\n'; done
		player_send bob pgpmime "accepts" "$acc"
		raw_wait alice "move $last 1 MOVE" 300 "$na" >/dev/null ||
			e2e_fail "bob's accepts were not answered"
	done
}

# ---- the club tests (test_ladder, test_tournament): the daemon's clock
# moved through its test hook (E2E_CLOCK_OFFSET), never by sleeping.
CLUB_OFFSET=0
club_db() { sqlite3 -cmd '.timeout 5000' "$E2E_DIR/ashes.db" "$@"; }
club_daemon_now() { echo $(($(date +%s) + CLUB_OFFSET)); }
club_set_offset() {
	CLUB_OFFSET=$1
	e2e_clock_set "$CLUB_OFFSET"
}
club_heartbeat() {
	club_db "select value from server_state where key = 'clock_heartbeat'"
}

# club_ask WHO TEXT: WHO mails the signed TEXT; prints the reply's file.
# The text below "-- " makes each one new (a signed text counts once,
# ever).
club_ask() {
	local who=$1 n f
	n=$(mail_count "$who")
	player_send "$who" pgpmime "club" "$2
-- 
$who $(date +%s%N)"
	f=$(raw_wait "$who" "$E2E_LAST_MSGID" 60 "$n") ||
		e2e_fail "$who's \"$2\" got no answer"
	echo "$f"
}

# club_wake_tick SINCE: a "games" of alice's ends ashesd's wait; then
# until the timer ran at daemon time SINCE or later (its heartbeat,
# written at most once a minute: SINCE a minute or more after its last
# run).
club_wake_tick() {
	local since=$1 h
	club_ask alice games >/dev/null
	for _ in $(seq 1 300); do
		h=$(club_heartbeat)
		[ -n "$h" ] && [ "$h" -ge "$since" ] && return 0
		sleep 0.1
	done
	e2e_fail "the timer did not run after alice's wake-up mail"
}
