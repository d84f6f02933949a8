#!/bin/bash
# tests/daemon/test_verify_parallel.sh -- mails waiting in the mailbox are
# verified two at once (src/daemon/loop_verify.c) and still committed in
# mailbox order, each with the outcome it gets when read one by one: the
# real ashesd --once over a folder of 22 mails signed with real gpg keys,
# run twice on the same start (ASHESD_VERIFY_WORKERS=1, then 2).  In the
# batch, what one mail does to the keyring is seen by the mails behind it:
# a registration then a mail signed by the new key, a `key replace` then a
# mail signed by the offered key (verified: it is in the keyring, though it
# binds nobody yet), a revocation certificate then a mail
# signed by the revoked key.  Then, read two at a time: a mail that
# crashes the reader (ASHES_TEST_CRASH_ON) is set aside after three
# crashes, its neighbours are not; a mail that cannot be read now
# (ASHES_TEST_FAIL_ON) leaves it and those behind it for the next round,
# none skipped.  Prints the wall time of verifying a batch with 1 and
# with 2 workers (the machine's load decides how much 2 gain).
set -u
: "${ASHES_SRCDIR:=$(cd "$(dirname "$0")/../.." && pwd)}"
. "$ASHES_SRCDIR/tests/lib.sh"
unset ASHES_DB ASHES_NOW ASHESD_VERIFY_WORKERS ASHES_TEST_CRASH_ON \
	ASHES_TEST_FAIL_ON ASHES_TEST_KILL_AT
t_need gpg
t_tmp
# (each run's daemon keyring: its agent stopped too)
t_at_exit 'for h in "$tmp"/run-*/daemon-gnupg; do [ -d "$h" ] && GNUPGHOME=$h gpgconf --kill all >/dev/null 2>&1; done'

# ---- players' keys; the daemon's keyring and database at the start ----
# carol registers by mail; dave2 is the key dave moves to.
t_players alice bob carol dave dave2 erin
start=$tmp/start
mkdir -p "$start/mail" && mkdir -m 700 "$start/daemon-gnupg"
conf_for() { # DIR
	t_conf "$1/mail" "$1/ashes.db" "$1/daemon-gnupg"
	cat <<CONF
[game]
size = 5
[limits]
sender_rate_limit = 1000
[log]
level = debug
CONF
}
conf_for "$start" >"$start/ashesd.conf"
for w in alice bob dave erin; do
	pubkey "$w" | GNUPGHOME=$start/daemon-gnupg gpg --batch --import \
		>/dev/null 2>&1
	"$ashes" player add "$w" "$w@example.org" "$(fpr "$w")" \
		--config "$start/ashesd.conf" >/dev/null ||
		{ echo "Bail out! player add $w"; exit 1; }
done

# The same start for the crash test and the figure at the end.
cp -a "$start" "$tmp/start-crash"
cp -a "$start" "$tmp/start-plain"
cp -a "$start" "$tmp/start-fail"

