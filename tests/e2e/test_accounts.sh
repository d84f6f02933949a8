#!/bin/bash
# tests/e2e/test_accounts.sh -- a player's own account on real servers
# (issue 26, item 1), the real ashesd between a real Dovecot and Postfix
# with real gpg keys:
#  1. alice and bob play a game to its end and start another;
#  2. alice moves her mail: "address alice2@..." mails a code to that
#     mailbox; "confirm CODE" sent from there, signed with alice's key,
#     moves her mail; her old mailbox is told, her next reply goes to the
#     new one;
#  3. "export me": one mail to the new address, signed by the club, with
#     one JSON attachment that parses, says "schema": 1 and holds both
#     games with their moves, her new address and her armoured key; a
#     second the same day is refused;
#  4. `ashes player delete alice`: the open game is resigned (bob told),
#     the name is deleted- and her key's long id, her addresses gone, her
#     stored mails reduced to their signed parts (no header of hers
#     left), and the finished game's archive, exported after, verifies.
set -u
. "$(dirname "$0")/lib-game.sh"
game_require_stack
for t in gpgv sha256sum tar sqlite3; do
	command -v "$t" >/dev/null 2>&1 || { echo "SKIP: no $t"; exit 77; }
done

E2E_MORE_PLAYERS=alice2
# The club signs its mail: the export's too (a [gpg] section may come
# twice, the keys of both count).
e2e_start "[game]
size = 3

[gpg]
sign_replies = yes"
e2e_daemon_key
e2e_register alice pgpmime >/dev/null
e2e_register bob inline >/dev/null
conf=$E2E_DIR/ashesd.conf
cd "$E2E_DIR" || e2e_fail "no test folder"
db() { sqlite3 -cmd '.timeout 5000' "$E2E_DIR/ashes.db" "$1"; }
new=alice2@$MAIL_DOMAIN

# ---- 1. a game over, one under way --------------------------------------
game_new alice bob 3 pgpmime
G1=$G_GAME
game_play "$G1" alice bob 3 pgpmime inline "${GAME_SEED:-5}"
[ "$G_RESULT" != ongoing ] || e2e_fail "game $G1 did not end"
P1=$G_PLIES
game_new alice bob 3 pgpmime
G2=$G_GAME
game_play "$G2" alice bob 3 pgpmime inline "${GAME_SEED:-5}" 2

# ---- 2. a new address ---------------------------------------------------
na=$(mail_count alice)
nn=$(mail_count alice2)
player_send alice pgpmime "address" "address $new"
f=$(wait_mail alice "A code went to $new" 30 "$na") ||
	e2e_fail "alice got no answer to address"
f=$(wait_mail alice2 "confirm [A-Z0-9]+" 30 "$nn") ||
	e2e_fail "no code came to $new"
code=$(e2e_digest "$f" | sed -n 's/^ *confirm \([A-Z0-9]*\)$/\1/p' | head -1)
t_has "the code mail: who asked" "Player alice of this Ashes club" "$(e2e_digest "$f")"
# The confirmation comes from the new address, signed with alice's key.
conf_mail=$E2E_DIR/confirm.eml
{
	printf 'From: alice <%s>\r\nTo: ashes@%s\r\nSubject: confirm\r\n' \
		"$new" "$MAIL_DOMAIN"
	printf 'Date: %s\r\nMessage-ID: <e2e.confirm.%s@%s>\r\n' "$(date -R)" \
		"$(date +%s%N)" "$MAIL_DOMAIN"
	printf 'MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n'
	printf 'confirm %s\n' "$code" | GNUPGHOME=$E2E_DIR/gnupg-alice gpg --batch \
		--clearsign --local-user "$(e2e_fpr alice)" 2>/dev/null | sed 's/$/\r/'
} >"$conf_mail"
na=$(mail_count alice)
nn=$(mail_count alice2)
player_send alice raw "confirm" "$conf_mail"
f=$(wait_mail alice2 "your game mails go to $new from now on" 30 "$nn") ||
	e2e_fail "the confirmation was not answered at $new"
f=$(wait_mail alice "now go to $new" 30 "$na") ||
	e2e_fail "the old address was not told"
t_has "old address told: nothing more comes here" "Nothing more comes to alice@$MAIL_DOMAIN" \
	"$(e2e_digest "$f")"
