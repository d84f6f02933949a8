#!/bin/bash
# tests/server/test_admin.sh -- the operator's subcommands of `ashes` on a
# fresh database file: db migrate|check, player list|add|key|set, games,
# game show|adjust, clock, outbox list, and their refusals.  (Games and mails made by the service
# are checked from tests/server/test_server.c.)
set -u
: "${ASHES_SRCDIR:=$(cd "$(dirname "$0")/../.." && pwd)}"
. "$ASHES_SRCDIR/tests/lib.sh"
t_tmp
unset ASHES_DB
db=$tmp/ashes.db

A=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA
B=BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB

run db check --db "$db"
t_is "check on an empty file: not current" 1 "$rc"
run db migrate --db "$db"
t_is "migrate exit" 0 "$rc"
t_is "migrate from 0" "schema version 0 ->" "$(printf '%s' "$out" | cut -c1-19)"
run db migrate --db "$db"
t_is "migrate again changes nothing" 0 "$rc"
run db check --db "$db"
t_is "check ok" 0 "$rc"
t_is "check says ok" ok "$(printf '%s\n' "$out" | tail -1)"

# db backup|restore (without a config: no gpg home to copy)
run db backup --db "$db"
t_is "backup without FILE: usage" 1 "$rc"
run db check "$tmp/x.db" --db "$db"
t_is "check with a FILE: usage" 1 "$rc"
run db backup "$tmp/copy.db" --db "$db" --config /nonexistent.conf
t_is "backup: exit" 0 "$rc"
t_is "backup: mode 0600" 600 "$(stat -c %a "$tmp/copy.db")"
run db check --db "$tmp/copy.db"
t_has "check of the copy: when it was taken" "backup: a copy taken at 20" "$out"
run db restore "$tmp/copy.db" --db "$tmp/restored.db" --config /nonexistent.conf
t_is "restore: exit" 0 "$rc"
run db check --db "$tmp/restored.db"
t_is "restore: the copy checks" 0 "$rc"
t_has "... restored, the replay due" "reads again the mails received since the copy" "$out"
run db restore "$db" --db "$tmp/restored.db" --config /nonexistent.conf
t_is "restore of a file that is no backup: refused" 1 "$rc"
t_has "... saying so" "not made by" "$err"

run player add alice alice@example.org "$A" --db "$db"
t_is "player add" "player 1 alice" "$out"
run player add bob bob@example.net --db "$db"
t_is "player add without key" "player 2 bob" "$out"
run player add Alice other@example.org --db "$db"
t_is "taken name refused" 1 "$rc"
t_is "taken name message" "ashes player add: the name, address or key is taken" "$err"
run player key bob "$B" --db "$db"
t_is "player key" "key bound to bob" "$out"
run player key bob "$A" --db "$db"
t_is "bound key refused" "ashes player key: that key is already bound" "$err"
run player key nobody "$B" --db "$db"
t_is "unknown player" "ashes player key: no such player" "$err"
ASHES_DB=$db run player list
t_is "player list via ASHES_DB" "1	alice
	address alice@example.org
	key     $A
2	bob
	address bob@example.net
	key     $B" "$out"

