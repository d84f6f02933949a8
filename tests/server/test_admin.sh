#!/bin/bash
# tests/server/test_admin.sh -- the operator's subcommands of `ashes` on a
# fresh database file: db migrate|check, player list|add|key|set, games,
# outbox list, and their refusals.  (Games and mails made by the service
# are checked from tests/server/test_server.c.)
set -u
: "${ASHES_BUILDDIR:=$(pwd)}"
: "${ASHES_SRCDIR:=$(cd "$(dirname "$0")/../.." && pwd)}"
ashes=$ASHES_BUILDDIR/ashes
export ASHES_TEMPLATES=$ASHES_SRCDIR/templates
export LC_ALL=C
unset ASHES_DB
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
db=$tmp/ashes.db
failed=0 n=0

check() { # check NAME EXPECTED ACTUAL
	n=$((n + 1))
	if [ "$2" = "$3" ]; then
		echo "ok $n - $1"
	else
		echo "not ok $n - $1"
		echo "  expected: $(printf '%s' "$2" | head -c 600)"
		echo "  actual:   $(printf '%s' "$3" | head -c 600)"
		failed=$((failed + 1))
	fi
}

run() {
	"$ashes" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
	rc=$?
	out=$(cat "$tmp/out")
	err=$(cat "$tmp/err")
}

A=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA
B=BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB

run db check --db "$db"
check "check on an empty file: not current" 1 "$rc"
run db migrate --db "$db"
check "migrate exit" 0 "$rc"
check "migrate from 0" "schema version 0 ->" "$(printf '%s' "$out" | cut -c1-19)"
run db migrate --db "$db"
check "migrate again changes nothing" 0 "$rc"
run db check --db "$db"
check "check ok" 0 "$rc"
check "check says ok" ok "$(printf '%s\n' "$out" | tail -1)"

run player add alice alice@example.org "$A" --db "$db"
check "player add" "player 1 alice" "$out"
run player add bob bob@example.net --db "$db"
check "player add without key" "player 2 bob" "$out"
run player add Alice other@example.org --db "$db"
check "taken name refused" 1 "$rc"
check "taken name message" "ashes player add: the name, address or key is taken" "$err"
run player key bob "$B" --db "$db"
check "player key" "key bound to bob" "$out"
run player key bob "$A" --db "$db"
check "bound key refused" "ashes player key: that key is already bound" "$err"
run player key nobody "$B" --db "$db"
check "unknown player" "ashes player key: no such player" "$err"
ASHES_DB=$db run player list
check "player list via ASHES_DB" "1	alice
	address alice@example.org
	key     $A
2	bob
	address bob@example.net
	key     $B" "$out"

# Settings, as `set KEY VALUE` by mail: listed when not the default.
run player set alice confirm off --db "$db"
check "player set" "0:alice: confirm off" "$rc:$out"
run player set Alice MOVES None --db "$db"
check "player set: case-insensitive" "0:alice: moves none" "$rc:$out"
run player set alice pictures gif --db "$db"
check "player set: bad value" "1:ashes player set: pictures is png|svg|none, not gif" "$rc:$err"
run player set alice colour blue --db "$db"
check "player set: unknown key" "1:ashes player set: no setting colour (confirm, pictures, moves, digest)" "$rc:$err"
run player set nobody digest on --db "$db"
check "player set: unknown player" "1:ashes player set: no such player" "$rc:$err"
run player set alice digest --db "$db"
check "player set: no value" 1 "$rc"
run player list --db "$db"
check "player list shows the settings changed" "1	alice
	address alice@example.org
	key     $A
	settings confirm off, moves none
2	bob
	address bob@example.net
	key     $B" "$out"
run player set alice confirm on --db "$db"
run player set alice moves short --db "$db"
run player list --db "$db"
check "back to the defaults: no settings line" "" "$(printf '%s\n' "$out" | grep settings)"

run games --db "$db"
check "no games: none is open" "0:No game is open: no challenge is waiting and no game is being played." "$rc:$out"
run games --all --db "$db"
check "no games at all" "The database holds no games yet." "$out"
run games --status nonsense --db "$db"
check "bad status" "ashes games: unknown status nonsense" "$err"
# Global options stand before the subcommand too, as in git.
run --db "$db" games --status active
check "--db before the subcommand" "0:No game is active." "$rc:$out"
run --db=/nonexistent/ashes.db games --db "$db" --status open
check "--db after the subcommand wins" "0:No game is open." "$rc:$out"
ASHES_DB=/nonexistent/ashes.db run --config /nonexistent.conf --db "$db" games --status finished
check "--db before the subcommand wins over ASHES_DB" "0:No game is finished." "$rc:$out"
# Only finished games: none open, and a hint that --all lists them.  No
# command makes a game, so one is written as the service would leave it.
if command -v sqlite3 >/dev/null 2>&1; then
	sqlite3 "$db" "INSERT INTO games (variant, challenger_id, white_id,
		black_id, status, ply, result, end_reason, created, updated)
		VALUES ('size=5 tax=removed', 1, 1, 2, 'finished', 12, 'white',
		'resignation', 1700000000, 1700000060)"
	run --db "$db" games
	check "only finished games: none open, and --all named" "0:No game is open: no challenge is waiting and no game is being played.
\`ashes games --all\` lists the games that have ended as well." "$rc:$out"
	run --db "$db" games --all
	check "games --all lists the finished game" "  GAME  STATUS     WHITE            BLACK              PLY  RESULT   UPDATED           VARIANT
     1  finished   alice            bob                 12  white    2023-11-14 22:14  size=5 tax=removed" "$out"
	run games --status finished --db "$db"
	check "games --status finished" "$("$ashes" --db "$db" games --all)" "$out"
else
	echo "# SKIP: no sqlite3 to write a finished game"
fi
run outbox list --db "$db"
check "empty outbox: the header only" 1 "$(printf '%s\n' "$out" | wc -l)"
run inbound list --db "$db"
check "no mail read: the header only" 1 "$(printf '%s\n' "$out" | wc -l)"
run inbound frob --db "$db"
check "inbound usage" 1 "$rc"
run game show 7 --db "$db"
check "no such game" "ashes game show: no game 7" "$err"
check "no such game exit" 1 "$rc"
run game show x7 --db "$db"
check "bad game number" 1 "$rc"
run player frob --db "$db"
check "player usage" 1 "$rc"
run db --bogus --db "$db"
check "unknown option" "ashes db: unknown option --bogus" "$(printf '%s\n' "$err" | head -1)"

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
	check "game show: notes and the request to take back" "0:Notes between the players:
  after ply 1  by alice  at 2023-11-14 22:14:40 UTC  (inbound 0): good luck
  after ply 2  by bob  at 2023-11-14 22:15:30 UTC  (inbound 0): thanks -- you too
bob asks to take back ply 2; the opponent has not answered." "$rc:$(printf '%s\n' "$out" | sed -n '/^Notes/,$p')"
	# a move since ended the request: no longer shown
	sqlite3 "$db" "UPDATE games SET ply = 3 WHERE id = 20;
	INSERT INTO moves (game_id, ply, move, player_id, played_at)
		VALUES (20, 3, 'c5-c4', 1, 1700000300)"
	run game show 20 --db "$db"
	check "game show: a request a move ended is not shown" "0:" "$rc:$(printf '%s\n' "$out" | grep 'take back')"
else
	echo "# SKIP: no sqlite3 to write notes"
fi

echo "1..$n"
[ "$failed" -eq 0 ]