# ---- the mailbox: NNN.eml, read in name order --------------------------
box=$start seq=0
# mail KEY BODY [FROM]: into $box/mail, a PGP/MIME mail signed by KEY (or
# unsigned: KEY "none") from FROM (default KEY's address); its
# Message-ID is tNNN@x.
mail() {
	local key=$1 body=$2 from=${3:-$1} f part
	seq=$((seq + 1))
	f=$(printf '%s/mail/%03d.eml' "$box" "$seq")
	part=$(printf 'Content-Type: text/plain; charset=utf-8\r\n\r\n%s\r\n' \
		"$(printf '%s' "$body" | sed '$!s/$/\r/')"; echo x)
	part=${part%x}
	{
		printf 'From: %s <%s@example.org>\r\nTo: ashes@club.example\r\n' "$from" "$from"
		printf 'Subject: ashes\r\nDate: %s\r\n' "$(date -R)"
		printf 'Message-ID: <t%03d@example.org>\r\nMIME-Version: 1.0\r\n' "$seq"
		if [ "$key" = none ]; then
			printf '%s' "$part"
		else
			t_signed "$key" "$part"
		fi
	} >"$f"
}
hist=()
# move WHO: the next ply of game 1, the first legal move.
move() {
	local m
	m=$("$ashes" legal --size 5 "${hist[@]}" | head -n 1)
	[ -n "$m" ] || { echo "Bail out! no legal move at ply $((${#hist[@]} + 1))"; exit 1; }
	hist+=("$m")
	mail "$1" "move 1 ${#hist[@]} $m"
}
# opening BOX: a fresh mailbox in BOX whose game 1, alice against bob,
# is challenged, accepted and opened by alice.
opening() {
	box=$1 seq=0 hist=()
	mail alice "challenge bob size=5"
	mail bob "accept 1"
	move alice
}
# games WHO: a `games` mail, its text told apart from the others' (the
# same text signed in the same second is a replay).
games() {
	mail "$1" "games
-- 
$(basename "$box") $((seq + 1))"
}
revcert() {
	sed 's/^:-----/-----/' "$tmp/gnupg-$1/openpgp-revocs.d/$(fpr "$1").rev"
}

mail alice "challenge bob size=5"                    # 1
mail bob "accept 1"                                  # 2
mail carol "register carol

$(pubkey carol)"                                      # 3
mail carol "settings"                                # 4: by the key 3 brought
move alice; move bob                                 # 5 6
mail dave "key replace

$(pubkey dave2)"                                      # 7
mail dave2 "games" dave                              # 8: by the key 7 offered
move alice; move bob                                 # 9 10
mail none "My key was stolen; its revocation:

$(revcert erin)" erin                                 # 11
mail erin "games"                                    # 12: by the key 11 revoked
for _ in 1 2 3 4 5; do move alice; move bob; done    # 13..22
total=$seq

# ---- one run: a copy of the start, read by ashesd --once ---------------
# run NAME WORKERS [START]: a copy of START (default $start) read; the
# outcomes into $tmp/NAME.outcomes ("t001 OUTCOME" in the order the
# database recorded them), the daemon's log in $tmp/run-NAME/log.
run() {
	local d=$tmp/run-$1
	cp -a "${3:-$start}" "$d"
	conf_for "$d" >"$d/ashesd.conf"
	ASHESD_VERIFY_WORKERS=$2 "$ashesd" --once -c "$d/ashesd.conf" \
		>"$d/log" 2>&1 </dev/null ||
		{ echo "Bail out! ashesd --once ($1)"; sed 's/^/# /' "$d/log"; exit 1; }
	outcomes "$d" >"$tmp/$1.outcomes"
}
outcomes() { # DIR
	"$ashes" inbound list --config "$1/ashesd.conf" | awk '
		$1 ~ /^[0-9]+$/ { line = substr($0, 75); next }
		$1 == "message-id" { sub(/@.*/, "", $2); print $2, line }'
}
# outcome NAME N: what became of mail N in run NAME
outcome() {
	awk -v id="$(printf 't%03d' "$2")" '$1 == id { $1 = ""; sub(/^ /, ""); print }' \
		"$tmp/$1.outcomes"
}
figure() { # NAME: the log's "verified N mails in S s, W at once"
	sed -n 's/.*debug: \(verified [0-9]* mails in .*\)$/\1/p' "$tmp/run-$1/log"
}

run serial 1
run parallel 2

