#!/bin/bash
# tests/e2e/test_backup.sh -- backups that lose nothing (issue 26, item 3),
# the real ashesd between a real Dovecot and Postfix with real gpg keys:
#  1. alice and bob play two games by signed mail; in the middle, while
#     the daemon runs, `ashes db backup` copies the database and the
#     daemon's GnuPG home (both files mode 0600; `ashes db check` passes
#     on the copy); the games go on;
#  2. `ashes db restore` is refused while the daemon runs;
#  3. the daemon stops; the database and the GnuPG home are deleted;
#     `ashes db restore` puts both back; the daemon starts and reads again
#     the mails its archive folder received since the backup;
#  4. every game is where it was before the loss, each player got each
#     reply exactly once (no Message-ID twice, no mail more than before
#     but the replies that still waited in the outbox at the loss: the
#     last move was answered while Postfix was away),
#     the replies already sent were found in the Sent folder, and a move
#     sent after the restore still plays;
#  5. (between 3 and 4) with the IMAP server away, the daemon stops at
#     start rather than read new mail on a state missing some; the replay
#     stays due.
# Prints the figures: moves, mails handled again, replies found already
# sent, replies per player.
set -u
. "$(dirname "$0")/lib-game.sh"
game_require_stack
for t in doveadm sqlite3 join; do
	command -v "$t" >/dev/null 2>&1 || { echo "SKIP: no $t"; exit 77; }
done

SIZE=4
e2e_start "[game]
size = $SIZE"
e2e_register alice pgpmime >/dev/null
e2e_register bob inline >/dev/null
e2e_daemon_key
conf=$E2E_DIR/ashesd.conf
db=$E2E_DIR/ashes.db
cd "$E2E_DIR" || e2e_fail "no test folder"
RANDOM=${GAME_SEED:-26}

declare -A HIST WHITE BLACK MODE=([alice]=pgpmime [bob]=inline)
MOVES=0
game_new alice bob "$SIZE" pgpmime
G1=$G_GAME WHITE[$G1]=alice BLACK[$G1]=bob HIST[$G1]=
game_new bob alice "$SIZE" inline
G2=$G_GAME WHITE[$G2]=bob BLACK[$G2]=alice HIST[$G2]=

# The game's state from its moves so far: "result turn".
game_state() {
	local -a hist
	read -r -a hist <<<"${HIST[$1]}"
	local st
	st=$(e2e_ashes status --size "$SIZE" "${hist[@]}")
	printf '%s %s\n' "$(sed -n 's/^result: //p' <<<"$st")" \
		"$(sed -n 's/^turn: //p' <<<"$st")"
}

