#!/bin/bash
# tests/e2e/test_language.sh -- every mail in its reader's language, on
# real servers: the real ashesd between a real Dovecot and Postfix with
# real gpg keys, and the German templates of templates/de/:
#  1. alice's first mail carries "Content-Language: de-DE, en" (as
#     Thunderbird sends it): her welcome is German, and so is every mail
#     she gets after (her language is set at registration); bob's first
#     mail has none: English;
#  2. bob challenges alice: his reply English, her challenge German; she
#     accepts and moves with the same English command words; each "your
#     move" is in its reader's language -- subject, text, legal moves --
#     the bodies UTF-8 (quoted-printable) and any non-ASCII subject in
#     RFC 2047 words;
#  3. "set language en": her next mails are English.
set -u
. "$(dirname "$0")/lib-game.sh"
game_require_stack

e2e_start "[game]
size = 3"

# ---- 1. registration: the language from Content-Language -----------------
n=$(mail_count alice)
player_send alice pgpmime "register" "register alice

$(e2e_pubkey alice)" "Content-Language: de-DE, en"
f=$(wait_mail alice "Willkommen, alice" 30 "$n") ||
	e2e_fail "alice's welcome is not German"
t_has "welcome: German, with the English command to send back" \
	"^ *confirm [A-Z0-9]+$" "$(e2e_digest "$f")"
code=$(e2e_digest "$f" | sed -n 's/^ *confirm \([A-Z0-9]*\)$/\1/p' | head -1)
n=$(mail_count alice)
player_send alice pgpmime "confirm" "confirm $code"
wait_mail alice "ist bestätigt" 30 "$n" >/dev/null ||
	e2e_fail "alice's confirmation is not German"
t_is "alice's language stored from the header" de \
	"$(sqlite3 -cmd '.timeout 5000' "$E2E_DIR/ashes.db" "SELECT language FROM player_settings s JOIN players p ON p.id = s.player_id WHERE p.name = 'alice'")"
e2e_register bob inline >/dev/null
t_is "bob, no header: the club's default" "" \
	"$(sqlite3 -cmd '.timeout 5000' "$E2E_DIR/ashes.db" "SELECT coalesce((SELECT language FROM player_settings s JOIN players p ON p.id = s.player_id WHERE p.name = 'bob'), '')")"

# ---- 2. a game between them ---------------------------------------------
na=$(mail_count alice)
nb=$(mail_count bob)
player_send bob inline "challenge" "challenge alice size=3"
f=$(wait_mail bob "Game [0-9]+ created" 30 "$nb") || e2e_fail "bob's reply is not English"
G=$(e2e_game_of "$f")
[ -n "$G" ] || e2e_fail "no game number"
f=$(wait_mail alice "bob fordert dich zu Partie $G heraus" 30 "$na") ||
	e2e_fail "alice's challenge is not German"
na=$(mail_count alice)
nb=$(mail_count bob)
player_send alice pgpmime "Re: [ashes #$G]" "accept $G"
fb=$(raw_wait bob "move $G 1 MOVE" 30 "$nb") || e2e_fail "bob got no your-move"
t_has "bob's your move: English subject" "^Subject: \\[ashes #$G\\] your move \\(ply 1\\) vs alice" \
	"$(e2e_digest "$fb")"
t_has "... English legal moves" "Legal moves \\(" "$(e2e_digest "$fb")"
mapfile -t moves < <(e2e_ashes legal --size 3)
nb=$(mail_count bob)
player_send bob inline "Re: [ashes #$G]" "move $G 1 ${moves[0]}"
fa=$(raw_wait alice "move $G 2 MOVE" 60 "$na") || e2e_fail "alice got no your-move"
d=$(e2e_digest "$fa")
t_has "alice's your move: German subject" "^Subject: \\[ashes #$G\\] du bist am Zug \\(Halbzug 2\\) gegen bob" "$d"
t_has "... German text" "alice, du bist am Zug in Partie $G" "$d"
t_has "... German legal moves" "Legale Züge \\(" "$d"
t_has "... the side to move in German words" "Schwarz \\(alice\\) spielt Halbzug 2" "$d"
t_has "... the last move's side too" "^Halbzug 1: [^ ]* -- Weiß " "$d"
t_has "... the same English command" "^ *move $G 2 MOVE$" "$d"
t_has "... UTF-8, quoted-printable" "charset=utf-8" "$(grep -i '^Content-Type: text/plain' "$fa")"
t_has "... Weiß as UTF-8 bytes in quoted-printable" "Wei=C3=9F" "$(cat "$fa")"
t_ok_if "... every header line ASCII" \
	test -z "$(sed '/^\r\?$/q' "$fa" | LC_ALL=C grep -n '[^ -~[:space:]]')"
mapfile -t moves < <(e2e_ashes legal --size 3 "${moves[0]}")
player_send alice pgpmime "Re: [ashes #$G]" "move $G 2 ${moves[0]}"
f=$(raw_wait bob "move $G 3 MOVE" 60 "$nb") || e2e_fail "bob got no your-move for ply 3"
t_has "bob's next your move: English again" "it is your move in game $G" "$(e2e_digest "$f")"

# ---- 3. set language en -------------------------------------------------
na=$(mail_count alice)
player_send alice pgpmime "set" "set language en"
wait_mail alice "Einstellung language|setting language" 30 "$na" >/dev/null ||
	e2e_fail "no answer to set language"
na=$(mail_count alice)
player_send alice pgpmime "settings" "settings"
f=$(wait_mail alice "Your settings:" 30 "$na") || e2e_fail "alice's settings are not English"
t_ok_if "English after set language en" test -n "$f"
e2e_end