for r in serial parallel; do
	t_is "$r: every mail recorded, in mailbox order" \
		"$(seq -f 't%03g' 1 "$total" | tr '\n' ' ')" \
		"$(awk '{ print $1 }' "$tmp/$r.outcomes" | tr '\n' ' ')"
	t_is "$r: the mails in one batch" "verified $total mails" \
		"$(figure "$r" | head -1 | sed 's/ in .*//')"
	t_is "$r: register, then a mail signed by the new key" \
		"ok: 1 command|carol" \
		"$(outcome "$r" 3 | sed 's/ *$//')|$("$ashes" inbound list \
		--config "$tmp/run-$r/ashesd.conf" | awk '$1 == 4 { print $4 }')"
	t_is "$r: the mail signed by the new key is read as carol's" \
		"refused: line 1: not_confirmed (settings)" "$(outcome "$r" 4)"
	t_is "$r: key replace" "ok: 1 command" "$(outcome "$r" 7)"
	# verified (the claimed key is in the keyring: not unknown_key), but
	# it speaks for nobody until it signs the claim's code
	t_is "$r: then a mail signed by the offered key is verified, nobody's" \
		"refused: line 1: not_registered (games)" "$(outcome "$r" 8)"
	t_is "$r: a revocation certificate" "key revoked (1)" \
		"$(outcome "$r" 11 | cut -c1-15)"
	t_is "$r: then a mail signed by the revoked key is refused" \
		"refused: key_revoked" "$(outcome "$r" 12)"
	moves=$(for i in 5 6 9 10 $(seq 13 22); do outcome "$r" "$i"; done | sort -u)
	t_is "$r: every move applied" "ok: 1 command" "$moves"
	t_is "$r: the moves stored in order" "${hist[*]}" \
		"$("$ashes" game show 1 --config "$tmp/run-$r/ashesd.conf" |
		sed -n 's/^ *[0-9][0-9]*\. \([^ ]*\)  by .*/\1/p' | tr '\n' ' ' |
		sed 's/ $//')"
done
t_is "1 worker: read one at a time" "1 at once" \
	"$(figure serial | head -1 | sed 's/.*, //')"
t_is "2 workers: read two at a time" "2 at once" \
	"$(figure parallel | head -1 | sed 's/.*, //')"
t_is "2 workers: the same outcomes as 1" "$(cat "$tmp/serial.outcomes")" \
	"$(cat "$tmp/parallel.outcomes")"

# ---- a mail that crashes the reader, read two at a time ----------------
# The test hook makes the daemon die of SIGSEGV on mail 4, in whichever
# worker reads it.  Each crash counts an attempt for every mail in hand:
# the first one, taken two at a time, may count its neighbour too; then a
# batch holding a mail that failed before is read one mail at a time, so
# the next crashes are counted against mail 4 alone.  After three, the
# fourth run sets it aside and everything else goes through.
opening "$tmp/start-crash"
marker=POISON-$$-$RANDOM
mail none "help
$marker" mallory
for _ in 1 2 3 4 5 6; do move bob; move alice; done
crash_total=$seq
d=$tmp/run-crash
cp -a "$box" "$d"
conf_for "$d" >"$d/ashesd.conf"
crashes=0
for i in 1 2 3 4; do
	# (a group, so that bash's word of the crash goes nowhere)
	{ ASHESD_VERIFY_WORKERS=2 ASHES_TEST_CRASH_ON=$marker "$ashesd" \
		--once -c "$d/ashesd.conf" >"$d/log.$i" 2>&1 </dev/null; } \
		2>/dev/null
	rc=$?
	# (a sanitizer's SEGV handler exits with a status of its own)
	[ "$rc" != 0 ] && grep -q 'test hook: crashing on this mail' "$d/log.$i" &&
		crashes=$((crashes + 1))
done
t_is "crash: the daemon died on it three times, then ran" "3 0" \
	"$crashes $rc"
# (The next start counts an attempt for each mail the in-flight file
# names.)
t_is "crash: the first crash had two mails in hand" 2 \
	"$(grep -c 'was in hand when the daemon stopped (attempt 1 of' "$d/log.2")"
t_is "crash: the next ones had mail 4 alone" "1 1" \
	"$(grep -c 'was in hand when the daemon stopped' "$d/log.3") $(grep -c 'was in hand when the daemon stopped' "$d/log.4")"
outcomes "$d" >"$tmp/crash.outcomes"
# Set aside unread: recorded raw, without its Message-ID.
t_is "crash: set aside after 3 attempts" \
	"- ignored: quarantined after 3 attempts: the daemon died while handling it" \
	"$(sed -n 4p "$tmp/crash.outcomes")"
