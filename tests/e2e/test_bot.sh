#!/bin/bash
# tests/e2e/test_bot.sh -- a game against the bot by real signed mail on
# real servers (issue 15):
#  1. the operator enables [bot] (a reload, once the daemon has its own
#     key): the bot player is made with the daemon's key;
#  2. alice (PGP/MIME) challenges it, asks for a hint (three legal moves,
#     mailed by the bot thread), and plays a whole game by mail; the bot answers every move on its
#     own thread, each answer a "your move" mail to alice; every bot ply
#     is stored as the bot's, from a mail signed by the daemon's key, and
#     no mail ever goes to the bot;
#  3. a hint in a game between people is refused;
#  4. `ashes archive export` of the bot game and `ashes archive verify`:
#     exit 0, one line per ply, the bot's plies signed by the daemon's key;
#  5. with [bot] delay = 2h the bot does not answer at once, and answers
#     once the daemon's clock (its test hook) is two hours on;
#  6. `ashesd --once`: the bot's move that the mail in the mailbox made
#     due is played, and its mail sent, before the daemon exits.
set -u
. "$(dirname "$0")/lib-game.sh"
game_require_stack
command -v gpgv >/dev/null 2>&1 || { echo "SKIP: no gpgv"; exit 77; }

E2E_MORE_PLAYERS=""
E2E_CLOCK_OFFSET=0
e2e_start "[game]
size = 3"
e2e_register alice pgpmime >/dev/null
e2e_register bob pgpmime >/dev/null
conf=$E2E_DIR/ashesd.conf

# --- 1. the daemon's key, then the bot enabled by a reload
e2e_daemon_key
bot_conf="[game]
size = 3

[bot]
enabled = yes
levels = 1-3
think_time = 300ms
delay = 0
max_games = 2"
e2e_reload "$bot_conf"
for _ in $(seq 1 100); do
	grep -q "bot: Ashes bot plays as key" "$E2E_DIR/ashesd.log" && break
	sleep 0.1
done
t_ok_if "the bot plays with the daemon's key ($dfpr)" \
	grep -q "bot: Ashes bot plays as key $dfpr" "$E2E_DIR/ashesd.log"

# --- 2. a game against the bot
n=$(mail_count alice)
player_send alice pgpmime "challenge" "challenge bot level=2 size=3
-- 
alice, $(date +%s%N)"
f=$(wait_mail alice "Game [0-9]+ begins" 30 "$n") ||
	e2e_fail "no answer to the challenge"
game=$(e2e_digest "$f" | sed -n 's/^Game \([0-9][0-9]*\) begins.*/\1/p' | head -1)
[ -n "$game" ] || e2e_fail "no game number in the challenge reply"
t_ok_if "challenge bot: game $game begins against Ashes bot, level 2" \
	digest_has "$f" "against Ashes bot, level 2"

n=$(mail_count alice)
player_send alice pgpmime "Re: [ashes #$game]" "hint $game"
f=$(wait_mail alice "best moves for you at ply 1 of game $game" 30 "$n") ||
	e2e_fail "no answer to the hint"
e2e_digest "$f" | grep -E '^  [0-9]\. ' | sed 's/^/# hint: /'
mapfile -t legal < <(e2e_ashes legal --size 3)
hints=$(e2e_digest "$f" | sed -n 's/^  [1-3]\. \([^ ]*\) .*/\1/p')
ok=0
for h in $hints; do
	printf '%s\n' "${legal[@]}" | grep -qxF -- "$h" && ok=$((ok + 1))
done
t_ok_if "hint: three moves, each legal at ply 1 ($(echo $hints))" test "$ok" = 3