t_is "the store: alice's one address is the new one" "$new" \
	"$(db "SELECT a.address FROM player_addresses a JOIN players p ON p.id = a.player_id WHERE p.name = 'alice'")"

# ---- 3. export me -------------------------------------------------------
nn=$(mail_count alice2)
player_send alice pgpmime "export" "export me"
f=$(raw_wait alice2 "application/json" 60 "$nn") || e2e_fail "no export mail at $new"
t_has "export mail: signed by the club" "multipart/signed" "$(mail_header "$f" Content-Type)"
python3 - "$f" "$E2E_DIR/export.json" <<'EOF' || e2e_fail "the export mail has no JSON file"
import email, sys
from email import policy
m = email.message_from_binary_file(open(sys.argv[1], "rb"), policy=policy.default)
for part in m.walk():
    if part.get_content_type() == "application/json":
        assert part.get_filename() == "ashes-export-alice.json", part.get_filename()
        open(sys.argv[2], "wb").write(part.get_payload(decode=True))
        sys.exit(0)
sys.exit(1)
EOF
check=$(python3 - "$E2E_DIR/export.json" "$G1" "$P1" "$G2" "$new" <<'EOF' 2>&1
import json, sys
d = json.load(open(sys.argv[1], encoding="utf-8"))
g1, p1, g2, new = int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
assert d["schema"] == 1, d["schema"]
assert d["player"]["name"] == "alice"
assert [a["address"] for a in d["addresses"]] == [new], d["addresses"]
assert d["keys"][0]["armored"].startswith("-----BEGIN PGP PUBLIC KEY BLOCK-----")
games = {g["id"]: g for g in d["games"]}
assert games[g1]["status"] == "finished" and len(games[g1]["moves"]) == p1, games[g1]
assert games[g2]["status"] == "active" and len(games[g2]["moves"]) == 2, games[g2]
assert all(m["move"] for g in d["games"] for m in g["moves"])
print("ok", len(d["games"]), "games", sum(len(g["moves"]) for g in d["games"]), "moves")
EOF
)
t_has "export: the JSON parses and holds both games, their moves, the new address, the key" \
	"^ok 2 games" "$check"
echo "# export: $check, $(wc -c <"$E2E_DIR/export.json") bytes"
nn=$(mail_count alice2)
player_send alice pgpmime "export" "export me"
wait_mail alice2 "your export went today already" 30 "$nn" >/dev/null ||
	e2e_fail "a second export the same day was not refused"
t_ok "a second export the same day: refused"

# ---- 4. the operator deletes alice --------------------------------------
raw_before=$(db "SELECT count(*) FROM inbound WHERE sender_fingerprint = '$(e2e_fpr alice)' AND instr(CAST(raw AS TEXT), 'From: alice') > 0")
[ "$raw_before" -gt 0 ] || e2e_fail "alice's stored mails hold no header to begin with"
nb=$(mail_count bob)
out=$(e2e_ashes player delete alice --config "$conf" 2>&1)
t_is "ashes player delete: exit 0" 0 "$?"
long=$(e2e_fpr alice | tail -c 17)
t_has "ashes player delete: the new name, one game ended" \
	"alice is deleted: now deleted-$long; 1 open game ended" "$out"
wait_mail bob "game $G2 is over" 60 "$nb" >/dev/null ||
	e2e_fail "bob was not told game $G2 ended"
t_is "game $G2: resigned" "resignation" \
	"$(db "SELECT end_reason FROM games WHERE id = $G2")"
t_is "alice: no address left" 0 \
	"$(db "SELECT count(*) FROM player_addresses a JOIN players p ON p.id = a.player_id WHERE p.name = 'deleted-$long'")"
t_is "alice's stored mails: no header of hers left" 0 \
	"$(db "SELECT count(*) FROM inbound WHERE sender_fingerprint = '$(e2e_fpr alice)' AND instr(CAST(raw AS TEXT), 'From: alice') > 0")"
echo "# stored mails of alice with her headers: $raw_before before, 0 after"
e2e_ashes archive export "$G1" -o "$E2E_DIR/arch" --full --config "$conf" >export.out 2>&1
t_is "archive of game $G1 after the delete: exported" 0 "$?"
e2e_ashes archive verify "$E2E_DIR/arch" --daemon-key "$dfpr" >verify.out 2>&1
t_is "archive of game $G1 after the delete: verify says verified (exit 0)" 0 "$?"
sed 's/^/#   /' verify.out
e2e_end
