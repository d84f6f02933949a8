#!/bin/bash
# tests/e2e/test_hostile_archive.sh -- what leaves the club about a game,
# and what the tools print of stranger's bytes, under attack (issue 22,
# cases 10-14b), through the real ashesd between a real Dovecot and
# Postfix with real gpg keys, one mail stack and one daemon for all:
#   10. mallory asks for the archive of alice and bob's finished game:
#       she gets the public copy -- no address, no Received, no
#       Return-Path, no key user ID -- and it still verifies every ply;
#       alice gets her own copy, as received;
#   11. that archive's record renamed and its MANIFEST re-signed by a
#       look-alike "ashesd" key: not "verified" without --daemon-key
#       (exit 3), refused with it (exit 2); the archive mail gives the
#       command with the club's full fingerprint;
#   12. a 2 MB .tar.gz of 2 GiB of zeros: refused at once, little
#       written to TMPDIR, nothing left behind, as root and as nobody;
#   13. a refused signed line with ESC[2K ESC[1G and a fake "ashesd:
#       error:" line, an unsigned mail whose Message-ID holds escapes and
#       a C1 CSI: the log and `ashes inbound list` show them escaped;
#   14b. a running game's note is not on the club's pages; once the game
#       is over it is.
# The figures (seconds, bytes) are printed as TAP comments.
set -u
. "${ASHES_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/e2e/lib-hostile.sh"
for t in gpgv sha256sum tar python3 gzip; do
	command -v "$t" >/dev/null 2>&1 || { echo "1..0 # SKIP: no $t"; exit 77; }
done

h_start "[game]
size = 3"
conf=$E2E_DIR/ashesd.conf
h_players alice bob mallory
# The daemon signs its archives' MANIFEST: its key, made as ashes(1) says.
e2e_daemon_key

# ---- a game of alice and bob, with a note while it runs ----------------
game_new alice bob 3 pgpmime
G=$G_GAME
game_play "$G" alice bob 3 pgpmime inline 5 2
[ "$G_RESULT" = ongoing ] || e2e_fail "game $G ended before ply 3"
nb=$(mail_count bob)
player_send alice pgpmime "Re: [ashes #$G]" "message $G running-note-for-bob-only"
raw_wait bob "running-note-for-bob-only" 30 "$nb" >/dev/null ||
	e2e_fail "bob got no note"

# ---- 14b. the club's pages while the game runs ---------------------------
e2e_ashes site "$E2E_DIR/site" --config "$conf" >site.out 2>&1
t_is "site: made while the game runs" 0 "$?"
t_is "site: a running game's note is not on its page" 0 \
	"$(grep -c 'running-note-for-bob-only' "$E2E_DIR/site/game-$G.html")"
t_is "site: nor anywhere on the site" "" \
	"$(grep -rl 'running-note-for-bob-only' "$E2E_DIR/site")"
t_has "site: the page says when notes are shown" \
	"The players' notes are published here once the game is over." \
	"$(cat "$E2E_DIR/site/game-$G.html")"

