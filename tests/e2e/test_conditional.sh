#!/bin/bash
# tests/e2e/test_conditional.sh -- conditional moves on the real stack: a
# game played by mail (alice PGP/MIME, bob inline) through Postfix,
# Dovecot and the real ashesd, where
#  1. alice, waiting for bob's ply 2, mails two conditional lines; her
#     reply says they are stored, and none of bob's mails says anything
#     of them;
#  2. bob plays the first line's move: alice's reply is played at once,
#     bob's "your move" for ply 4 shows it "played from alice's
#     conditional moves" with the board and the legal moves after it,
#     and alice is told her reply was played;
#  3. the game's archive, after bob resigns, holds the mail of her
#     conditional moves and `ashes archive verify` proves the ply from it.
# Both players' mails are printed as TAP comments.
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
e2e_daemon_key
conf=$E2E_DIR/ashesd.conf

game_new alice bob 4 pgpmime
game=$G_GAME
legal() { e2e_ashes legal --size 4 "$@" | sed -n "${N}p"; }
m1=$(N=3 legal)
t2=$(N=2 legal "$m1"); m3=$(N=5 legal "$m1" "$t2")
x2=$(N=4 legal "$m1"); y3=$(N=1 legal "$m1" "$x2")
nb=$(mail_count bob)
player_send alice pgpmime "Re: [ashes #$game]" "move $game 1 $m1"
raw_wait bob "move $game 2 MOVE" 30 "$nb" >/dev/null ||
	e2e_fail "bob got no your-move mail for ply 2"

# ---- 1. alice's lines, and nothing of them to bob -----------------------
na=$(mail_count alice)
nb=$(mail_count bob)
player_send alice pgpmime "Re: [ashes #$game]" "conditional $game $t2 $m3
conditional $game $x2 $y3"
f=$(wait_mail alice "Stored as line 2 of your conditional moves" 30 "$na") ||
	e2e_fail "alice's conditional lines were not stored"
echo "# alice's reply:"; e2e_digest "$f" | sed 's/^/#   /'
t_ok_if "alice's reply names the reply to $t2" \
	digest_has "$f" "if bob plays $t2 [(]ply 2[)], you play $m3 [(]ply 3[)]"
player_send bob inline "Re: [ashes #$game]" "board $game"
f=$(wait_mail bob "Next: move $game 2 MOVE" 30 "$nb") ||
	e2e_fail "bob got no board"
t_ok_if "bob's board says nothing of alice's conditional moves" \
	test "$(e2e_digest "$f" | grep -ci conditional)" = 0
n=0
for g in $(e2e_mails bob); do
	e2e_digest "$g" | grep -qi conditional && n=$((n + 1))
done
t_ok_if "nor does any of bob's $(mail_count bob) mails before he moved" test "$n" = 0

# ---- 2. bob plays into the tree ------------------------------------------
na=$(mail_count alice)
nb=$(mail_count bob)
player_send bob inline "Re: [ashes #$game]" "move $game 2 $t2"
f=$(wait_mail bob "your move \(ply 4\)" 30 "$nb") ||
	e2e_fail "bob got no your-move mail for ply 4"
b=$f
for g in $(e2e_mails bob | tail -n +$((nb + 1))); do
	echo "# bob's mail after his move:"; e2e_digest "$g" | sed 's/^/#   /'
done
t_ok_if "bob's your-move shows ply 3 played from alice's conditional moves" \
	digest_has "$b" "^Ply 3: $m3 [(]played from alice's conditional moves[)]"
t_ok_if "... and asks for ply 4" digest_has "$b" "move $game 4 MOVE"
want=$(e2e_ashes legal --size 4 "$m1" "$t2" "$m3" | wc -l)
t_ok_if "... with the $want legal moves after the reply" \
	digest_has "$b" "^Legal moves [(]$want[)]:"
f=$(wait_mail alice "your conditional moves" 30 "$na") ||
	e2e_fail "alice was not told her reply was played"
echo "# alice's mail after bob's move:"; e2e_digest "$f" | sed 's/^/#   /'
t_ok_if "alice is told ply 3, $m3, was played for her" \
	digest_has "$f" "ply 3, $m3, was played for you"
t_ok_if "the daemon stored 3 plies, the third alice's reply" \
	test "$(db_moves "$game" | tr '\n' ' ')" = "$m1 $t2 $m3 "

# ---- 3. the archive proves it --------------------------------------------
nb=$(mail_count bob)
player_send bob inline "Re: [ashes #$game]" "resign $game"
raw_wait bob "game $game is over" 30 "$nb" >/dev/null ||
	e2e_fail "the resignation was not taken"
arch=$E2E_DIR/archive-$game
e2e_ashes archive export "$game" -o "$arch" --config "$conf" >/dev/null 2>&1
t_ok_if "export: exit 0" test $? = 0
t_ok_if "the archive holds the mail of the conditional moves" \
	test -f "$arch/cond-01.eml"
t_ok_if "ply 3's record line cites it (cond=1)" \
	grep -q "^3\. $m3 {.*sha256=$(sha256sum "$arch/cond-01.signed" | cut -c1-64) cond=1}\$" "$arch/record.txt"
e2e_archive_verify "$arch" "$dfpr" 3
t_ok_if "verify: ply 3 from alice's conditional moves, before ply 2" \
	grep -q "^ply 3 $m3: cond-01 PGP/MIME, conditional moves of .* (White alice) .*before ply 2 .*\"conditional $game $t2 $m3\"\$" "$E2E_DIR/verify.out"
e2e_end
