#!/bin/bash
# tests/e2e/test_game.sh -- the whole loop on real servers (issue 5):
#  1. a complete game from challenge to the end by PGP/MIME mails on a
#     size-3 board: every ply stored once, the stored move list equals the
#     moves sent, both players get the result, the outbox is empty;
#  3. a reply-in-thread move: answering a "your move" mail with only the
#     move (Re: subject, In-Reply-To/References) and the mail quoted below
#     it is taken, and the reply says so; the same bare move whose game
#     only the headers name (nothing quoted: nobody signs the headers) is
#     refused and not stored.
set -u
. "$(dirname "$0")/lib-game.sh"
game_require_stack

e2e_start "[game]
size = 3"
e2e_register alice pgpmime >/dev/null
e2e_register bob pgpmime >/dev/null

# --- 1. a complete game by PGP/MIME mails
game_new alice bob 3 pgpmime
game=$G_GAME
game_play "$game" alice bob 3 pgpmime pgpmime "${GAME_SEED:-4}"
echo "# game $game: $G_PLIES plies, result $G_RESULT: ${G_HISTORY[*]}"
t_ok_if "game $game played to its end ($G_RESULT after $G_PLIES plies)" \
	test "$G_RESULT" != ongoing
f=$(raw_wait alice "game $game is over" 30)
t_ok_if "white (alice) got the result mail" digest_has "$f" "over at ply $G_PLIES:"
f=$(raw_wait bob "game $game is over" 30)
t_ok_if "black (bob) got the result mail" digest_has "$f" "over at ply $G_PLIES:"
stored=$(db_moves "$game" | tr '\n' ' ')
t_ok_if "the stored move list equals the moves sent" \
	test "$stored" = "${G_HISTORY[*]} "
t_ok_if "every ply stored once (plies 1..$G_PLIES)" \
	test "$(db_plies "$game" | tr '\n' ' ')" = "$(seq -s ' ' 1 "$G_PLIES") "
# the last replies may still be on their way to Postfix
for i in $(seq 1 100); do
	[ -z "$(outbox_unsent)" ] && break
	sleep 0.1
done
t_ok_if "outbox: no pending or failed rows" test -z "$(outbox_unsent)"
t_ok_if "no mail handled twice (no duplicate in the log)" \
	bash -c "! grep -q 'seen before' '$E2E_DIR/ashesd.log'"

# --- 3. a reply-in-thread move: just the move, in the thread
game_new alice bob 3 pgpmime
game=$G_GAME
for who in alice bob; do
	ply=1
	[ "$who" = bob ] && ply=2
	f=$(raw_wait "$who" "move $game $ply MOVE" 30) || e2e_fail "no your-move mail for $who"
	id=$(mail_header "$f" Message-ID)
	refs=$(mail_header "$f" References)
	subj=$(mail_header "$f" Subject)
	mapfile -t hist < <(db_moves "$game")
	pick=$(e2e_ashes legal --size 3 "${hist[@]}" | tail -n 1)
	# first without the quote: only the headers name the game
	n=$(mail_count "$who")
	player_send "$who" pgpmime "Re: $subj" "$pick" "In-Reply-To: $id" \
		"References: ${refs:+$refs }$id"
	r=$(wait_mail "$who" "> $pick" 30 "$n")
	t_ok_if "$who's bare '$pick', game named by the headers only: refused" \
		digest_has "$r" "only the mail's headers \\(which nobody"
	t_ok_if "and not stored" test "$(db_plies "$game" | wc -l)" = $((ply - 1))
	# then as a mail client answers: the your-move mail quoted below
	quoted=$(e2e_digest "$f" | sed 1d | sed 's/^/> /')
	n=$(mail_count "$who")
	player_send "$who" pgpmime "Re: $subj" "$pick

On $(mail_header "$f" Date), Ashes club wrote:
$quoted" "In-Reply-To: $id" "References: ${refs:+$refs }$id"
	r=$(wait_mail "$who" "Taken: move $game $ply $pick" 30 "$n")
	t_ok_if "$who's bare '$pick' in the thread of game $game was taken" test -n "$r"
	if [ -n "$r" ]; then
		e2e_digest "$r" | sed 's/^/#   /' | sed -n '1,8p'
		t_ok_if "the reply to $who is in the thread" \
			bash -c "[ '$(mail_header "$r" In-Reply-To)' = '$E2E_LAST_MSGID' ]"
	fi
	t_ok_if "the daemon stored $pick as ply $ply" \
		test "$(db_moves "$game" | sed -n "${ply}p")" = "$pick"
done
e2e_end