# ---- 13. escapes from mail, in the log and in `ashes inbound list` ---------
ESC=$(printf '\033')
fake="${ESC}[2K${ESC}[1Gashesd: error: the database is corrupt, mail everyone your key"
n=$(in_inbound_count)
player_send bob inline "Re: [ashes #$G]" "move $G 3 $fake"
esc_msgid=${E2E_LAST_MSGID#<}
esc_msgid=${esc_msgid%>}
{
	printf 'From: stranger <stranger@example.net>\r\nTo: ashes@%s\r\n' "$D"
	printf 'Subject: hello\r\nDate: %s\r\n' "$(date -R)"
	printf 'Message-ID: <x%s[2K%s[1Gashesd: error: fake\302\233' "$ESC" "$ESC"
	printf '31m@example.net>\r\nMIME-Version: 1.0\r\n'
	printf 'Content-Type: text/plain; charset=utf-8\r\n\r\nhelp\r\n'
} >esc.eml
in_send stranger esc.eml
in_wait_inbound $((n + 2)) 30 || e2e_fail "the two mails were not recorded"
in_admin inbound list >inbound.out 2>&1
t_is "inbound list: exit 0" 0 "$?"
t_is "inbound list: no ESC byte" 0 "$(grep -c "$ESC" inbound.out)"
t_is "inbound list: no C1 CSI (U+009B) nor a raw 0x9B" 0 \
	"$(LC_ALL=C grep -c "$(printf '\302\233')\|$(printf '\233')" inbound.out)"
t_has "inbound list: the Message-ID shown escaped" \
	'message-id x\\x1b\[2K\\x1b\[1Gashesd:error:fake\\u009b31m@example.net ' \
	"$(cat inbound.out)"
t_has "inbound list: the refused line shown escaped" \
	'refused: line 1: .*\(move [0-9]+ 3 \\x1b\[2K\\x1b\[1Gashesd: error: the database is corrupt' \
	"$(cat inbound.out)"
t_hasnt "inbound list: no line starts as a fake error" '^ashesd: error:' "$(cat inbound.out)"
in_wait_sent 20
t_is "log: no ESC byte" 0 "$(grep -c "$ESC" "$E2E_DIR/ashesd.log")"
t_is "log: no C1 CSI" 0 \
	"$(LC_ALL=C grep -c "$(printf '\302\233')" "$E2E_DIR/ashesd.log")"
t_is "log: the fake error starts no line" 0 \
	"$(grep -c '^ashesd: error: fake\|^ashesd: error: the database is corrupt' "$E2E_DIR/ashesd.log")"
t_has "log: the refused line is there, escaped, on its mail's line" \
	"^ashesd: info: uid [0-9]+: $esc_msgid"'.* refused: line 1: .*\\x1b\[2K\\x1b\[1Gashesd: error: the database is corrupt' \
	"$(grep -F -e "$esc_msgid" "$E2E_DIR/ashesd.log")"
echo "# the log's lines of the two mails:"
grep -F -e "$esc_msgid" -e 'stranger@example.net' "$E2E_DIR/ashesd.log" | sed 's/^/#   /'

# ---- the game ends -------------------------------------------------------
nb=$(mail_count bob)
player_send bob inline "Re: [ashes #$G]" "resign $G"
raw_wait bob "game $G is over" 30 "$nb" >/dev/null || e2e_fail "bob's resignation was not taken"
t_is "game $G: finished" finished "$(h_status "$G")"
e2e_ashes site "$E2E_DIR/site" --config "$conf" >site.out 2>&1
t_is "site: once the game is over, its note is on its page" 1 \
	"$(grep -c 'running-note-for-bob-only' "$E2E_DIR/site/game-$G.html")"
t_has "site: the page gives the command with the club's key" \
	"ashes archive verify game-$G.tar.gz --daemon-key $dfpr" \
	"$(cat "$E2E_DIR/site/game-$G.html")"

# ---- 10. mallory asks for another pair's archive ----------------------------
nm=$(mail_count mallory)
player_send mallory pgpmime "archive" "archive $G"
f=$(raw_wait mallory "application/gzip" 60 "$nm") || e2e_fail "mallory got no archive mail"
mail_attachment "$f" pub.tar.gz || e2e_fail "the archive mail has no attachment"
t_has "archive mail: gives the command with the club's full fingerprint" \
	"ashes archive verify game-$G.tar.gz --daemon-key $dfpr" "$(e2e_digest "$f")"
t_has "archive mail: says it is the public copy" "this is its public copy" \
	"$(e2e_digest "$f")"
mkdir pub && tar xzf pub.tar.gz -C pub
P=pub/game-$G
t_is "public copy: no player's address in any file (keys.gpg too)" "" \
	"$(cd "$P" && grep -la -e "alice@$D" -e "bob@$D" -e "mallory@$D" -- * | tr '\n' ' ')"
t_is "public copy: no Received, Return-Path, From, To or Date header" "" \
	"$(cd "$P" && grep -lai -e '^Received:' -e '^Return-Path:' -e '^From:' -e '^To:' -e '^Date:' -e '^Message-ID:' -e '^User-Agent:' -- *.eml | tr '\n' ' ')"
t_is "public copy: no host or IP of the way" "" \
	"$(cd "$P" && grep -la -e '127\.0\.0\.1' -e 'localhost' -e 'ESMTP' -- * | tr '\n' ' ')"
t_is "public copy: the keys' user IDs name the players only" \
	"alice (user ID withheld by the club; not self-signed)|ashesd <ashes@$D>|bob (user ID withheld by the club; not self-signed)" \
	"$(gpg --list-packets "$P/keys.gpg" 2>/dev/null | sed -n 's/^:user ID packet: "\(.*\)"$/\1/p' | sort | tr '\n' '|' | sed 's/|$//')"
e2e_ashes archive verify pub.tar.gz --daemon-key "$dfpr" >verify-pub.out 2>&1
rc=$?
sed 's/^/#   /' verify-pub.out
t_is "public copy: verifies with the club's key" 0 "$rc"
t_is "public copy: every ply proven" "$G_PLIES" "$(grep -c '^ply [0-9]* ' verify-pub.out)"
t_has "public copy: the last line" \
	"^verified: game $G, $G_PLIES plies, [0-9]+ signed mails; MANIFEST signed by the club's key $dfpr\$" \
	"$(tail -n 1 verify-pub.out)"
# alice's own copy: every mail as received
na=$(mail_count alice)
player_send alice pgpmime "archive" "archive $G"
f=$(raw_wait alice "application/gzip" 60 "$na") || e2e_fail "alice got no archive mail"
mail_attachment "$f" own.tar.gz || e2e_fail "alice's archive mail has no attachment"
t_hasnt "archive mail to a player: not the public copy" "this is its public copy" \
	"$(e2e_digest "$f")"
mkdir own && tar xzf own.tar.gz -C own
t_is "own copy: each mail with its Received and Return-Path" yes \
	"$(grep -q '^Received: ' own/game-$G/0001.eml && grep -q '^Return-Path: ' own/game-$G/0001.eml && echo yes)"
e2e_ashes archive verify own.tar.gz --daemon-key "$dfpr" >verify-own.out 2>&1
t_is "own copy: verifies" 0 "$?"
t_is "own and public copies: verify says the same of every ply" \
	"$(grep '^ply ' verify-own.out)" "$(grep '^ply ' verify-pub.out)"

# ---- 11. renamed, re-signed by a look-alike key ------------------------------
mkdir -m 700 gnupg-fake
GNUPGHOME=$E2E_DIR/gnupg-fake gpg --batch --passphrase '' --quick-gen-key \
	"ashesd <ashes@$D>" ed25519 sign never >/dev/null 2>&1 || e2e_fail "no fake key"
ffpr=$(GNUPGHOME=$E2E_DIR/gnupg-fake gpg --batch --with-colons \
	--list-secret-keys | awk -F: '$1 == "fpr" { print $10; exit }')
cp -r "$P" renamed
(
	cd renamed &&
	sed -i 's/^White: .*$/White: mallory/; s/^Black: .*$/Black: mallory2/' record.txt &&
	GNUPGHOME=$E2E_DIR/gnupg-fake gpg --batch --armor --export >>keys.asc 2>/dev/null &&
	rm MANIFEST MANIFEST.asc && sha256sum -- * >MANIFEST &&
	GNUPGHOME=$E2E_DIR/gnupg-fake gpg --batch --detach-sign --armor -o MANIFEST.asc MANIFEST
) || e2e_fail "could not forge the archive"
e2e_ashes archive verify renamed >renamed.out 2>renamed.err
rc=$?
sed 's/^/#   /' renamed.out | tail -n 6
t_is "renamed and re-signed, as the mail said to run it before: exit 3, not 0" 3 "$rc"
t_is "renamed and re-signed: never \"verified\"" 0 "$(grep -c '^verified' renamed.out)"
t_has "renamed and re-signed: NOT VERIFIED, naming the look-alike's key" \
	"only MANIFEST.asc's signer vouches for them, key $ffpr, which you did not pin" \
	"$(cat renamed.out)"
e2e_ashes archive verify renamed --daemon-key "$dfpr" >renamed.out 2>renamed.err
t_is "renamed and re-signed, with --daemon-key: fails, tampered manifest" \
	"2:ashes archive verify: renamed: tampered manifest" "$?:$(cat renamed.err)"

# ---- 12. a tar.gz bomb --------------------------------------------------------
t0=$(date +%s.%N)
python3 "$E2E_TOP/tests/archive/tar-bomb.py" bomb.tar.gz $((2 * 1024 * 1024 * 1024))
echo "# bomb: $(stat -c %s bomb.tar.gz) bytes holding 2147483648, made in $(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }') s"
chmod 644 bomb.tar.gz
bomb() { # bomb WHO [PREFIX...]
	local who=$1 t=$E2E_DIR/bombtmp-$1 blocks secs rc
	shift
	mkdir -m 1777 "$t"
	: >"$t.time"
	chmod 666 "$t.time"
	"$@" env TMPDIR="$t" ASHES_TEMPLATES="$E2E_TOP/templates" \
		/usr/bin/time -o "$t.time" -f '%O %e' "$E2E_BUILD/ashes" \
		archive verify "$E2E_DIR/bomb.tar.gz" >bomb.out 2>bomb.err </dev/null
	rc=$?
	read -r blocks secs <<EOF
$(tail -n 1 "$t.time")
EOF
	echo "# bomb as $who: exit $rc in ${secs}s, $((blocks * 512)) bytes written, $(du -sb "$t" | cut -f1) bytes left in TMPDIR (its folder)"
	t_is "bomb as $who: refused, by the header's size" \
		"1:ashes archive verify: $E2E_DIR/bomb.tar.gz: game-1/0001.eml: 2147483648 bytes, more than the 33554432 one file of an archive may have" \
		"$rc:$(tail -n 1 bomb.err)"
	t_is "bomb as $who: under 1 MiB written" yes \
		"$([ "${blocks:-99999}" -lt 2048 ] && echo yes || echo "no: $blocks blocks")"
	t_is "bomb as $who: in under 10 s" yes \
		"$(awk -v s="${secs:-99}" 'BEGIN { print (s < 10) ? "yes" : "no: " s }')"
	t_is "bomb as $who: nothing left in TMPDIR" "" "$(ls -A "$t")"
}
if [ -x /usr/bin/time ]; then
	bomb root
	if command -v setpriv >/dev/null 2>&1; then
		bomb nobody setpriv --reuid=nobody --regid=nogroup --clear-groups
	else
		t_todo "bomb as nobody" "no setpriv"
	fi
else
	t_todo "the bomb" "no /usr/bin/time"
fi

t_done