t_is "crash: in the quarantine folder, alone" "004.eml" \
	"$(ls "$d/mail/quarantine" 2>/dev/null | tr '\n' ' ' | sed 's/ $//')"
t_is "crash: every other mail handled, in mailbox order" \
	"$(seq -f 't%03g' 1 "$crash_total" | sed 's/^t004$/-/' | tr '\n' ' ')" \
	"$(awk '{ print $1 }' "$tmp/crash.outcomes" | tr '\n' ' ')"
moves=$(for i in 3 $(seq 5 "$crash_total"); do outcome crash "$i"; done | sort -u)
t_is "crash: every move applied" "ok: 1 command" "$moves"

# ---- a mail that cannot be read now (gpg away), read two at a time -----
# The test hook makes reading mail 4 fail as gpg failing would: the mails
# before it are handled; it and those behind it (read meanwhile by the
# other worker) stay for the next round -- none is skipped, not even for
# mail 33 and on, which did not fit in the batch.
opening "$tmp/start-fail"
marker=FAIL-$$-$RANDOM
mail bob "games
-- 
$marker"
for _ in 1 2 3; do move bob; move alice; done
for _ in $(seq 13); do games alice; games bob; done
fail_total=$seq
d=$tmp/run-fail
cp -a "$box" "$d"
conf_for "$d" >"$d/ashesd.conf"
ASHESD_VERIFY_WORKERS=2 ASHES_TEST_FAIL_ON=$marker "$ashesd" --once \
	-c "$d/ashesd.conf" >"$d/log.1" 2>&1 </dev/null
t_is "fail: the daemon runs on" 0 "$?"
outcomes "$d" >"$tmp/fail.outcomes"
t_is "fail: the mails before it handled, no other" "t001 t002 t003" \
	"$(awk '{ print $1 }' "$tmp/fail.outcomes" | tr '\n' ' ' | sed 's/ $//')"
t_is "fail: the attempt counted" 1 \
	"$(grep -c 'attempt 1 of 3 failed: test hook: failing on this mail' "$d/log.1")"
t_is "fail: it and those behind it still in the mailbox" \
	"$(seq -f '%03g.eml' 4 "$fail_total" | tr '\n' ' ')" \
	"$(cd "$d/mail" && ls ./*.eml | sed 's|^\./||' | tr '\n' ' ')"
ASHESD_VERIFY_WORKERS=2 "$ashesd" --once -c "$d/ashesd.conf" >"$d/log.2" 2>&1 \
	</dev/null
outcomes "$d" >"$tmp/fail.outcomes"
t_is "fail: then every mail handled, in mailbox order" \
	"$(seq -f 't%03g' 1 "$fail_total" | tr '\n' ' ')" \
	"$(awk '{ print $1 }' "$tmp/fail.outcomes" | tr '\n' ' ')"
moves=$(for i in $(seq 3 "$fail_total"); do outcome fail "$i"; done | sort -u)
t_is "fail: every move applied, every mail read" "ok: 1 command" "$moves"

# ---- the figure: a batch of 30 signed mails without keys ---------------
box=$tmp/start-plain seq=0
for _ in $(seq 15); do games alice; games bob; done
run plain-1 1 "$box"
run plain-2 2 "$box"
t_is "plain batch: every mail read" "ok: 1 command" \
	"$(awk '{ $1 = ""; sub(/^ /, ""); print }' "$tmp/plain-2.outcomes" | sort -u)"
t_is "plain batch: the same outcomes with 1 and 2 workers" \
	"$(cat "$tmp/plain-1.outcomes")" "$(cat "$tmp/plain-2.outcomes")"
echo "# the batch above, 1 worker:  $(figure serial | head -1)"
echo "# the batch above, 2 workers: $(figure parallel | head -1)"
echo "# 30 plain mails, 1 worker:   $(figure plain-1 | head -1)"
echo "# 30 plain mails, 2 workers:  $(figure plain-2 | head -1)"
t_end
