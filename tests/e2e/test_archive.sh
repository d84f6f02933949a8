#!/bin/bash
# tests/e2e/test_archive.sh -- a game's archive on real servers (issue 13):
# a game played by the real ashesd over real signed mails -- alice by
# PGP/MIME, bob inline, one bare reply in the thread quoting the "your
# move" mail, to bob's or alice's resignation -- exported with `ashes
# archive export`, then:
#  1. `ashes archive verify --daemon-key FPR` with no database: exit 0,
#     one line per ply;
#  2. README.txt's hand-check line with a fresh GNUPGHOME and a PATH
#     without ashes: every signature good;
#  3. each tampering named: one byte of a .signed file (tampered mail), a
#     ply's files dropped (missing ply), two plies swapped in the record
#     (wrong ply), keys.asc replaced by another key (foreign signer), the
#     Result tag changed (result mismatch);
#  4. the .tar.gz export verifies the same.
# The archive's files and verify's output are printed as TAP comments.
set -u
. "$(dirname "$0")/lib-game.sh"
game_require_stack
for t in gpgv sha256sum tar; do
	command -v "$t" >/dev/null 2>&1 || { echo "SKIP: no $t"; exit 77; }
done

e2e_start "[game]
size = 4"
e2e_register alice pgpmime >/dev/null
e2e_register bob inline >/dev/null
# The daemon signs its archives' MANIFEST: its key, made as ashes(1) says.
e2e_daemon_key
conf=$E2E_DIR/ashesd.conf

game_new alice bob 4 pgpmime
game=$G_GAME
game_play "$game" alice bob 4 pgpmime inline "${GAME_SEED:-7}" 6
[ "$G_RESULT" = ongoing ] || e2e_fail "game $game ended before ply 7"
# ply 7 as a mail client answers the "your move" mail: the move alone,
# the mail quoted below it
ply=$((G_PLIES + 1))
who=alice mode=pgpmime
[ "$G_TURN" = black ] && who=bob mode=inline
f=$(raw_wait "$who" "move $game $ply MOVE" 60) || e2e_fail "no your-move mail for ply $ply"
pick=$(e2e_ashes legal --size 4 "${G_HISTORY[@]}" | tail -n 1)
quoted=$(e2e_digest "$f" | sed 1d | sed 's/^/> /')
n=$(mail_count "$who")
player_send "$who" "$mode" "Re: $(mail_header "$f" Subject)" "$pick

On $(mail_header "$f" Date), Ashes club wrote:
$quoted" "In-Reply-To: $(mail_header "$f" Message-ID)"
raw_wait "$who" "Taken: move $game $ply $pick" 30 "$n" >/dev/null ||
	e2e_fail "the bare reply $pick was not taken"
G_HISTORY+=("$pick")
# the player to move now resigns
loser=alice lmode=pgpmime
[ "$(e2e_ashes status --size 4 "${G_HISTORY[@]}" | sed -n 's/^turn: //p')" = black ] &&
	loser=bob lmode=inline
n=$(mail_count "$loser")
player_send "$loser" "$lmode" "Re: [ashes #$game]" "resign $game"
raw_wait "$loser" "game $game is over" 30 "$n" >/dev/null ||
	e2e_fail "the resignation was not taken"
