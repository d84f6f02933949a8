#!/bin/bash
# tests/e2e/test_hostile_amplify.sh -- what one sender can make the daemon
# send and compute (issue 22, cases 6-8), through the real ashesd between
# a real Dovecot and Postfix, one stack and one daemon for all of it.
# The daemon's SMTP goes through a proxy on loopback that can be made
# slow (a bandwidth per connection), as a remote relay on a thin line is.
#   6a. one mail with 20 x "archive G" for a game of large mails sends one
#       archive (mails and bytes counted in the maildir and in Postfix's
#       log); the 19 others are refused ("already sent today at HH:MM");
#   6b. a second "archive G" the same day is refused the same way;
#   6c. on the slow SMTP, a move's reply is delivered while another
#       player's multi-MB archive is still on its way (the delay measured);
#    8. 20 x "challenge dave" in one mail sends dave one mail;
#    7. bot games per player capped, one hint a ply and so many an hour
#       (the bot's searches counted in its log, its CPU seconds measured),
#       and an idle bot game ends by its clock (the clock test hook);
#   6d. the hourly mail budget: past it one notice, then nothing.
# Figures are printed as "# figure:" lines.
set -u
E2E_MORE_PLAYERS="carol dave"
E2E_CLOCK_OFFSET=0
. "${ASHES_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/e2e/lib-hostile.sh"

# The settings every start and reload of this test shares; $1 more.
conf() {
	printf '%s\n' "[game]
size = 3

[clock]
outage_grace = 0

[limits]
max_message_size = 4M
sender_rate_limit = 200
hints_per_hour = 1
${1:-}

[bot]
enabled = yes
levels = 1-2
think_time = 300ms
delay = 0
clock = days:1
max_games_per_player = 2"
}

in_start "[game]
size = 3"
cd "$E2E_DIR" || exit 1

# ---- the daemon's key, and its SMTP through the slow proxy --------------
e2e_daemon_key
# The proxy relays each connection to Postfix; from the client to Postfix
# at most $(cat smtp-rate) bytes a second once that file says so (0 or
# none: at full speed).  It logs each connection's bytes so far.
SLOW_UP=$SMTP_PORT SLOW_DIR=$E2E_DIR python3 -c '
import os, socket, threading, time
up = int(os.environ["SLOW_UP"]); d = os.environ["SLOW_DIR"]
def rate():
	try:
		return int(open(d + "/smtp-rate").read().strip() or 0)
	except (OSError, ValueError):
		return 0
