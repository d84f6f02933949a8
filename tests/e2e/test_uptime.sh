#!/bin/bash
# tests/e2e/test_uptime.sh -- a day in the life of ashesd (issue [load]):
# one daemon, reading a real Dovecot in IMAP IDLE and sending through a
# real Postfix, lives 24 simulated hours (its clock moved by the test hook,
# ASHESD_TEST_CLOCK_OFFSET_FILE, a step of 15 minutes at a time) of mixed
# traffic: moves in several games, games with clocks whose players stop
# (reminders, flags falling), an observer's daily digest, commands, and
# bad mail (unsigned, a broken signature, junk bytes, no usable From).
# Every step its IMAP connection is cut (doveadm kick, or ss -K), every
# few steps Dovecot restarts; Postfix stops twice with replies waiting,
# and the config is reloaded (SIGHUP).  Counted after a warm-up and at
# the end, with the daemon idle: its open descriptors, threads and RSS,
# and the gpg processes of its GNUPGHOME.  It fails if descriptors,
# threads or gpg processes grew, if RSS grew by more than a fifth, if a
# mail was not answered exactly as the rules say (one answer; none for
# an unverified sender's second refusal of the day, or an address that
# is not a player's), if a reply went out twice, or if the daemon died.
# UPTIME_HOURS (default 24) shortens the day: `make check` runs 8 hours
# (two Fischer games, both lost on time; a reload and two Postfix
# outages; every leak check), `make soak` the whole day, whose day game
# and daily digest need all 24.  UPTIME_SEED (default 7) chooses the
# moves.
set -u
. "$(dirname "$0")/lib-game.sh"
game_require_stack
for t in doveadm ss sqlite3; do
	command -v "$t" >/dev/null 2>&1 || { echo "SKIP: no $t"; exit 77; }
done

HOURS=${UPTIME_HOURS:-24}
STEP=900 # simulated seconds a step
CONF="[game]
size = 3

[clock]
reminders = 12h, 1h
auto_vacation = no
outage_grace = 0

# the same two players start more games in a simulated day than a club
# lets one challenge the other
[limits]
challenges_per_day = 0"
E2E_CLOCK_OFFSET=0
# Only IDLE, a deadline or a cut connection wakes the daemon: the poll
# is longer than the whole test.
E2E_POLL_INTERVAL=10m
E2E_MORE_PLAYERS="carol dave"
T0=$(date +%s)
e2e_start "$CONF"
DPID=$E2E_DAEMON_PID
DGPG=$E2E_DIR/daemon-gnupg
offset=0
SENT=$E2E_DIR/sent.tsv # MESSAGE-ID SENDER ANSWERS KIND, one a mail
: >"$SENT"