# step GAME [direct]: the player to move answers their "your move" mail
# with a legal move (a seeded choice); 1 if the game is over.  direct:
# the signed mail is put into the daemon's mailbox by Dovecot's doveadm,
# not handed to Postfix (which may be down).
step() {
	local g=$1 direct=${2:-} res turn ply who pick
	local -a hist moves
	read -r res turn <<<"$(game_state "$g")"
	[ "$res" = ongoing ] || return 1
	read -r -a hist <<<"${HIST[$g]}"
	ply=$((${#hist[@]} + 1))
	if [ "$turn" = white ]; then who=${WHITE[$g]}; else who=${BLACK[$g]}; fi
	raw_wait "$who" "move $g $ply MOVE" 60 >/dev/null ||
		e2e_fail "$who got no 'your move' mail for ply $ply of game $g"
	mapfile -t moves < <(e2e_ashes legal --size "$SIZE" "${hist[@]}")
	[ "${#moves[@]}" -gt 0 ] || e2e_fail "no legal move at ply $ply of game $g"
	pick=${moves[$((RANDOM % ${#moves[@]}))]}
	if [ -n "$direct" ]; then
		mail_build "$who" "Re: [ashes #$g]" "move $g $ply $pick" direct.eml
		doveadm -c "$E2E_DIR/stack/dovecot/dovecot.conf" save -u ashes \
			-m INBOX <direct.eml || e2e_fail "doveadm could not deliver"
	else
		player_send "$who" "${MODE[$who]}" "Re: [ashes #$g]" "move $g $ply $pick"
	fi
	HIST[$g]="${HIST[$g]} $pick"
	MOVES=$((MOVES + 1))
}

# settle: the daemon answered every move sent (the next "your move" mail,
# or the end), and its outbox is empty.
settle() {
	local g res turn ply who i
	local -a hist
	for g in "$G1" "$G2"; do
		read -r res turn <<<"$(game_state "$g")"
		read -r -a hist <<<"${HIST[$g]}"
		ply=$((${#hist[@]} + 1))
		if [ "$res" = ongoing ]; then
			if [ "$turn" = white ]; then who=${WHITE[$g]}; else who=${BLACK[$g]}; fi
			raw_wait "$who" "move $g $ply MOVE" 60 >/dev/null ||
				e2e_fail "no 'your move' for ply $ply of game $g"
		else
			raw_wait "${WHITE[$g]}" "game $g is over" 60 >/dev/null ||
				e2e_fail "no result mail for game $g"
		fi
	done
	for i in $(seq 1 200); do
		[ -z "$(outbox_unsent)" ] && break
		sleep 0.1
	done
	[ -z "$(outbox_unsent)" ] || e2e_fail "the outbox did not empty"
	sleep 1 # Postfix delivers after it accepted
}

# ---- 1. moves, a backup while the daemon runs, more moves --------------
for i in 1 2 3; do
	step "$G1" || true
	step "$G2" || true
done
settle
e2e_ashes db backup "$E2E_DIR/backup.db" --config "$conf" >backup.out 2>&1
t_is "db backup while the daemon runs: exit 0" 0 "$?"
sed 's/^/#   /' backup.out
t_is "backup file mode 0600" 600 "$(stat -c %a backup.db)"
t_is "gnupg tar mode 0600" 600 "$(stat -c %a backup.db.gnupg.tar)"
t_is "gnupg tar: the exports and the reply key" \
	"ashesd-reply-id.key ownertrust.txt public.asc secret.asc" \
	"$(tar tf backup.db.gnupg.tar | sort | tr '\n' ' ' | sed 's/ $//')"
e2e_ashes db check --db "$E2E_DIR/backup.db" >check.out 2>&1
t_is "db check on the copy: exit 0" 0 "$?"
moves_at_backup=$MOVES
for i in 1 2 3 4; do
	step "$G1" || true
	step "$G2" || true
done
settle
# One more move, answered while Postfix is away: its replies still wait in
# the outbox when the database is lost, and must come once after it.
smtp_down
step "$G1" direct || step "$G2" direct || e2e_fail "both games ended before the loss"
for i in $(seq 1 300); do
	[ "$(cat <(db_moves "$G1") <(db_moves "$G2") | wc -l)" = "$MOVES" ] &&
		[ -n "$(outbox_unsent)" ] && break
	sleep 0.1
done
for who in alice bob; do
	outbox_unsent | grep -c "$who@" >"pending-$who" || true
done
t_ok_if "replies waiting in the outbox at the loss: $(outbox_unsent | wc -l)" \
	test -n "$(outbox_unsent)"
for g in "$G1" "$G2"; do
	db_moves "$g" >"moves-$g.before"
done
for who in alice bob; do
	mail_count "$who" >"count-$who.before"
	daemon_ids "$who" >"ids-$who.before"
done
# when each mail read was handled, by its sha256
sqlite3 -separator " " "$db" "SELECT sha256, received FROM inbound WHERE duplicate_of IS NULL
	ORDER BY sha256" >handled.before || e2e_fail "sqlite3 cannot read the database"
t_is "the moves stored before the loss ($MOVES sent)" "$MOVES" \
	"$(cat moves-"$G1".before moves-"$G2".before | wc -l)"

# ---- 2. no restore under a running daemon -------------------------------
err=$(e2e_ashes db restore "$E2E_DIR/backup.db" --config "$conf" 2>&1 >/dev/null)
t_is "db restore while the daemon runs: refused (exit 1)" 1 "$?"
t_has "... saying why" "in use by a running ashesd" "$err"

# ---- 3. the loss, the restore, the replay --------------------------------
e2e_stop_daemon
GNUPGHOME=$E2E_DIR/daemon-gnupg gpgconf --kill all >/dev/null 2>&1
rm -rf "$db" "$db-wal" "$db-shm" "$E2E_DIR/daemon-gnupg"
e2e_ashes db restore "$E2E_DIR/backup.db" --config "$conf" >restore.out 2>&1
t_is "db restore: exit 0" 0 "$?"
sed 's/^/#   /' restore.out
t_has "the daemon's secret key is back" "$dfpr" \
	"$(gpg --homedir "$E2E_DIR/daemon-gnupg" --batch --with-colons \
		--list-secret-keys 2>/dev/null)"
# The mailbox away at the first start: the replay cannot finish, and the
# daemon stops rather than read new mail on top of a state missing some;
# it is still due.
bash "$MAILSTACK" stop-imap "$E2E_DIR/stack" || e2e_fail "stop-imap failed"
t0=$(date +%s)
ASHES_TEMPLATES=$E2E_TOP/templates timeout 120 "$E2E_BUILD/ashesd" -c "$conf" \
	--foreground </dev/null >ashesd-noimap.log 2>&1
t_is "IMAP away after a restore: ashesd stops (exit 1)" 1 "$?"
t_has "... saying the replay did not finish" "replay: not finished" \
	"$(cat ashesd-noimap.log)"
echo "# (it gave up after $(($(date +%s) - t0)) s)"
t_has "... and the replay is still due" "reads again the mails received since" \
	"$(e2e_ashes db check --db "$db")"
bash "$MAILSTACK" start-imap "$E2E_DIR/stack" || e2e_fail "start-imap failed"
smtp_up
game_restart_daemon
for i in $(seq 1 300); do
	grep -q -E 'replay: (done|not finished)' ashesd.log && break
	sleep 0.1
done
done_line=$(grep 'replay: done' ashesd.log)
t_has "the daemon read the archive again" "replay: done" "$done_line"
handled=$(sed -n 's/.*done: \([0-9]*\) mails handled again.*/\1/p' <<<"$done_line")
found=$(sed -n 's/.*again, \([0-9]*\) replies found already sent.*/\1/p' <<<"$done_line")
seen=$(grep -c 'seen before; nothing to do' ashesd.log || true)
t_ok_if "mails handled again ($handled) include the $((MOVES - moves_at_backup)) moves after the backup" \
	test "${handled:-0}" -ge $((MOVES - moves_at_backup))
t_ok_if "replies found already sent: $found (> 0)" test "${found:-0}" -gt 0
t_has "db check: the replay recorded" "backup: $handled mails read again at" \
	"$(e2e_ashes db check --db "$db")"
settle
# Each mail read again was handled at its receipt time, as the first run
# handled it (within 2 s), not at the replay's (tens of seconds later).
sqlite3 -separator " " "$db" "SELECT sha256, received FROM inbound WHERE duplicate_of IS NULL
	AND source LIKE 'replay:%' ORDER BY sha256" >handled.replay
late=$(LC_ALL=C join handled.before handled.replay |
	awk '{ d = $3 - $2; if (d < 0) d = -d; if (d > 2) print $1, d }')
t_is "mails read again ($(wc -l <handled.replay)) handled at their first run's time" \
	"" "$late"
t_is "... all of them mails the first run handled" "$(wc -l <handled.replay)" \
	"$(LC_ALL=C join handled.before handled.replay | wc -l)"

# ---- 4. the same games, each reply once ----------------------------------
for g in "$G1" "$G2"; do
	t_is "game $g: the same moves as before the loss" \
		"$(cat "moves-$g.before")" "$(db_moves "$g")"
done
for who in alice bob; do
	t_is "$who: no mail more than before but the replies that waited ($(cat "pending-$who")), each once" \
		$(($(cat "count-$who.before") + $(cat "pending-$who"))) \
		"$(mail_count "$who")"
	t_is "$who: no Message-ID twice" "" "$(dup_ids "$who")"
done
# a move after the restore still plays
before_g1=$(db_moves "$G1" | wc -l)
if step "$G1"; then
	settle
	t_is "a move after the restore: stored" $((before_g1 + 1)) \
		"$(db_moves "$G1" | wc -l)"
else
	step "$G2" || e2e_fail "both games ended: no move left to play"
	settle
	t_is "a move after the restore: stored" "$MOVES" \
		"$(cat <(db_moves "$G1") <(db_moves "$G2") | wc -l)"
fi
for who in alice bob; do
	t_is "$who: still no Message-ID twice" "" "$(dup_ids "$who")"
done
# The Sent folder: a copy of each mail sent, headers only.
sent_dir=$E2E_DIR/stack/mail/ashes/Maildir/.Sent
sent_copies=$(find "$sent_dir" -type f \( -path '*/cur/*' -o -path '*/new/*' \) | wc -l)
replies=$(( $(daemon_ids alice) + $(daemon_ids bob) ))
t_is "Sent folder: one copy per reply ($replies)" "$replies" "$sent_copies"
t_is "Sent folder: headers only (no copy with a body)" "" \
	"$(find "$sent_dir" -type f \( -path '*/cur/*' -o -path '*/new/*' \) \
		-exec awk 'body && NF { print FILENAME; exit } /^\r?$/ { body = 1 }' {} \;)"

echo "# figures: moves $MOVES ($moves_at_backup before the backup)," \
	"mails handled again $handled (seen before: $seen)," \
	"replies found already sent $found"
for who in alice bob; do
	echo "# figures: $who got $(daemon_ids "$who") replies, each once" \
		"($(mail_count "$who") mails)"
done
e2e_end