# Settings, as `set KEY VALUE` by mail: listed when not the default.
run player set alice confirm off --db "$db"
t_is "player set" "0:alice: confirm off" "$rc:$out"
run player set Alice MOVES None --db "$db"
t_is "player set: case-insensitive" "0:alice: moves none" "$rc:$out"
run player set alice pictures gif --db "$db"
t_is "player set: bad value" "1:ashes player set: pictures is png|svg|none, not gif" "$rc:$err"
run player set alice colour blue --db "$db"
t_is "player set: unknown key" "1:ashes player set: no setting colour (confirm, pictures, moves, digest, reminders, timezone, standings, summary, language)" "$rc:$err"
# A language: one the templates have a folder for (the source tree's
# here: English and the translations), kept in lower case.
run player set alice language DE --db "$db"
t_is "player set language" "0:alice: language de" "$rc:$out"
run player set alice language xq --db "$db"
t_is "player set: no such language" "1:ashes player set: no templates in language xq (there are: en" "$rc:${err:0:60}"
run player set alice language deutsch --db "$db"
t_is "player set: not a language" "1:ashes player set: language is a language such as de, not deutsch" "$rc:$err"
run player set alice language default --db "$db"
t_is "player set language default" "0:alice: language default" "$rc:$out"
# The clocks' settings (sql/008): a zone must be one of the tz database.
run player set bob reminders off --db "$db"
t_is "player set reminders" "0:bob: reminders off" "$rc:$out"
if [ -f "${TZDIR:-/usr/share/zoneinfo}/Europe/Berlin" ]; then
	run player set bob timezone Europe/Berlin --db "$db"
	t_is "player set timezone" "0:bob: timezone Europe/Berlin" "$rc:$out"
	run player set bob timezone Mars/Olympus_Mons --db "$db"
	t_is "player set: no such zone" "1:ashes player set: no time zone Mars/Olympus_Mons in the tz database" "$rc:$err"
	run player set bob timezone ../../etc/passwd --db "$db"
	t_is "player set: not a zone name" 1 "$rc"
	run player list --db "$db"
	t_is "player list: bob's zone kept" "	settings reminders off, timezone Europe/Berlin" "$(printf '%s\n' "$out" | grep timezone)"
	run player set bob timezone utc --db "$db"
	t_is "player set timezone UTC" "0:bob: timezone UTC" "$rc:$out"
else
	echo "# SKIP: no tz database to set a zone from"
fi
run player set bob reminders on --db "$db"
run player set nobody digest on --db "$db"
t_is "player set: unknown player" "1:ashes player set: no such player" "$rc:$err"
run player set alice digest --db "$db"
t_is "player set: no value" 1 "$rc"
run player list --db "$db"
t_is "player list shows the settings changed" "1	alice
	address alice@example.org
	key     $A
	settings confirm off, moves none
2	bob
	address bob@example.net
	key     $B" "$out"
run player set alice confirm on --db "$db"
run player set alice moves short --db "$db"
run player list --db "$db"
t_is "back to the defaults: no settings line" "" "$(printf '%s\n' "$out" | grep settings)"

run games --db "$db"
t_is "no games: none is open" "0:No game is open: no challenge is waiting and no game is being played." "$rc:$out"
run games --all --db "$db"
t_is "no games at all" "The database holds no games yet." "$out"
run games --status nonsense --db "$db"
t_is "bad status" "ashes games: unknown status nonsense" "$err"
# Global options stand before the subcommand too, as in git.
run --db "$db" games --status active
t_is "--db before the subcommand" "0:No game is active." "$rc:$out"
run --db=/nonexistent/ashes.db games --db "$db" --status open
t_is "--db after the subcommand wins" "0:No game is open." "$rc:$out"
ASHES_DB=/nonexistent/ashes.db run --config /nonexistent.conf --db "$db" games --status finished
t_is "--db before the subcommand wins over ASHES_DB" "0:No game is finished." "$rc:$out"
# Only finished games: none open, and a hint that --all lists them.  No
# command makes a game, so one is written as the service would leave it.
if command -v sqlite3 >/dev/null 2>&1; then
	sqlite3 "$db" "INSERT INTO games (variant, challenger_id, white_id,
		black_id, status, ply, result, end_reason, created, updated)
		VALUES ('size=5 tax=removed', 1, 1, 2, 'finished', 12, 'white',
		'resignation', 1700000000, 1700000060)"
	run --db "$db" games
	t_is "only finished games: none open, and --all named" "0:No game is open: no challenge is waiting and no game is being played.
