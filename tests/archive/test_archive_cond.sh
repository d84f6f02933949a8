#!/bin/bash
# tests/archive/test_archive_cond.sh -- conditional moves in the archive,
# on games the real ashesd ran (--once over a folder of mails, the
# players' own gpg keys; tests/e2e/test_conditional.sh does it on real
# mail servers):
#   before a reply is played from them, an export of the game holds no
#   trace of a player's conditional moves (no mail, no comment), while
#   `ashes game show` shows the operator the tree waiting;
#   once played: the ply's record line says cond= with the sha256 of the
#   mail that set the tree, the archive holds that mail (cond-01.eml),
#   `archive verify` checks it and says so, exit 0, and `game show`
#   marks the ply;
#   forged conditionals -- a database changed so that a ply the player
#   mailed is said to come from conditional moves -- each caught by
#   verify: a mail signed after the opponent's move (forged
#   conditional), one signed by the other player (foreign signer), one
#   whose lines do not hold the reply (forged conditional).
set -u
: "${ASHES_SRCDIR:=$(cd "$(dirname "$0")/../.." && pwd)}"
. "$ASHES_SRCDIR/tests/lib.sh"
unset ASHES_DB ASHES_NOW
t_need gpg gpgv tar sha256sum sqlite3 python3
t_tmp
conf=$tmp/ashesd.conf

t_players alice bob
t_import "$tmp/daemon-gnupg" alice bob
GNUPGHOME=$tmp/daemon-gnupg gpg --batch --passphrase '' --quick-gen-key \
	'ashesd <ashes@club.example>' ed25519 sign never >/dev/null 2>&1
daemon_fpr=$(GNUPGHOME=$tmp/daemon-gnupg gpg --batch --with-colons \
	--list-secret-keys | awk -F: '/^fpr/ { print $10; exit }')
mkdir "$tmp/mail"
{
	t_conf "$tmp/mail" "$tmp/ashes.db" "$tmp/daemon-gnupg"
	printf '[game]\nsize = 4\n[limits]\nchallenges_per_day = 0\n'
} >"$conf"
t_add_players "$conf" alice bob

# send WHO BODY: a PGP/MIME mail signed by WHO, read by ashesd --once.
seq=0
send() {
	local who=$1 body=$2 f part
	seq=$((seq + 1))
	f=$tmp/mail/$seq.eml
	{
		printf 'From: %s <%s@example.org>\r\nTo: ashes@club.example\r\n' "$who" "$who"
		printf 'Subject: moves\r\nDate: %s\r\n' "$(date -R)"
		printf 'Message-ID: <c%d.%s@example.org>\r\nMIME-Version: 1.0\r\n' "$seq" "$who"
	} >"$f.tmp"
	part=$(printf 'Content-Type: text/plain; charset=utf-8\r\n\r\n%s\r\n' \
		"$(printf '%s' "$body" | sed 's/$/\r/' | sed '$ s/\r$//')"; echo x)
	t_signed "$who" "${part%x}" >>"$f.tmp"
	t_deliver "$conf" "$f"
}
legal() { t_legal 4 "$@"; } # N MOVE...
show() { "$ashes" game show "$1" --config "$conf"; }

# ---- game 1: alice's conditional moves answer bob's ply 2 -------------
send alice "challenge bob size=4"
send bob "accept 1"
m1=$(legal 3)
send alice "move 1 1 $m1"
t2=$(legal 2 "$m1"); m3=$(legal 5 "$m1" "$t2")
x2=$(legal 4 "$m1"); y3=$(legal 1 "$m1" "$x2")
send alice "conditional 1 $t2 $m3
conditional 1 $x2 $y3"
t_has "game show: alice's tree waits" \
	"^Conditional moves of alice, set after ply 1 " "$(show 1)"
t_has "... with its lines" "^  $t2 $m3\$" "$(show 1)"
run archive export 1 -o "$tmp/before" --config "$conf"
t_is "export before bob moves: done" 0 "$rc"
t_is "... no mail of conditional moves in it" "" \
	"$(cd "$tmp/before" && ls | grep -i cond)"
t_is "... and nothing of them in the record or the files" 0 \
	"$(grep -rlc "conditional\|$m3 \|cond=" "$tmp/before" | wc -l)"

send bob "move 1 2 $t2"
t_is "bob's move played alice's reply: 3 plies" 3 \
	"$(show 1 | grep -c '^  [0-9]*\. ')"
t_has "game show marks ply 3 as conditional, set after ply 1" \
	"^  3\\. $m3  by alice .*conditional, set after ply 1\$" "$(show 1)"
t_hasnt "... and no tree waits" "^Conditional moves of" "$(show 1)"
send bob "resign 1"
run archive export 1 -o "$tmp/g1" --config "$conf"
t_is "export after the reply: done" 0 "$rc"
t_is "the mail of the conditional moves is in it" "cond-01.eml" \
	"$(cd "$tmp/g1" && ls cond-01.eml)"
