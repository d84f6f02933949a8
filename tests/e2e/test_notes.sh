#!/bin/bash
# tests/e2e/test_notes.sh -- private notes and a rematch on real servers
# (issue 25, items 3 and 5), the real ashesd between a real Dovecot and
# Postfix with real gpg keys:
#  1. alice keeps a note on a running game in a mail of her own; her next
#     "your move" mail shows it; a note mixed with a move runs nothing;
#  2. bob resigns: alice's result mail shows her note and offers the
#     rematch as Black, bob's offers it as White; no mail bob (or the
#     observer carol) ever got holds a trace of the note;
#  3. the archives, once the game is over: alice's own copy holds
#     notes.txt with the note, bob's copy and the operator's export hold
#     no trace of it, and `ashes archive verify --daemon-key` passes on
#     each;
#  4. alice mails "rematch GAME": bob's challenge says it is the rematch
#     and that alice would play Black; accepted, bob is White and to
#     move, on the same board.
set -u
. "$(dirname "$0")/lib-game.sh"
game_require_stack
for t in gpgv sha256sum tar; do
	command -v "$t" >/dev/null 2>&1 || { echo "SKIP: no $t"; exit 77; }
done

E2E_MORE_PLAYERS=carol
e2e_start "[game]
size = 3"
e2e_register alice pgpmime >/dev/null
e2e_register bob inline >/dev/null
e2e_register carol pgpmime >/dev/null
e2e_daemon_key
conf=$E2E_DIR/ashesd.conf
cd "$E2E_DIR" || e2e_fail "no test folder"
# One word, so that no encoding of a mail (quoted-printable, base64 of a
# part) could split it: its absence from the raw bytes is its absence.
secret=zebracrossingplan
secret64=$(printf '%s' "$secret" | base64)

game_new alice bob 3 pgpmime
G=$G_GAME
nc=$(mail_count carol)
player_send carol pgpmime "observe" "observe $G"
wait_mail carol "You now observe game $G" 30 "$nc" >/dev/null ||
	e2e_fail "carol does not observe game $G"
game_play "$G" alice bob 3 pgpmime inline "${GAME_SEED:-3}" 2
[ "$G_RESULT" = ongoing ] || e2e_fail "game $G ended before ply 3"

# ---- 1. the note --------------------------------------------------------
na=$(mail_count alice)
player_send alice pgpmime "Re: [ashes #$G]" "note $G $secret keep the left edge"
f=$(wait_mail alice "Noted for game $G" 30 "$na") || e2e_fail "alice's note was not kept"
t_has "note: the reply says it is hers alone" "for you alone: nobody else" \
	"$(e2e_digest "$f")"
na=$(mail_count alice)
player_send alice pgpmime "Re: [ashes #$G]" "note $G mixed-with-a-move
move $G 3 ${G_HISTORY[0]}"
f=$(wait_mail alice "nothing of it ran" 30 "$na") ||
	e2e_fail "a note with a move was not refused"
t_is "note with a move: nothing ran (ply 3 not stored)" 2 "$(db_plies "$G" | wc -l)"
# ply 3 by alice, ply 4 by bob: alice's "your move" for ply 5 shows the note
mapfile -t moves < <(e2e_ashes legal --size 3 "${G_HISTORY[@]}")
G_HISTORY+=("${moves[0]}")
player_send alice pgpmime "Re: [ashes #$G]" "move $G 3 ${moves[0]}"
raw_wait bob "move $G 4 MOVE" 60 >/dev/null || e2e_fail "bob got no your-move for ply 4"
mapfile -t moves < <(e2e_ashes legal --size 3 "${G_HISTORY[@]}")
G_HISTORY+=("${moves[0]}")
player_send bob inline "Re: [ashes #$G]" "move $G 4 ${moves[0]}"
f=$(raw_wait alice "move $G 5 MOVE" 60) || e2e_fail "alice got no your-move for ply 5"
t_has "your move (ply 5) to alice: her note" "Your notes on game $G, which only you see" \
	"$(e2e_digest "$f")"
t_has "... with its text" "after ply 2 .*: $secret keep the left edge" "$(e2e_digest "$f")"

# ---- 2. the end, the result mails -------------------------------------
na=$(mail_count alice)
nb=$(mail_count bob)
player_send bob inline "Re: [ashes #$G]" "resign $G"
fa=$(raw_wait alice "game $G is over" 30 "$na") || e2e_fail "alice got no result"
fb=$(raw_wait bob "game $G is over" 30 "$nb") || e2e_fail "bob got no result"
t_has "result to alice: the rematch as Black" "Rematch \\(you play Black\\): rematch $G" \
	"$(e2e_digest "$fa")"