RANDOM=${GAME_SEED:-5}
hist=()
result=ongoing
while :; do
	st=$(e2e_ashes status --size 3 "${hist[@]}")
	result=$(printf '%s\n' "$st" | sed -n 's/^result: //p')
	[ "$result" = ongoing ] || break
	ply=$((${#hist[@]} + 1))
	turn=$(printf '%s\n' "$st" | sed -n 's/^turn: //p')
	if [ "$turn" = white ]; then
		raw_wait alice "move $game $ply MOVE" 120 >/dev/null ||
			e2e_fail "alice got no 'your move' mail for ply $ply"
		mapfile -t moves < <(e2e_ashes legal --size 3 "${hist[@]}")
		pick=${moves[$((RANDOM % ${#moves[@]}))]}
		player_send alice pgpmime "Re: [ashes #$game]" "move $game $ply $pick"
		hist+=("$pick")
	else
		# the bot's move: stored by the daemon, its ply next
		for _ in $(seq 1 600); do
			[ "$(db_plies "$game" | wc -l)" -ge "$ply" ] && break
			sleep 0.1
		done
		mapfile -t hist < <(db_moves "$game")
		[ "${#hist[@]}" -ge "$ply" ] || e2e_fail "the bot did not play ply $ply"
	fi
done
plies=${#hist[@]}
echo "# game $game: $plies plies, result $result: ${hist[*]}"
t_ok_if "a whole game against the bot ($result after $plies plies)" \
	test "$result" != ongoing
f=$(raw_wait alice "game $game is over" 60) || true
t_ok_if "alice got the result mail" test -n "$f"
bot_plies=$(e2e_ashes game show "$game" --db "$E2E_DIR/ashes.db" |
	grep -c '^ *[0-9][0-9]*\. [^ ]*  by Ashes bot')
t_ok_if "the bot's plies are stored as its own ($bot_plies of $plies)" \
	test "$bot_plies" = "$((plies / 2))"
t_ok_if "the log names every bot move" \
	test "$(grep "bot: game $game ply [0-9]*: " "$E2E_DIR/ashesd.log" |
		grep -vc 'hint answered')" = "$bot_plies"
no_bot_mail() { ! e2e_ashes outbox list --db "$E2E_DIR/ashes.db" | grep -q 'bot@'; }
t_ok_if "no mail was ever queued to the bot" no_bot_mail
t_ok_if "no bot move refused" \
	bash -c "! grep -q 'bot: game .*: .*refused' '$E2E_DIR/ashesd.log'"

# --- 3. no hint in a game between people
game_new alice bob 3 pgpmime
n=$(mail_count alice)
player_send alice pgpmime "Re: [ashes #$G_GAME]" "hint $G_GAME"
f=$(wait_mail alice "hints are only given in games against the bot" 30 "$n")
t_ok_if "hint $G_GAME (alice vs bob): refused" test -n "$f"

# --- 4. the bot game's archive
arch=$E2E_DIR/archive-$game
e2e_ashes archive export "$game" -o "$arch" --config "$conf" >"$E2E_DIR/export.out" 2>&1
t_ok_if "export: exit 0" test $? = 0
sed 's/^/# /' "$E2E_DIR/export.out"
e2e_archive_verify "$arch" "$dfpr" "$plies"
short=$(grep '^ply 2 ' "$E2E_DIR/verify.out" | sed -n 's/.*, signed by \([^ ]*\) (Black Ashes bot).*/\1/p')
in_fpr() { [ -n "$short" ] && [ "${dfpr#*"$short"}" != "$dfpr" ]; }
t_ok_if "verify: the bot's plies are signed by the daemon's key ($short)" in_fpr
t_ok_if "verify: every bot ply signed by that key (Black Ashes bot)" \
	test "$(grep -c "signed by $short (Black Ashes bot)" "$E2E_DIR/verify.out")" = "$bot_plies"

# --- 5. a correspondence opponent: [bot] delay
e2e_reload "[game]
size = 3

[bot]
enabled = yes
levels = 1-3
think_time = 300ms
delay = 2h
max_games = 2"
n=$(mail_count alice)
player_send alice pgpmime "challenge" "challenge bot level=1 size=3
-- 
alice, $(date +%s%N)"
f=$(wait_mail alice "Game [0-9]+ begins" 30 "$n") ||
	e2e_fail "no answer to the second challenge"
slow=$(e2e_digest "$f" | sed -n 's/^Game \([0-9][0-9]*\) begins.*/\1/p' | head -1)
pick=$(e2e_ashes legal --size 3 | head -n 1)
n=$(mail_count alice)
player_send alice pgpmime "Re: [ashes #$slow]" "move $slow 1 $pick"
wait_mail alice "Taken: move $slow 1 $pick" 30 "$n" >/dev/null ||
	e2e_fail "alice's first move in game $slow was not taken"
sleep 5
t_ok_if "delay 2h: no answer from the bot after 5 seconds" \
	test "$(db_plies "$slow" | wc -l)" = 1
e2e_clock_set 7300
# any mail the loop handles wakes the bot thread (else it looks within
# a minute)
player_send alice pgpmime "games" "games"
for _ in $(seq 1 600); do
	[ "$(db_plies "$slow" | wc -l)" -ge 2 ] && break
	sleep 0.1
done
t_ok_if "two hours on (the daemon's clock): the bot answered" \
	test "$(db_plies "$slow" | wc -l)" = 2
t_ok_if "and alice got her 'your move' mail for ply 3" \
	raw_wait alice "move $slow 3 MOVE" 30

# --- 6. ashesd --once plays the bot's moves due before it exits
e2e_stop_daemon
mapfile -t hist < <(db_moves "$slow")
pick=$(e2e_ashes legal --size 3 "${hist[@]}" | head -n 1)
n=$(mail_count alice)
player_send alice pgpmime "Re: [ashes #$slow]" "move $slow 3 $pick"
# the mail is in the mailbox before the daemon looks
for _ in $(seq 1 100); do
	[ -n "$(ls "$E2E_DIR"/stack/mail/ashes/Maildir/new 2>/dev/null)" ] && break
	sleep 0.1
done
# the bot answers at once now (the config the next start reads)
e2e_write_config "$bot_conf"
env ASHESD_TEST_CLOCK_OFFSET_FILE="$E2E_DIR/clock-offset" \
	ASHES_TEMPLATES="$E2E_TOP/templates" timeout 120 \
	"$E2E_BUILD/ashesd" -c "$conf" --foreground --once \
	</dev/null >>"$E2E_DIR/ashesd.log" 2>&1
t_ok_if "ashesd --once: exit 0" test $? = 0
t_ok_if "ashesd --once: alice's ply 3 and the bot's ply 4 stored" \
	test "$(db_plies "$slow" | wc -l)" = 4
t_ok_if "ashesd --once: alice got her 'your move' mail for ply 5" \
	raw_wait alice "move $slow 5 MOVE" 30 "$n"
e2e_end
