#!/bin/bash
# tests/e2e/test_analyse.sh -- the analysis of a finished game by real
# signed mail on real servers (Dovecot, Postfix, gpg):
#  1. with [bot] enabled (the daemon's key, a reload), alice and bob play
#     a game between them to its end by PGP/MIME mail;
#  2. alice mails "analyse GAME": the reply says it is queued; the bot
#     thread computes it and its mail arrives: every move with the
#     mover's chance before and after, the turning point, the biggest
#     drops, each with its picture attached (a PNG, named in the text);
#  3. a position of the mail, run as the `ashes think` line printed for
#     it, gives the figure the mail printed;
#  4. "analyze GAME" the same day is refused: one analysis a game a day.
# The mail's text and its list of attachments are printed as comments.
set -u
. "$(dirname "$0")/lib-game.sh"
game_require_stack

SIZE=${ANALYSE_SIZE:-4}
E2E_MORE_PLAYERS=""
e2e_start "[game]
size = $SIZE"
e2e_register alice pgpmime >/dev/null
e2e_register bob pgpmime >/dev/null

# --- 1. the bot enabled (it analyses), a game between people played out
e2e_daemon_key
e2e_reload "[game]
size = $SIZE

[bot]
enabled = yes
delay = 0"
for _ in $(seq 1 100); do
	grep -q "bot: Ashes bot plays as key" "$E2E_DIR/ashesd.log" && break
	sleep 0.1
done
game_new alice bob "$SIZE" pgpmime
game_play "$G_GAME" alice bob "$SIZE" pgpmime pgpmime "${GAME_SEED:-3}"
echo "# game $G_GAME: $G_PLIES plies, $G_RESULT: ${G_HISTORY[*]}"
t_ok_if "the game was played to its end ($G_RESULT, $G_PLIES plies)" \
	test "$G_RESULT" != ongoing
raw_wait alice "game $G_GAME is over" 60 >/dev/null ||
	e2e_fail "alice got no result mail"

# --- 2. analyse GAME by mail
n=$(mail_count alice)
player_send alice pgpmime "Re: [ashes #$G_GAME]" "analyse $G_GAME"
f=$(wait_mail alice "The bot will analyse game $G_GAME" 30 "$n")
t_ok_if "analyse: the reply says it is queued" test -n "$f"
f=$(wait_mail alice "the analysis you asked for" 120 "$n") ||
	e2e_fail "no analysis mail"
text=$E2E_DIR/analysis.txt
mail_text "$f" >"$text"
python3 - "$f" >"$E2E_DIR/parts" <<'EOF'
import email, sys
from email import policy
m = email.message_from_binary_file(open(sys.argv[1], "rb"), policy=policy.default)
for part in m.walk():
    name = part.get_filename()
    if name is None or part.get_content_type() == "application/pgp-signature":
        continue
    data = part.get_payload(decode=True) or b""
    png = "png" if data[:8] == b"\x89PNG\r\n\x1a\n" else "not-png"
    print("%s %s %d %s" % (name, part.get_content_type(), len(data), png))
EOF
sed 's/^/# mail: /' "$text"
sed 's/^/# attached: /' "$E2E_DIR/parts"
t_ok_if "analysis: a line for every move" test \
	"$(grep -cE '^  [0-9]+\. (alice|bob) \((white|black)\) [^ ]+  [01]\.[0-9]{3} -> [01]\.[0-9]{3} ' "$text")" = "$G_PLIES"
t_ok_if "analysis: the turning point" grep -q '^Turning point' "$text"
t_ok_if "analysis: the budget and seed said" \
	grep -q '^How the figures are made: each position is searched by the bot, 400$' "$text"
drops=$(sed -n 's/^  [123]\. ply [0-9]*, [a-z]*: .*//p' "$text" | wc -l)
named=$(grep -c '(picture ply-[0-9]*\.png: ' "$text")
pngs=$(grep -c '^ply-[0-9]*\.png image/png [0-9]* png$' "$E2E_DIR/parts")
t_ok_if "analysis: a PNG attached for each drop ($drops drops, $named named, $pngs PNGs)" \
	test "$drops" -ge 1 -a "$named" = "$drops" -a "$pngs" = "$drops"
t_ok_if "analysis: each picture the text names is attached" bash -c "
	for p in \$(sed -n 's/.*(picture \(ply-[0-9]*\.png\): .*/\1/p' '$text'); do
		grep -q \"^\$p \" '$E2E_DIR/parts' || exit 1
	done"

# --- 3. a printed position, repeated by ashes think
ply=$(( (G_PLIES + 1) / 2 ))
line=$(sed -n "s/^  ply $ply: ashes think //p" "$text")
before=$(sed -nE "s/^  $ply\. [a-z]+ \([a-z]+\) [^ ]+  ([01]\.[0-9]{3}) -> .*/\1/p" "$text")
# shellcheck disable=SC2086
chance=$(e2e_ashes think $line | sed -nE 's/^chance: ([01]\.[0-9]{3}) .*/\1/p')
t_ok_if "ply $ply: ashes think repeats the mail's chance ($before)" \
	test -n "$before" -a "$chance" = "$before"

# --- 4. one a day
n=$(mail_count alice)
player_send alice pgpmime "Re: [ashes #$G_GAME]" "analyze $G_GAME"
f=$(wait_mail alice "today already" 30 "$n")
t_ok_if "analyze the same day: refused, one a day" test -n "$f"
t_ok_if "the log names the analysis answered" \
	grep -q "bot: game $G_GAME: analysis answered" "$E2E_DIR/ashesd.log"
e2e_end