plies=${#G_HISTORY[@]}
echo "# game $game: $plies plies (${G_HISTORY[*]}), $loser resigned"

# ---- export, verify ---------------------------------------------------
arch=$E2E_DIR/archive-$game
e2e_ashes archive export "$game" -o "$arch" --config "$conf" >"$E2E_DIR/export.out" 2>&1
t_ok_if "export: exit 0" test $? = 0
sed 's/^/# /' "$E2E_DIR/export.out"
echo "# the archive, file by file:"
(cd "$arch" && ls -l | sed 1d | awk '{ printf "#   %8s  %s\n", $5, $9 }')
echo "# record.txt:"
sed 's/^/#   /' "$arch/record.txt"
e2e_archive_verify "$arch" "$dfpr" "$plies"
t_ok_if "verify: ply $ply (the bare reply quoting its line) bound by the signed text" \
	grep -q "^ply $ply $pick: .*, bound by the signed text\$" "$E2E_DIR/verify.out"
t_ok_if "verify: ply 1 (a full command) bound by the signed text" \
	grep -q "^ply 1 .*: 0001 PGP/MIME, .*, bound by the signed text\$" "$E2E_DIR/verify.out"
t_ok_if "verify: ply 2 (bob, inline) bound by the signed text" \
	grep -q "^ply 2 .*: 0002 inline, .*, bound by the signed text\$" "$E2E_DIR/verify.out"
t_ok_if "verify: the resignation is the loser's own signed mail" \
	grep -q "^resignation: mail-[0-9]*, signed by .*, bound by the signed text\$" "$E2E_DIR/verify.out"

# ---- the hand-check line of README.txt ---------------------------------
line=$(sed -n 's/^  \(sh -ec .*\)$/\1/p' "$arch/README.txt")
hand=$E2E_DIR/hand-gnupg
mkdir -m 700 "$hand"
(cd "$arch" && env -i PATH=/usr/bin:/bin HOME="$hand" GNUPGHOME="$hand" \
	sh -c "$line") >"$E2E_DIR/hand.out" 2>&1
rc=$?
GNUPGHOME=$hand gpgconf --kill all >/dev/null 2>&1
t_ok_if "the hand-check line, fresh GNUPGHOME, no ashes in PATH: exit 0" test "$rc" = 0
t_ok_if "it says ALL SIGNATURES GOOD" test "$(tail -n 1 "$E2E_DIR/hand.out")" = "ALL SIGNATURES GOOD"
mails=$(ls "$arch"/*.eml | wc -l)
t_ok_if "it checked every mail's signature and MANIFEST's ($((mails + 1)))" \
	test "$(grep -c 'Good signature' "$E2E_DIR/hand.out")" = "$((mails + 1))"

# ---- tampering ----------------------------------------------------------
other=$E2E_DIR/gnupg-mallory
tamper() { # WHAT REASON COMMANDS...
	local what=$1 reason=$2 t=$E2E_DIR/tampered
	shift 2
	rm -rf "$t"
	cp -r "$arch" "$t"
	(cd "$t" && eval "$@")
	e2e_ashes archive verify "$t" --daemon-key "$dfpr" >"$E2E_DIR/t.out" 2>"$E2E_DIR/t.err"
	rc=$?
	echo "#   $what: $(tail -n 1 "$E2E_DIR/t.out")"
	t_ok_if "$what: found, exit 2, \"$reason\"" \
		test "$rc:$(cat "$E2E_DIR/t.err")" = "2:ashes archive verify: $t: $reason"
}
tamper "one byte of 0003.signed changed" "tampered mail" \
	"python3 -c \"b=bytearray(open('0003.signed','rb').read()); b[-2]^=1; open('0003.signed','wb').write(b)\""
tamper "ply 4's files dropped" "missing ply" "rm 0004.*"
tamper "plies 2 and 3 swapped in the record" "wrong ply" t_swap_plies
tamper "the lines of plies 2 and 3 exchanged" "wrong ply" \
	"sed -i 's/^2\. \(.*\)$/X\1/; s/^3\. \(.*\)$/2. \1/; s/^X\(.*\)$/3. \1/' record.txt"
tamper "keys.asc replaced by another key" "foreign signer" \
	"GNUPGHOME=$other gpg --batch --armor --export >keys.asc 2>/dev/null"
tamper "the Result tag changed" "result mismatch" \
	"sed -i 's/^Result: 1-0$/Result: X/; s/^Result: 0-1$/Result: 1-0/; s/^Result: X$/Result: 0-1/' record.txt"

# ---- the same as a .tar.gz ------------------------------------------------
e2e_ashes archive export "$game" -o "$E2E_DIR/game.tar.gz" --config "$conf" >/dev/null 2>&1
t_ok_if "export as a .tar.gz: exit 0" test $? = 0
e2e_ashes archive verify "$E2E_DIR/game.tar.gz" --daemon-key "$dfpr" >"$E2E_DIR/verify-tgz.out" 2>&1
t_ok_if "the .tar.gz verifies" test $? = 0
t_ok_if "with the same lines" diff -q "$E2E_DIR/verify.out" "$E2E_DIR/verify-tgz.out"
e2e_end