db() { sqlite3 -cmd '.timeout 5000' "$E2E_DIR/ashes.db" "$@"; }
daemon_now() { echo $(($(date +%s) + offset)); }
advance() {
	offset=$((offset + $1))
	e2e_clock_set "$offset"
}
note() {
	local id=${1#<}
	printf '%s\t%s\t%s\t%s\n' "${id%>}" "$2" "$3" "$4" >>"$SENT"
}
nsent() { wc -l <"$SENT"; }
idv() { doveadm -c "$E2E_DIR/stack/dovecot/dovecot.conf" "$@"; }

# ---- the mails ----------------------------------------------------------

# cmd WHO TEXT: a signed command; one answer.  The line below "-- " (not
# read by the daemon) makes each signed text new.
cmd() {
	player_send "$1" pgpmime "$2" "$2
-- 
uptime $(date +%s%N)"
	note "$E2E_LAST_MSGID" "$1" 1 "cmd:$2"
}

# An unverified sender's refusal is answered once a day per address (the
# first starts a 24-hour window, src/server/intake.c), a bad signature by
# the key of the player registered at that address up to three times
# (INTAKE_PLAYER_TRIES; the refusals share one count).  REFUSED[ADDRESS]
# is when that window began, in daemon time, REFUSALS[ADDRESS] how many
# it counted.  refusal_answers WHO [ALLOWED]: sets ANSWERS (1 or 0).
declare -A REFUSED REFUSALS
refusal_answers() {
	local now start allowed=${2:-1}
	now=$(daemon_now)
	start=${REFUSED[$1]:-}
	if [ -z "$start" ] || [ $((now - start)) -ge 86400 ]; then
		REFUSED[$1]=$now
		REFUSALS[$1]=0
	fi
	REFUSALS[$1]=$((${REFUSALS[$1]} + 1))
	ANSWERS=0
	[ "${REFUSALS[$1]}" -le "$allowed" ] && ANSWERS=1
}
# Whether a refusal now would fall within minutes of WHO's window end,
# where the test cannot tell the daemon's second from its own.
refusal_unsure() {
	local start=${REFUSED[$1]:-} d
	[ -n "$start" ] || return 1
	d=$(($(daemon_now) - start - 86400))
	[ "$d" -gt -300 ] && [ "$d" -lt 300 ]
}

smtp_file() {
	curl -s --url "smtp://127.0.0.1:$SMTP_PORT" --mail-from "$2@$MAIL_DOMAIN" \
		--mail-rcpt "ashes@$MAIL_DOMAIN" --upload-file "$1" ||
		e2e_fail "SMTP refused a mail of $2"
}
file_id() { sed -n 's/^Message-ID: <\(.*\)>\r$/\1/p' "$1" | head -n 1; }

# bad KIND WHO: a mail the daemon must refuse.  unsigned, badsig (WHO's
# signature over other bytes than sent), junk (random bytes, no MIME
# sense): answered as a refusal; nofrom (a From nobody can answer) and
# WHO=mallory (no player's address of our own domain): never answered.
BADN=0
bad() {
	local kind=$1 who=$2 f=$E2E_DIR/bad.eml id
	BADN=$((BADN + 1))
	case $kind in
	unsigned)
		player_send "$who" unsigned "games" "games"
		id=${E2E_LAST_MSGID#<}
		;;
	badsig)
		mail_build "$who" "games" "games
-- 
bad $BADN $(date +%s%N)" "$f"
		sed -i 's/^games\r$/gamez\r/' "$f"
		grep -q '^gamez' "$f" || e2e_fail "the bad signature was not made"
		id=$(file_id "$f")
		smtp_file "$f" "$who"
		;;
	junk | nofrom)
		id="junk.$BADN.$(date +%s%N)@$MAIL_DOMAIN"
		{
			if [ "$kind" = junk ]; then
				printf 'From: %s <%s@%s>\r\n' "$who" "$who" "$MAIL_DOMAIN"
			else
				printf 'From: <<< nobody >>>\r\n'
			fi
			printf 'To: ashes@%s\r\nSubject: %s\r\n' "$MAIL_DOMAIN" \
				"$(head -c 30 /dev/urandom | base64 | tr -d '/+=')"
			printf 'Message-ID: <%s>\r\nDate: %s\r\n' "$id" "$(date -R)"
			printf 'Content-Type: multipart/signed; boundary="x"\r\n\r\n'
			head -c 3000 /dev/urandom | tr -d '\000\r' | fold -b -w 70 |
				sed 's/$/\r/'
		} >"$f"
		smtp_file "$f" "$who"
		;;
	esac
	ANSWERS=0
	if [ "$kind" = nofrom ] || [ "$who" = mallory ]; then
		:
	elif [ "$kind" = badsig ]; then
		refusal_answers "$who" 3	# the player's own key, broken
	else
		refusal_answers "$who"
	fi
	note "${id%>}" "$who" "$ANSWERS" "bad:$kind"
}

# ---- games --------------------------------------------------------------
# GW/GB/GS[GAME]: white, black, size; GH[GAME]: the moves so far; GSTOP:
# the ply at which the game's player to move stops answering (clock games).
declare -A GW GB GS GH GSTOP

