#!/bin/bash
# tests/server/test_admin.sh -- the operator's subcommands of `ashes` on a
# fresh database file: db migrate|check, player list|add|key, games,
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

run games --db "$db"
check "no games: the header only" 1 "$(printf '%s\n' "$out" | wc -l)"
run games --status nonsense --db "$db"
check "bad status" "ashes games: unknown status nonsense" "$err"
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

echo "1..$n"
[ "$failed" -eq 0 ]