def pump(a, b, slow, n):
	total = 0
	try:
		while True:
			r = rate() if slow else 0
			data = a.recv(16384 if r == 0 else min(16384, max(1024, r // 8)))
			if not data:
				break
			b.sendall(data)
			total += len(data)
			if slow:
				open("%s/smtp-conn.%d" % (d, n), "w").write("%d\n" % total)
				if r > 0:
					time.sleep(len(data) / r)
	except OSError:
		pass
	for s in (a, b):
		try:
			s.shutdown(socket.SHUT_RDWR)
		except OSError:
			pass
ls = socket.socket(); ls.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
ls.bind(("127.0.0.1", 0)); ls.listen(16)
open(d + "/smtp-proxy.port.tmp", "w").write("%d\n" % ls.getsockname()[1])
os.rename(d + "/smtp-proxy.port.tmp", d + "/smtp-proxy.port")
n = 0
while True:
	c, _ = ls.accept()
	n += 1
	u = socket.create_connection(("127.0.0.1", up))
	threading.Thread(target=pump, args=(c, u, True, n), daemon=True).start()
	threading.Thread(target=pump, args=(u, c, False, n), daemon=True).start()
' </dev/null >"$E2E_DIR/smtp-proxy.log" 2>&1 &
E2E_PIDS+=("$!")
for _ in $(seq 1 100); do [ -s smtp-proxy.port ] && break; sleep 0.05; done
proxy=$(cat smtp-proxy.port 2>/dev/null) || e2e_fail "the SMTP proxy did not start"
e2e_stop_daemon
real_smtp=$SMTP_PORT
SMTP_PORT=$proxy e2e_write_config "$(conf)"
SMTP_PORT=$real_smtp
mv "$E2E_DIR/ashesd.log" "$E2E_DIR/ashesd.log.1"
e2e_start_daemon
for _ in $(seq 1 100); do
	grep -q "bot: Ashes bot plays as key" "$E2E_DIR/ashesd.log" && break
	sleep 0.1
done
grep -q "bot: Ashes bot plays as key" "$E2E_DIR/ashesd.log" ||
	e2e_fail "the bot did not start"

h_players alice bob carol dave

# What Postfix took in from the daemon since line $1 of its log: "MAILS
# BYTES" (qmgr's from=<ashes@...>, size=N, one line per mail).
pf_line() { wc -l <"$E2E_DIR/stack/postfix/maillog"; }
pf_sent() {
	tail -n +"$(($1 + 1))" "$E2E_DIR/stack/postfix/maillog" |
		grep -F "from=<ashes@$MAIL_DOMAIN>, size=" |
		sed 's/.*, size=\([0-9]*\),.*/\1/' |
		awk '{ n++; b += $1 } END { printf "%d %d\n", n, b }'
}
# mail_bytes WHO SKIP: the bytes of WHO's mails after the first SKIP.
mail_bytes() {
	e2e_mails "$1" | tail -n +$(($2 + 1)) | xargs -r stat -c %s |
		awk '{ b += $1 } END { print b + 0 }'
}
# archives_to WHO SKIP: WHO's mails after the first SKIP carrying a
# game's archive.
archives_to() {
	e2e_mails "$1" | tail -n +$(($2 + 1)) |
		xargs -r grep -l 'filename="game-[0-9]*\.tar\.gz"' 2>/dev/null | wc -l
}
now_ms() { date +%s%3N; }
# pad N: N bytes of base64 lines, incompressible: what a large mail's
# text would be, below the "-- " line where no command is read.
pad() { head -c $(($1 * 3 / 4)) /dev/urandom | base64 -w 76; }

# ---- a game of large mails: 4 mails of 800 KB ------------------------------
na=$(mail_count alice)
nb=$(mail_count bob)
player_send alice pgpmime challenge "challenge bob size=3
-- 
$(pad 800000)"
f=$(wait_mail alice "Game [0-9]+ created" 60 "$na") || e2e_fail "no answer to the challenge"
G=$(e2e_game_of "$f")
wait_mail bob "challenges you to game $G" 30 "$nb" >/dev/null || e2e_fail "bob got no challenge"
player_send bob pgpmime "Re: [ashes #$G]" "accept $G
-- 
$(pad 800000)"
raw_wait alice "move $G 1 MOVE" 60 >/dev/null || e2e_fail "alice got no first your-move"
mapfile -t hist < <(e2e_ashes legal --size 3 | head -n 1)
player_send alice pgpmime "Re: [ashes #$G]" "move $G 1 ${hist[0]}
-- 
$(pad 800000)"
raw_wait bob "move $G 2 MOVE" 60 >/dev/null || e2e_fail "bob got no your-move"
hist+=("$(e2e_ashes legal --size 3 "${hist[@]}" | head -n 1)")
player_send bob pgpmime "Re: [ashes #$G]" "move $G 2 ${hist[1]}
-- 
$(pad 800000)"
raw_wait alice "move $G 3 MOVE" 60 >/dev/null || e2e_fail "alice got no your-move for ply 3"
t_is "game $G of large mails at ply 3" 2 "$(h_ply "$G")"
in_wait_sent 60 || e2e_fail "the outbox did not empty"

# ---- 6a. 20 x archive G in one mail: one archive ---------------------------
na=$(mail_count alice)
p0=$(pf_line)
lines=$(for _ in $(seq 1 20); do echo "archive $G"; done)
in_entity_text "$lines" >ent
in_mail arch20.eml alice pgpmime ent
id20=$IN_MSGID
in_send alice arch20.eml
h_is_outcome "20 x archive $G: the first taken, the second refused" \
	"refused: line 2: archive_sent_today" "$id20"
in_wait_sent 120 || t_fail "20 x archive: the outbox emptied"
for _ in $(seq 1 300); do [ "$(archives_to alice "$na")" -ge 1 ] && break; sleep 0.1; done
sleep 3	# anything more would be on its way by now
read -r pf_n pf_b < <(pf_sent "$p0")
arch_n=$(archives_to alice "$na")
t_is "20 x archive $G: one archive mail delivered" 1 "$arch_n"
t_is "20 x archive $G: two mails in all (the archive, the reply)" 2 \
	"$(( $(mail_count alice) - na ))"
t_is "20 x archive $G: Postfix took two mails from the daemon" 2 "$pf_n"
abytes=$(mail_bytes alice "$na")
echo "# figure: 20 x archive $G (a 747-byte mail in the report; here $(stat -c %s arch20.eml) bytes): $pf_n mails, $pf_b bytes into Postfix, $abytes bytes in alice's maildir (before the fix: 20 archives, 21 mails)"
[ "$pf_b" -gt 2000000 ] && [ "$pf_b" -lt 15000000 ] &&
	t_ok "20 x archive $G: one archive's bytes (${pf_b}), not twenty" ||
	t_fail "20 x archive $G: one archive's bytes" "Postfix took $pf_b bytes"
in_reply alice "already sent today at [0-9][0-9]:[0-9][0-9] UTC" "$na" 5 &&
	t_ok "20 x archive: the reply says when it was sent"

# ---- 6b. the same day again: refused ---------------------------------------
na=$(mail_count alice)
in_entity_text "archive $G" >ent
in_mail arch1.eml alice pgpmime ent
in_send alice arch1.eml
h_is_outcome "archive $G again the same day: refused" \
	"refused: line 1: archive_sent_today" "$IN_MSGID"
in_reply alice "already sent today at" "$na" 30 &&
	t_ok "archive again: answered briefly"
sleep 2
t_is "archive again: no second archive" 0 "$(archives_to alice "$na")"

# ---- 6c. a move's reply while bob's archive crawls over a slow SMTP --------
echo 400000 >"$E2E_DIR/smtp-rate"
nb=$(mail_count bob)
na=$(mail_count alice)
# each connection's bytes so far (the lanes keep theirs open)
declare -A base=()
for c in "$E2E_DIR"/smtp-conn.*; do
	[ -f "$c" ] && base[$c]=$(cat "$c" 2>/dev/null || echo 0)
done
in_entity_text "archive $G" >ent
in_mail archbob.eml bob pgpmime ent
t_arch=$(now_ms)
in_send bob archbob.eml
h_is_outcome "bob's archive $G: taken" "ok: 1 command" "$IN_MSGID"
# until the archive is under way: a connection with over 1 MB sent so far
inflight=
for _ in $(seq 1 600); do
	for c in "$E2E_DIR"/smtp-conn.*; do
		[ -f "$c" ] || continue
		[ $(( $(cat "$c" 2>/dev/null || echo 0) - ${base[$c]:-0} )) -gt 1000000 ] &&
			inflight=$c && break
	done
	[ -n "$inflight" ] && break
	sleep 0.1
done
[ -n "$inflight" ] || e2e_fail "bob's archive never got under way"
pick=$(e2e_ashes legal --size 3 "${hist[@]}" | head -n 1)
in_entity_text "move $G 3 $pick" >ent
in_mail move3.eml alice pgpmime ent
t_move=$(now_ms)
in_send alice move3.eml
if in_reply alice "Taken: move $G 3 $pick" "$na" 60; then
	t_reply=$(now_ms)
	sent_then=$(( $(cat "$inflight") - ${base[$inflight]:-0} ))
	reply_s=$(( (t_reply - t_move) ))
	echo "# figure: alice's move answered in ${reply_s} ms while bob's archive was on its way ($sent_then bytes of it sent by then)"
	[ "$reply_s" -lt 20000 ] && t_ok "the move's reply came within 20 s (${reply_s} ms)" ||
		t_fail "the move's reply came within 20 s" "${reply_s} ms"
fi
if f=$(wait_mail bob "archive you asked for" 300 "$nb"); then
	t_done_arch=$(now_ms)
	echo "# figure: bob's archive ($(stat -c %s "$f") bytes) took $(( t_done_arch - t_arch )) ms to arrive at 400 KB/s; the reply came $(( t_done_arch - t_reply )) ms before it (with one lane it would have waited behind it that long)"
	[ "$t_done_arch" -gt "$t_reply" ] &&
		t_ok "the reply overtook the archive queued before it" ||
		t_fail "the reply overtook the archive queued before it"
else
	t_fail "bob's archive arrived"
fi
echo 0 >"$E2E_DIR/smtp-rate"

# ---- 8. 20 x challenge dave: one mail to dave --------------------------------
nd=$(mail_count dave)
p0=$(pf_line)
lines=$(for _ in $(seq 1 20); do echo "challenge dave size=3"; done)
in_entity_text "$lines" >ent
in_mail ch20.eml alice pgpmime ent
in_send alice ch20.eml
h_is_outcome "20 x challenge dave: one challenge, the second refused naming it" \
	"refused: line 2: challenge_open" "$IN_MSGID"
in_wait_sent 30
sleep 2
t_is "20 x challenge dave: dave got one mail" 1 "$(( $(mail_count dave) - nd ))"
read -r pf_n pf_b < <(pf_sent "$p0")
echo "# figure: 20 x challenge dave: $(( $(mail_count dave) - nd )) mail to dave, $pf_n mails from the daemon in all (before the fix: 20)"
in_reply alice "you and dave have an open challenge already" 0 10 &&
	t_ok "20 x challenge: the refusal names the open one"

# ---- 7. bot games per player, hints -----------------------------------------
nc=$(mail_count carol)
in_entity_text "challenge bot level=1 size=3
challenge bot level=1 size=3
challenge bot level=1 size=3" >ent
in_mail bot3.eml carol pgpmime ent
in_send carol bot3.eml
h_is_outcome "3 x challenge bot: the third refused (max_games_per_player = 2)" \
	"refused: line 3: bot_games_per_player" "$IN_MSGID"
mapfile -t bg < <(in_admin games --all | grep 'Ashes bot' | awk '{ print $1 }')
t_is "carol has two bot games" 2 "${#bg[@]}"
t_has "a bot game has the bot's clock though the challenge named none" \
	"days:1 vacation=no" "$(e2e_ashes game show "${bg[0]}" --db "$E2E_DIR/ashes.db")"
pid=$E2E_DAEMON_PID
cpu() { awk '{ print $14 + $15 }' "/proc/$pid/stat"; }
hz=$(getconf CLK_TCK)
c0=$(cpu)
h0=$(grep -c 'hint answered' "$E2E_DIR/ashesd.log" || true)
in_entity_text "hint ${bg[0]}
hint ${bg[0]}
hint ${bg[0]}
hint ${bg[0]}
hint ${bg[0]}" >ent
in_mail hint5.eml carol pgpmime ent
in_send carol hint5.eml
h_is_outcome "5 x hint in one game: the second refused (one a ply)" \
	"refused: line 2: hint_once_a_ply" "$IN_MSGID"
in_entity_text "hint ${bg[1]}" >ent
in_mail hint6.eml carol pgpmime ent
in_send carol hint6.eml
h_is_outcome "a hint in the other bot game within the hour: refused (hints_per_hour = 1)" \
	"refused: line 1: hint_limit" "$IN_MSGID"
in_reply carol "best moves for you at ply 1 of game ${bg[0]}" "$nc" 60 &&
	t_ok "the one hint was answered"
sleep 2
h1=$(grep -c 'hint answered' "$E2E_DIR/ashesd.log" || true)
c1=$(cpu)
t_is "hints: the bot searched once for six asked" 1 "$((h1 - h0))"
echo "# figure: 6 hints asked in 2 mails: $((h1 - h0)) search(es), $(( (c1 - c0) * 1000 / hz )) ms of the daemon's CPU (think_time 300ms; before the fix: a search for every bot game hinted at)"

# ---- 6d. the hourly mail budget ------------------------------------------------
# dave has had two mails (welcome, confirmed): the challenge alice made is
# hers.  With mails_per_hour = 4, his first two mails are answered, the
# third gets the one notice, the rest nothing.
e2e_reload "$(conf "mails_per_hour = 4")"
nd=$(mail_count dave)
p0=$(pf_line)
ids=()
for i in 1 2 3 4 5 6; do
	in_entity_text "games
-- 
dave $i" >ent
	in_mail "dave$i.eml" dave pgpmime ent
	in_send dave "dave$i.eml"
	ids+=("$IN_MSGID")
	h_wait_outcome "$IN_MSGID" 30 >/dev/null
done
outs=$(for id in "${ids[@]}"; do h_outcome "$id"; done)
printf '%s\n' "$outs" | sed 's/^/# dave: /'
t_is "budget: 2 answered, 1 notice, 3 ignored" "2 1 3" \
	"$(printf '%s\n' "$outs" | grep -c '^ok') $(printf '%s\n' "$outs" | grep -c '^refused: send_budget') $(printf '%s\n' "$outs" | grep -c '^ignored: send budget spent')"
in_wait_sent 30
sleep 2
t_is "budget: dave got 3 mails for 6" 3 "$(( $(mail_count dave) - nd ))"
in_reply dave "until [0-9][0-9]:[0-9][0-9] UTC; this is the only notice" "$nd" 5 &&
	t_ok "budget: the notice says when it resets"
read -r pf_n pf_b < <(pf_sent "$p0")
echo "# figure: dave's 6 mails over the budget: $pf_n mails, $pf_b bytes sent"
grep -q "send_budget\|send budget spent" "$E2E_DIR/ashesd.log" &&
	t_ok "budget: the log says so" || t_fail "budget: the log says so"

# ---- 7c. the idle bot game ends by its clock -------------------------------------
e2e_reload "$(conf)"
nc=$(mail_count carol)
e2e_clock_set $((25 * 3600))
# a mail to wake the daemon (it then runs the clocks' timer)
in_entity_text "games
-- 
wake $(date +%s%N)" >ent
in_mail wake.eml bob pgpmime ent
in_send bob wake.eml
if f=$(wait_mail carol "no first move in time" 60 "$nc"); then
	t_ok "the idle bot game ended at its deadline (carol told)"
fi
t_is "bot game ${bg[0]} cancelled by the timer" cancelled "$(h_status "${bg[0]}")"
in_entity_text "challenge bot level=1 size=3" >ent
in_mail bot4.eml carol pgpmime ent
in_send carol bot4.eml
h_is_outcome "a new bot game once the idle ones ended" "ok: 1 command" "$IN_MSGID"

t_done