\`ashes games --all\` lists the games that have ended as well." "$rc:$out"
	run --db "$db" games --all
	t_is "games --all lists the finished game" "  GAME  STATUS     WHITE            BLACK              PLY  RESULT   UPDATED           VARIANT
     1  finished   alice            bob                 12  white    2023-11-14 22:14  size=5 tax=removed" "$out"
	run games --status finished --db "$db"
	t_is "games --status finished" "$("$ashes" --db "$db" games --all)" "$out"
else
	echo "# SKIP: no sqlite3 to write a finished game"
fi
run outbox list --db "$db"
t_is "empty outbox: the header only" 1 "$(printf '%s\n' "$out" | wc -l)"
run inbound list --db "$db"
t_is "no mail read: the header only" 1 "$(printf '%s\n' "$out" | wc -l)"
run inbound frob --db "$db"
t_is "inbound usage" 1 "$rc"
run game show 7 --db "$db"
t_is "no such game" "ashes game show: no game 7" "$err"
t_is "no such game exit" 1 "$rc"
run game show x7 --db "$db"
t_is "bad game number" 1 "$rc"
run player frob --db "$db"
t_is "player usage" 1 "$rc"
run db --bogus --db "$db"
t_is "unknown option" "ashes db: unknown option --bogus" "$(printf '%s\n' "$err" | head -1)"

# `game show` lists the notes the players sent each other and a request
# to take back a move that still counts (sql/006).  Written as the
# service would leave them.
if command -v sqlite3 >/dev/null 2>&1; then
	sqlite3 "$db" "INSERT INTO games (id, variant, challenger_id, white_id,
		black_id, status, ply, created, updated, undo_offer_by,
		undo_offer_ply) VALUES (20, 'size=3 tax=removed', 1, 1, 2,
		'active', 2, 1700000000, 1700000200, 2, 2);
	INSERT INTO moves (game_id, ply, move, player_id, played_at)
		VALUES (20, 1, 'c3-c5', 1, 1700000060),
		(20, 2, 'c3-c1', 2, 1700000120);
	INSERT INTO game_messages (game_id, ply, player_id, text, created)
		VALUES (20, 1, 1, 'good luck', 1700000080),
		(20, 2, 2, 'thanks -- you too', 1700000130)"
	run game show 20 --db "$db"
	t_is "game show: notes and the request to take back" "0:Notes between the players:
  after ply 1  by alice  at 2023-11-14 22:14:40 UTC  (inbound 0): good luck
  after ply 2  by bob  at 2023-11-14 22:15:30 UTC  (inbound 0): thanks -- you too
bob asks to take back ply 2; the opponent has not answered." "$rc:$(printf '%s\n' "$out" | sed -n '/^Notes/,$p')"
	# a move since ended the request: no longer shown
	sqlite3 "$db" "UPDATE games SET ply = 3 WHERE id = 20;
	INSERT INTO moves (game_id, ply, move, player_id, played_at)
		VALUES (20, 3, 'c5-c4', 1, 1700000300)"
	run game show 20 --db "$db"
	t_is "game show: a request a move ended is not shown" "0:" "$rc:$(printf '%s\n' "$out" | grep 'take back')"
else
	echo "# SKIP: no sqlite3 to write notes"
fi

# The clocks (sql/008): `ashes clock` and `ashes game adjust` on game 30,
# days:3, written as the service leaves a game whose first move is due:
# alice (White) to move since T0 with 3 days on each clock.  The
# commands act at ASHES_NOW.
T0=1700000000 # 2023-11-14 22:13:20 UTC
if command -v sqlite3 >/dev/null 2>&1; then
	sqlite3 "$db" "INSERT INTO games (id, variant, challenger_id, white_id,
		black_id, status, ply, created, updated, clock_settings,
		clock_white, clock_black, clock_turn_started, clock_side,
		deadline_at) VALUES (30, 'size=3 tax=removed', 1, 1, 2,
		'active', 0, $T0, $T0, 'days:3', 259200, 259200, $T0, 0,
		$((T0 + 259200)))"
	outbox_rows() { "$ashes" outbox list --db "$db" | tail -n +2 | wc -l; }
	ASHES_NOW=$((T0 + 3600)) run clock 30 --db "$db"
	t_is "clock: exit" 0 "$rc"
	t_is "clock: alice's time left an hour in" 1 "$(printf '%s\n' "$out" | grep -c 'alice.*2 days 23 hours')"
	ASHES_NOW=$((T0 + 7200)) run clock 30 --db "$db"
	t_is "clock: at ASHES_NOW" 1 "$(printf '%s\n' "$out" | grep -c 'alice.*2 days 22 hours')"
	ASHES_NOW=$((T0 + 3600)) run clock '#30' --db "$db"
	t_is "clock: #30" 0 "$rc"
	clock_before=$out

	# Given to the player to move; both told by mail, through the outbox.
	rows=$(outbox_rows)
	ASHES_NOW=$((T0 + 3600)) run game adjust 30 +24h --note "server down" --db "$db"
	t_is "game adjust +24h" "0:game 30: gave 1 day 0 hours to alice, who now has 3 days 23 hours" "$rc:$out"
	t_is "game adjust: both players told" "$((rows + 2))" "$(outbox_rows)"
	run outbox list --db "$db"
	t_is "game adjust: the notices name game 30" "alice@example.org bob@example.net" "$(printf '%s\n' "$out" | tail -n 2 | grep -o '[a-z]*@example.[a-z]*  *\[ashes #30\]' | sed 's/ .*//' | sort | tr '\n' ' ' | sed 's/ $//')"
	ASHES_NOW=$((T0 + 3600)) run game adjust 30 -2h BLACK --db "$db"
	t_is "game adjust -2h black" "0:game 30: took 2 hours 0 minutes from bob, who now has 2 days 22 hours" "$rc:$out"
	ASHES_NOW=$((T0 + 3600)) run game adjust 30 +1d white --db "$db"
	t_is "game adjust +1d white" "0:game 30: gave 1 day 0 hours to alice, who now has 4 days 23 hours" "$rc:$out"
	ASHES_NOW=$((T0 + 3600)) run clock 30 --db "$db"
	t_is "clock: the three adjustments" "0:Game 30: active, alice White, bob Black.   Now: 2023-11-14 23:13:20 UTC
Time control: days:3
Turn: White since 2023-11-14 22:13:20 UTC; charged so far 1 hour 0 minutes (3600 s, weekends and pauses left out)
White (alice): 4 days 23 hours left now (428400 s; stored 432000 s at the turn's start), zone UTC, 10 vacation day(s)
Black (bob): 2 days 22 hours left now (252000 s; stored 252000 s at the turn's start), zone UTC, 10 vacation day(s)
Deadline: 2023-11-19 22:13:20 UTC
Next reminder: 2023-11-17 22:13:20 UTC (0 reminder threshold(s) passed this turn)
Clock history:
  2023-11-14 23:13:20 UTC  adjust alice +1 day 0 hours: server down
  2023-11-14 23:13:20 UTC  adjust bob -2 hours 0 minutes
  2023-11-14 23:13:20 UTC  adjust alice +1 day 0 hours" "$rc:$out"

	# With the daemon's configuration file, as the daemon: the notices'
	# Message-IDs take its domain, the next reminder its [clock] (24 hours
	# before the flag falls, not 48).
	printf '[source]\ntype = maildir\nmaildir = %s\n[smtp]\nfrom = ashes@club.example\n[database]\npath = %s\n[gpg]\nhome = %s/gnupg\n[clock]\nreminders = 24h\n' \
		"$tmp" "$db" "$tmp" >"$tmp/ashesd.conf"
	ASHES_NOW=$((T0 + 3600)) run --config "$tmp/ashesd.conf" game adjust 30 +1h
	t_is "game adjust --config" "0:game 30: gave 1 hour 0 minutes to alice, who now has 5 days 0 hours" "$rc:$out"
	t_is "game adjust --config: Message-IDs of the club's domain" "@club.example
@club.example" "$(sqlite3 "$db" "SELECT substr(message_id, instr(message_id, '@')) FROM outbox ORDER BY id DESC LIMIT 2")"
	ASHES_NOW=$((T0 + 3600)) run clock 30 --config "$tmp/ashesd.conf"
	t_is "clock --config: the club's reminders" "Next reminder: 2023-11-18 23:13:20 UTC (0 reminder threshold(s) passed this turn)" "$(printf '%s\n' "$out" | grep '^Next reminder')"

	# Refused, changing nothing: the service's refusals ...
	ASHES_NOW=$((T0 + 3600)) run clock 30 --db "$db"
	clock_before=$out rows=$(outbox_rows)
	ASHES_NOW=$((T0 + 3600)) run game adjust 30 -30d --db "$db"
	t_is "game adjust: below nothing refused" 1 "$rc"
	t_is "game adjust: the refusal says why" "ashes game adjust: alice's clock cannot take that" "$(printf '%s' "$err" | cut -c1-49)"
	ASHES_NOW=$((T0 + 3600)) run game adjust 99 +1h --db "$db"
	t_is "game adjust: no such game" "1:ashes game adjust: no game 99" "$rc:$err"
	ASHES_NOW=$((T0 + 3600)) run game adjust 20 +1h --db "$db"
	t_is "game adjust: a game without clock" "1:ashes game adjust: game 20 has no clock" "$rc:$err"
	# ... and the command line's.
	for d in 24h +24 +1.5h +0h ++1h -h +1w 1d "+1d " "" "+ 1h"; do
		run game adjust 30 "$d" --db "$db"
		t_is "game adjust: DURATION '$d' refused" "1:ashes game adjust: DURATION is +Nh, -Nh, +Nd or -Nd, not $d" "$rc:$err"
	done
	run game adjust 30 +99999999999999999999d --db "$db"
	t_is "game adjust: more than a clock holds" "1:ashes game adjust: +99999999999999999999d is more than a clock holds (3660d)" "$rc:$err"
	run game adjust 30 +1h red --db "$db"
	t_is "game adjust: bad side" "1:ashes game adjust: the side is white or black, not red" "$rc:$err"
	run game adjust x30 +1h --db "$db"
	t_is "game adjust: bad game number" "1:ashes game adjust: not a game number: x30" "$rc:$err"
	run game adjust 30 --db "$db"
	t_is "game adjust: no DURATION" "1:usage: ashes game adjust ID DURATION [white|black] [--note TEXT] [--db PATH]" "$rc:$err"
	run game adjust 30 +1h white extra --db "$db"
	t_is "game adjust: a word too many" 1 "$rc"
	ASHES_NOW=soon run game adjust 30 +1h --db "$db"
	t_is "game adjust: a bad ASHES_NOW" "1:ashes game adjust: ASHES_NOW is not a number of seconds: soon" "$rc:$err"
	ASHES_NOW=$((T0 + 3600)) run clock 30 --db "$db"
	t_is "refusals changed no clock" "$clock_before" "$out"
	t_is "refusals told nobody" "$rows" "$(outbox_rows)"

	run clock 99 --db "$db"
	t_is "clock: no such game" "1:ashes clock: no game 99" "$rc:$err"
	run clock x --db "$db"
	t_is "clock: bad game number" "1:ashes clock: not a game number: x" "$rc:$err"
	run clock --db "$db"
	t_is "clock: usage" "1:usage: ashes clock ID [--db PATH]" "$rc:$err"
	ASHES_NOW=-5 run clock 30 --db "$db"
	t_is "clock: a bad ASHES_NOW" "1:ashes clock: ASHES_NOW is not a number of seconds: -5" "$rc:$err"
	# The other commands act at ASHES_NOW too.
	ASHES_NOW=$T0 run player add carol carol@example.com --db "$db"
	t_is "player add at ASHES_NOW" "0:$T0" "$rc:$(sqlite3 "$db" "SELECT created FROM players WHERE name = 'carol'")"
else
	echo "# SKIP: no sqlite3 to write a game with a clock"
fi

t_end