# new_game WHITE BLACK SIZE [OPTS] [STOP]: a challenge and its accept;
# the game's number in NEWGAME once WHITE was told it was created.
new_game() {
	local w=$1 b=$2 size=$3 opts=${4:+ $4} f nw nb g
	nw=$(mail_count "$w")
	nb=$(mail_count "$b")
	player_send "$w" pgpmime "challenge" "challenge $b size=$size$opts
-- 
$w, $(date +%s%N)"
	note "$E2E_LAST_MSGID" "$w" 1 challenge
	f=$(raw_wait "$w" "$E2E_LAST_MSGID" 60 "$nw") ||
		e2e_fail "no answer to $w's challenge"
	g=$(e2e_game_of "$f")
	[ -n "$g" ] || e2e_fail "no game number in the challenge reply"
	wait_mail "$b" "challenges you to game $g" 60 "$nb" >/dev/null ||
		e2e_fail "$b got no challenge to game $g"
	player_send "$b" pgpmime "Re: [ashes #$g]" "accept $g"
	note "$E2E_LAST_MSGID" "$b" 1 accept
	GW[$g]=$w GB[$g]=$b GS[$g]=$size GH[$g]="" GSTOP[$g]=${5:-0}
	NEWGAME=$g
}

# game_turn GAME: the player to move answers their "your move" mail with a
# legal move.  Returns 1 when the game is over (or stopped by design).
game_turn() {
	local g=$1 st res turn who ply pick f
	local -a hist moves
	read -r -a hist <<<"${GH[$g]}"
	st=$(e2e_ashes status --size "${GS[$g]}" "${hist[@]}")
	res=$(printf '%s\n' "$st" | sed -n 's/^result: //p')
	turn=$(printf '%s\n' "$st" | sed -n 's/^turn: //p')
	[ "$res" = ongoing ] || return 1
	ply=$((${#hist[@]} + 1))
	[ "${GSTOP[$g]}" = "$ply" ] && return 1
	if [ "$turn" = white ]; then who=${GW[$g]}; else who=${GB[$g]}; fi
	f=$(raw_wait "$who" "move $g $ply MOVE" 60) ||
		e2e_fail "$who got no 'your move' mail for ply $ply of game $g"
	mapfile -t moves < <(e2e_ashes legal --size "${GS[$g]}" "${hist[@]}")
	[ "${#moves[@]}" -gt 0 ] || e2e_fail "no legal move at ply $ply of game $g"
	pick=${moves[$((RANDOM % ${#moves[@]}))]}
	player_send "$who" pgpmime "Re: [ashes #$g]" "move $g $ply $pick"
	note "$E2E_LAST_MSGID" "$who" 1 move
	GH[$g]="${GH[$g]} $pick"
	return 0
}

# ---- the connection cut, the servers restarted --------------------------
# Mails in Postfix's queue, not yet delivered.
postfix_queued() {
	find "$MAILSTACK_DIR"/postfix-queue/{incoming,active,deferred} \
		-type f 2>/dev/null | wc -l
}
# Deliver what Postfix deferred while Dovecot's LMTP was down, now (as
# test_inbound_imap.sh: forget dead hosts, ignore retry times, scan).
flush_postfix() {
	python3 -S - "$MAILSTACK_DIR/postfix-queue/public/qmgr" <<'PY'
import socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.connect(sys.argv[1])
s.sendall(b"FADI")
s.close()
PY
}
# imap_cut kick|ss|restart.  Before Dovecot restarts (its LMTP with it)
# the daemon has handled the step's mail and Postfix delivered its
# replies: a mail deferred by Postfix would wait minutes.
imap_cut() {
	case $1 in
	kick) idv kick ashes >/dev/null 2>&1 || true ;;
	ss) ss -K dst 127.0.0.1 dport = ":$IMAP_PORT" >/dev/null 2>&1 || true ;;
	restart)
		quiet "$(nsent)"
		bash "$MAILSTACK" restart-imap "$E2E_DIR/stack" >/dev/null 2>&1 ||
			e2e_fail "Dovecot did not restart"
		flush_postfix
		;;
	esac
}

# retried_after LINE: whether a send failed twice, a first try and a
# retry, in the daemon's log past its line LINE.
retried_after() {
	tail -n +"$(($1 + 1))" "$E2E_DIR/ashesd.log" |
		awk '/outbox [0-9]+: temporary failure for / {
			for (i = 1; i < NF; i++) if ($i == "outbox") n[$(i + 1)]++ }
			END { for (k in n) if (n[k] >= 2) exit 0; exit 1 }'
}
# smtp_outage: Postfix down while two signed commands arrive by the
# mailbox (saved by doveadm, as a local delivery would); the daemon
# answers them, cannot send, retries; Postfix up again.
smtp_outage() {
	local f=$E2E_DIR/outage.eml who line
	quiet "$(nsent)"
	line=$(wc -l <"$E2E_DIR/ashesd.log")
	smtp_down
	for who in alice bob; do
		mail_build "$who" "games" "games
-- 
outage $(date +%s%N)" "$f"
		note "$(file_id "$f")" "$who" 1 "cmd:games (Postfix down)"
		idv save -u ashes -m INBOX <"$f" || e2e_fail "doveadm save failed"
	done
	for _ in $(seq 1 100); do
		[ -n "$(outbox_unsent)" ] && break
		sleep 0.1
	done
	# a retry fails (the backoff begins at 1s; at most 5 seconds)
	t_wait 5 retried_after "$line" ||
		echo "# Postfix down 5s, and no reply's retry failed"
	smtp_up
}

# ---- the daemon counted -------------------------------------------------
# quiet: every mail sent so far recorded, nothing left to send, the log
# still for a second.
quiet() {
	local want=$1 i n l0 l1
	for i in $(seq 1 600); do
		n=$(($(db "select count(*) from inbound") - REGS))
		[ "$n" -ge "$want" ] && [ -z "$(outbox_unsent)" ] &&
			[ "$(postfix_queued)" = 0 ] && break
		sleep 0.1
	done
	[ "$i" -lt 600 ] || e2e_fail "the daemon did not get through its mail ($n of $want)"
	for i in $(seq 1 30); do
		l0=$(wc -c <"$E2E_DIR/ashesd.log")
		sleep 1
		l1=$(wc -c <"$E2E_DIR/ashesd.log")
		[ "$l0" = "$l1" ] && return 0
	done
}
# The smallest of five looks (a verification or a send in flight opens
# descriptors for a moment).
fds() {
	local m=100000 n
	for _ in 1 2 3 4 5; do
		n=$(ls "/proc/$DPID/fd" | wc -l)
		[ "$n" -lt "$m" ] && m=$n
		sleep 0.2
	done
	echo "$m"
}
rss_kb() { awk '/^VmRSS:/ { print $2 }' "/proc/$DPID/status"; }
threads() { awk '/^Threads:/ { print $2 }' "/proc/$DPID/status"; }
gpg_procs() { pgrep -c -f "(gpg|gpg-agent|keyboxd|dirmngr|scdaemon) .*$DGPG" || true; }
zombies() { ps --ppid "$DPID" -o stat= | grep -c '^Z' || true; }
fd_list() {
	local f
	for f in /proc/"$DPID"/fd/*; do
		readlink "$f" | sed 's/:\[[0-9]*\]$//'
	done | sort | uniq -c
}

# ---- warm-up: everything once -------------------------------------------
for who in alice bob carol dave; do
	e2e_register "$who" pgpmime >/dev/null
done
REGS=$(db "select count(*) from inbound")
RANDOM=${UPTIME_SEED:-7}
# untimed games, one a pair, a new one when one ends
PAIRS=("alice bob" "carol dave" "bob carol")
declare -A PAIRGAME
for p in 0 1 2; do
	read -r w b <<<"${PAIRS[$p]}"
	new_game "$w" "$b" 3
	PAIRGAME[$p]=$NEWGAME
done
# carol follows the alice-bob games in a daily digest
cmd carol "set digest on"
cmd carol "observe ${PAIRGAME[0]}"
# a day's clock: dave stops at ply 4, at the start of the day: reminded
# 12 hours on, and 1 hour before his flag falls at the end of the day
new_game alice dave 4 clock=days:1 4
DAYGAME=$NEWGAME
for _ in 1 2 3; do game_turn "$DAYGAME"; done
CLOCKGAMES=("$DAYGAME")
for who in alice bob; do bad unsigned "$who"; bad badsig "$who"; done
bad junk carol
bad nofrom dave
bad unsigned mallory
cmd dave "help"
imap_cut kick
imap_cut ss
imap_cut restart
smtp_outage
e2e_reload "$CONF"
quiet "$(nsent)"
BASE_FD=$(fds) BASE_RSS=$(rss_kb) BASE_GPG=$(gpg_procs) BASE_THR=$(threads)
echo "# after the warm-up ($(nsent) mails, $(($(date +%s) - T0)) s):" \
	"$BASE_FD descriptors, RSS $BASE_RSS kB, $BASE_THR threads," \
	"$BASE_GPG gpg processes"
fd_list | sed 's/^/#   /'

# ---- the day --------------------------------------------------------------
steps=$((HOURS * 3600 / STEP))
FISCHER_BLACK=(bob carol dave alice)
cuts=(kick ss kick ss kick ss kick restart)
BAD_KINDS=(unsigned badsig junk nofrom unsigned)
nfischer=0 reloads=0 outages=0 restarts=1
for s in $(seq 1 "$steps"); do
	advance "$STEP"
	# the untimed games, in turn (two one step, one the next): a move
	# each, a new game when one ended
	for p in 0 1 2; do
		[ $(((s + p) % 2)) = 0 ] || continue
		if ! game_turn "${PAIRGAME[$p]}"; then
			read -r w b <<<"${PAIRS[$p]}"
			new_game "$w" "$b" 3
			PAIRGAME[$p]=$NEWGAME
			[ "$p" = 0 ] && cmd carol "observe $NEWGAME"
		fi
	done
	# a Fischer game every 5 hours whose black stops at ply 4: reminded
	# at 1 hour left, lost on time at 3 (2 hours, 1 added at ply 2)
	if [ $((s % 20)) = 2 ]; then
		b=${FISCHER_BLACK[$((nfischer % 4))]}
		w=${FISCHER_BLACK[$(((nfischer + 1) % 4))]}
		new_game "$w" "$b" 4 clock=fischer:2h+1h/3h 4
		for _ in 1 2 3; do game_turn "$NEWGAME"; done
		CLOCKGAMES+=("$NEWGAME")
		nfischer=$((nfischer + 1))
	fi
	# a command every third step, a bad mail every third
	if [ $((s % 3)) = 1 ]; then
		who=${FISCHER_BLACK[$((s / 3 % 4))]}
		case $((s / 3 % 5)) in
		0) cmd "$who" "help" ;;
		1) cmd "$who" "games" ;;
		2) cmd "$who" "settings" ;;
		3) cmd "$who" "board ${PAIRGAME[0]}" ;;
		4) cmd "$who" "help move" ;;
		esac
	fi
	if [ $((s % 3)) = 0 ]; then
		k=$((s / 3))
		who=${FISCHER_BLACK[$((k % 4))]}
		kind=${BAD_KINDS[$((k % 5))]}
		[ $((k % 7)) = 3 ] && who=mallory
		refusal_unsure "$who" || bad "$kind" "$who"
	fi
	# the connection cut every step; Postfix down, a reload, mid-day
	c=${cuts[$((s % 8))]}
	imap_cut "$c"
	[ "$c" = restart ] && restarts=$((restarts + 1))
	if [ "$s" = $((steps / 3)) ] || [ "$s" = $((2 * steps / 3)) ]; then
		smtp_outage
		outages=$((outages + 1))
	fi
	if [ "$s" = $((steps / 2)) ]; then
		e2e_reload "$CONF"
		reloads=$((reloads + 1))
	fi
done
# past the day game's deadline and the last Fischer game's, with a wake-up
advance 3600
imap_cut kick
advance 3600
cmd alice "games"
quiet "$(nsent)"
END_FD=$(fds) END_RSS=$(rss_kb) END_GPG=$(gpg_procs) END_THR=$(threads)
END_ZOMBIES=$(zombies)
echo "# after $((offset / 3600)) simulated hours ($(nsent) mails, $steps steps," \
	"$restarts Dovecot restarts, $outages Postfix outages, $reloads reload;" \
	"$(($(date +%s) - T0)) s):" \
	"$END_FD descriptors, RSS $END_RSS kB, $END_THR threads," \
	"$END_GPG gpg processes, $END_ZOMBIES zombies"

# ---- the checks -----------------------------------------------------------
t_ok_if "ashesd is still running, the same process" kill -0 "$DPID"
t_ok_if "descriptors did not grow ($BASE_FD -> $END_FD)" \
	test "$END_FD" -le "$BASE_FD"
if [ "$END_FD" -gt "$BASE_FD" ]; then
	echo "# descriptors at the end:"
	fd_list | sed 's/^/#   /'
fi
t_ok_if "threads did not grow ($BASE_THR -> $END_THR)" \
	test "$END_THR" -le "$BASE_THR"
# RSS: after the warm-up every code path has run once; what may still
# grow is SQLite's page cache (2 MB at most) and malloc's arenas: a fifth
# allows for that on a ~10 MB process, while a leak of a mail's bytes or a
# GPGME context per mail (~250 mails) would pass it.  An ASan build keeps
# freed memory in quarantine: there RSS is shown, not judged.
if grep -q __asan_init "$E2E_BUILD/ashesd" 2>/dev/null; then
	echo "# sanitizer build: RSS $BASE_RSS -> $END_RSS kB, not judged"
else
	t_ok_if "RSS grew less than 20% ($BASE_RSS -> $END_RSS kB)" \
		test $((END_RSS * 100)) -le $((BASE_RSS * 120))
fi
t_ok_if "gpg processes of the daemon's GNUPGHOME did not pile up ($BASE_GPG -> $END_GPG)" \
	test "$END_GPG" -le "$BASE_GPG"
t_ok_if "no zombie children" test "$END_ZOMBIES" = 0

# every mail recorded once, and answered as the rules say
db "select message_id from inbound where message_id is not null" |
	sort >"$E2E_DIR/recorded"
for who in alice bob carol dave mallory; do
	e2e_mails "$who" | xargs -r grep -h -i '^In-Reply-To:' |
		sed 's/^[^<]*<\(.*\)>.*/\1/' | tr -d '\r'
done | sort | uniq -c | awk '{ print $2 "\t" $1 }' >"$E2E_DIR/answered"
bad_lines=$(awk -F'\t' '
	FILENAME ~ /recorded$/ { rec[$1] = 1; next }
	FILENAME ~ /answered$/ { ans[$1] = $2; next }
	{
		got = ($1 in ans) ? ans[$1] : 0
		if (!($1 in rec)) print "not recorded: " $0
		else if (got != $3) print "answered " got " times: " $0
	}' "$E2E_DIR/recorded" "$E2E_DIR/answered" "$SENT")
total=$(nsent)
t_ok_if "all $total mails recorded, each answered as the rules say" \
	test -z "$bad_lines"
[ -n "$bad_lines" ] && printf '%s\n' "$bad_lines" | head -n 20 | sed 's/^/#   /'
echo "# kinds: $(cut -f4 "$SENT" | sed 's/:.*//' | sort | uniq -c | tr -s ' \n' ' ')"
echo "# unanswered by rule: $(awk -F'\t' '$3 == 0' "$SENT" | wc -l)"
dups=$(for who in alice bob carol dave; do dup_ids "$who"; done)
t_ok_if "no mail of the daemon delivered twice" test -z "$dups"
t_ok_if "mallory (no player) got no mail" test "$(mail_count mallory)" = 0
t_ok_if "nothing left unsent in the outbox" test -z "$(outbox_unsent)"

# the clocks ran: reminders, flags, the digest
nrem=$(db "select count(*) from outbox where kind = 'reminder'")
ndig=$(db "select count(*) from outbox where kind = 'digest'")
timed=$(db "select count(*) from games where end_reason = 'time' and
	id in ($(IFS=,; echo "${CLOCKGAMES[*]}"))")
echo "# ${#CLOCKGAMES[@]} clock games, $timed lost on time; $nrem reminders; $ndig digests"
# dave's day game runs out at the end of the day; in a shorter one every
# Fischer game still does (the last starts 3 hours before the end)
want=${#CLOCKGAMES[@]}
[ "$HOURS" -ge 24 ] || want=$((want - 1))
t_ok_if "every clock game whose player stopped was lost on time" \
	test "$timed" = "$want"
t_ok_if "reminders were sent (dave's day game, the Fischer games)" \
	test "$nrem" -ge 2
if [ "$HOURS" -ge 24 ]; then
	t_ok_if "carol got her daily digest" test "$ndig" -ge 1
fi
ncut=$(grep -c 'reachable again' "$E2E_DIR/ashesd.log")
echo "# the daemon logged 'reachable again' $ncut times"
e2e_end