t_has "result to alice: her note" "$secret" "$(e2e_digest "$fa")"
t_has "result to bob: the rematch as White" "Rematch \\(you play White\\): rematch $G" \
	"$(e2e_digest "$fb")"
for i in $(seq 1 100); do
	[ -z "$(outbox_unsent)" ] && break
	sleep 0.1
done
for who in bob carol; do
	t_is "no mail $who got holds the note ($(mail_count "$who") mails)" "" \
		"$(e2e_mails "$who" | xargs -r grep -l -e "$secret" -e "$secret64" 2>/dev/null)"
done

# ---- 3. the archives ----------------------------------------------------
# archive_get WHO OUT: WHO mails "archive GAME"; the copy unpacked in OUT.
archive_get() {
	local who=$1 mode=$2 out=$3 n f
	n=$(mail_count "$who")
	player_send "$who" "$mode" "archive" "archive $G"
	f=$(raw_wait "$who" "application/gzip" 60 "$n") || e2e_fail "$who got no archive mail"
	mail_attachment "$f" "$out.tar.gz" || e2e_fail "$who's archive mail has no attachment"
	mkdir "$out" && tar xzf "$out.tar.gz" -C "$out" || e2e_fail "$who's archive does not unpack"
}
archive_get alice pgpmime own
archive_get bob inline theirs
t_has "alice's copy: notes.txt with her note" "after ply 2 .*: $secret keep the left edge" \
	"$(cat "own/game-$G/notes.txt" 2>/dev/null)"
t_has "alice's copy: MANIFEST lists notes.txt" "  notes.txt\$" "$(cat "own/game-$G/MANIFEST")"
t_has "alice's copy: README names it" "notes.txt      the notes alice kept" \
	"$(cat "own/game-$G/README.txt")"
t_ok_if "bob's copy: no notes.txt" test ! -e "theirs/game-$G/notes.txt"
t_is "bob's copy: no trace of the note in any file" "" \
	"$(grep -rl -e "$secret" -e "$secret64" "theirs" 2>/dev/null)"
e2e_ashes archive export "$G" -o "$E2E_DIR/op" --full --config "$conf" >export.out 2>&1
t_is "operator's export (--full): exit 0" 0 "$?"
t_is "operator's export: no trace of the note" "" \
	"$(grep -rl -e "$secret" -e "$secret64" op 2>/dev/null)"
for copy in own.tar.gz theirs.tar.gz op; do
	e2e_ashes archive verify "$copy" --daemon-key "$dfpr" >"verify-${copy%.tar.gz}.out" 2>&1
	t_is "$copy: archive verify says verified (exit 0)" 0 "$?"
done
sed 's/^/#   /' verify-own.out
echo "# alice's notes.txt:"
sed 's/^/#   /' "own/game-$G/notes.txt"

# ---- 4. the rematch -----------------------------------------------------
na=$(mail_count alice)
nb=$(mail_count bob)
player_send alice pgpmime "Re: [ashes #$G]" "rematch $G"
f=$(wait_mail alice "is the rematch of game $G" 30 "$na") || e2e_fail "no rematch made"
R=$(e2e_digest "$f" | sed -n "s/^Game \\([0-9]*\\) is the rematch of game $G.*/\\1/p")
[ -n "$R" ] || e2e_fail "no game number in the rematch reply"
t_has "rematch reply: alice plays Black" "so you play Black against bob" "$(e2e_digest "$f")"
f=$(wait_mail bob "challenges you to game $R" 30 "$nb") || e2e_fail "bob got no rematch challenge"
t_has "bob's challenge: the rematch of game $G" "It is the rematch of game $G" "$(e2e_digest "$f")"
t_has "bob's challenge: alice would play Black" "alice would play Black" "$(e2e_digest "$f")"
t_has "bob's challenge: the same board" "game $R \\(size=3" "$(e2e_digest "$f")"
nb=$(mail_count bob)
player_send bob inline "Re: [ashes #$R]" "accept $R"
f=$(raw_wait bob "move $R 1 MOVE" 30 "$nb") || e2e_fail "bob got no first your-move in game $R"
t_has "game $R: bob White and to move" "Game $R \\(size=3 [^)]*\\): bob White, alice Black" \
	"$(e2e_digest "$f")"
e2e_end