sha=$(sha256sum "$tmp/g1/cond-01.signed" | cut -c1-64)
t_is "ply 3's record line cites it: cond=1 and its sha256" 1 \
	"$(grep -c "^3\. $m3 {key=[0-9A-F]* at=[0-9T:Z-]* sha256=$sha cond=1}$" "$tmp/g1/record.txt")"
t_is "ply 3 was played at ply 2's receipt" \
	"$(sed -n 's/^2\. .* at=\([^ ]*\) .*/\1/p' "$tmp/g1/record.txt")" \
	"$(sed -n 's/^3\. .* at=\([^ ]*\) .*/\1/p' "$tmp/g1/record.txt")"
t_is "a comment after ply 1 says when it came" 1 \
	"$(grep -c "^; conditional key=[0-9A-F]* at=[0-9T:Z-]* sha256=$sha conditional 1 " "$tmp/g1/record.txt")"
run archive verify "$tmp/g1" --daemon-key "$daemon_fpr"
printf '%s\n' "$out" | sed 's/^/#   /'
t_is "verify: exit 0" 0 "$rc"
t_has "verify says ply 3 came from alice's conditional moves, before ply 2, naming the line" \
	"^ply 3 $m3: cond-01 PGP/MIME, conditional moves of [0-9A-F]{16} [(]White alice[)] signed .*, before ply 2 [(]received .*[)]: \"conditional 1 $t2 $m3\"\$" "$out"

# ---- game 2: the plies of a game forged into conditional ones ---------
send alice "challenge bob size=4"
send bob "accept 2"
a1=$(legal 2)
send alice "move 2 1 $a1"
b2=$(legal 3 "$a1"); a3=$(legal 2 "$a1" "$b2")
x2=$(legal 1 "$a1"); y3=$(legal 1 "$a1" "$x2")
# alice's tree holds another move of bob's
send alice "conditional 2 $x2 $y3"
send bob "move 2 2 $b2"
sleep 1
# alice's lines naming the reply, sent after bob moved (refused: her
# turn), and bob's, with the same line
send alice "conditional 2 $b2 $a3"
send bob "conditional 2 $b2 $a3"
send alice "move 2 3 $a3"
send bob "resign 2"
run archive export 2 -o "$tmp/g2" --config "$conf"
run archive verify "$tmp/g2" --daemon-key "$daemon_fpr"
t_is "game 2 as played: verified" 0 "$rc"

# forge MAIL-TEXT NAME REASON DETAIL: a copy of the database in which
# ply 3 of game 2 came from the conditional moves (set after ply 1) of
# the mail holding MAIL-TEXT; its archive exported, and verify names
# REASON at ply 3, saying DETAIL.
forge() {
	local text=$1 what=$2 reason=$3 detail=$4 db=$tmp/forged.db id
	rm -rf "$db" "$tmp/f" "$tmp/forged.conf"
	cp "$tmp/ashes.db" "$db"
	sed "s|^path = $tmp/ashes.db|path = $db|" "$conf" >"$tmp/forged.conf"
	id=$(sqlite3 "$db" "SELECT id FROM inbound WHERE CAST(raw AS TEXT) LIKE '%$text%' ORDER BY id LIMIT 1")
	sqlite3 "$db" "UPDATE moves SET inbound_id = $id WHERE game_id = 2 AND ply = 3;
		INSERT INTO conditional_plies (game_id, ply, base_ply) VALUES (2, 3, 1);
		DELETE FROM ply_records WHERE game_id = 2 AND ply = 3;"
	run archive export 2 -o "$tmp/f" --config "$tmp/forged.conf"
	t_is "$what: exported" 0 "$rc"
	t_is "$what: its ply 3 says cond=1" 1 \
		"$(grep -c '^3\. .* cond=1}$' "$tmp/f/record.txt")"
	run archive verify "$tmp/f" --daemon-key "$daemon_fpr"
	echo "#   $what: $(printf '%s\n' "$out" | tail -n 1)"
	t_is "$what: exit 2" 2 "$rc"
	t_is "$what: named" "ashes archive verify: $tmp/f: $reason" "$err"
	t_has "$what: the last line says it" \
		"^FAILED at ply 3: $reason: .*$detail" \
		"$(printf '%s\n' "$out" | tail -n 1)"
}
forge "conditional 2 $b2 $a3" "alice's, signed after bob's move" \
	"forged conditional" "after ply 2 it answers was received"
# bob's mail (its Message-ID): its line and time would do, its signer not
forge "c$((seq - 2)).bob@" "bob's own mail" "foreign signer" \
	"is signed by $(fpr bob)"
forge "conditional 2 $x2 $y3" "alice's, whose line holds another move" \
	"forged conditional" "no conditional line of cond-01 for game 2 plays plies 2 to 3"
t_end
