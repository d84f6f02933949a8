#!/bin/bash
# tests/archive/test_archive_retention.sh -- a finished game's archive
# still verifies after [retention] reduced every one of its mails to its
# signed parts: a game the real ashesd ran (--once over a folder of
# mails) with mails as gpg's PGP/MIME, inline clearsigned, K-9's
# (Autocrypt-only PGP/MIME, client-mail.py) and Thunderbird's signed and
# encrypted ones write them, bare replies bound only by the thread;
#   exported and verified before;
#   the daemon 15 days on (its test clock): a refused mail's bytes
#   dropped, its row and outcome kept, logged;
#   `ashes db prune --retention` 91 days on: every mail of the game
#   reduced, no header of theirs left (no From, Received, Date, address);
#   exported and verified after: the same record, the same signed parts,
#   signatures and public copies of the mails, file for file;
#   a second prune changes nothing; a game still running keeps its mails.
set -u
: "${ASHES_SRCDIR:=$(cd "$(dirname "$0")/../.." && pwd)}"
. "$ASHES_SRCDIR/tests/lib.sh"
unset ASHES_DB ASHES_NOW
t_need gpg gpgv tar sqlite3 python3
t_tmp
conf=$tmp/ashesd.conf
db=$tmp/ashes.db

t_players alice bob
t_import "$tmp/daemon-gnupg" alice bob
GNUPGHOME=$tmp/daemon-gnupg gpg --batch --passphrase '' --quick-gen-key \
	'ashesd <ashes@club.example>' ed25519 sign never >/dev/null 2>&1
daemon_fpr=$(GNUPGHOME=$tmp/daemon-gnupg gpg --batch --with-colons \
	--list-secret-keys | awk -F: '/^fpr/ { print $10; exit }')
# the club's encryption subkey, and alice knows it (Thunderbird encrypts)
GNUPGHOME=$tmp/daemon-gnupg gpg --batch --passphrase '' --quick-add-key \
	"$daemon_fpr" cv25519 encr never >/dev/null 2>&1
GNUPGHOME=$tmp/daemon-gnupg gpg --batch --export "$daemon_fpr" |
	GNUPGHOME=$tmp/gnupg-alice gpg --batch --import >/dev/null 2>&1
mkdir "$tmp/mail"
{
	t_conf "$tmp/mail" "$db" "$tmp/daemon-gnupg"
	printf '[game]\nsize = 4\n[limits]\nchallenges_per_day = 0\n'
} >"$conf"
t_add_players "$conf" alice bob

hdrs() { # WHO N [HEADER...]
	local who=$1 n=$2 h
	shift 2
	printf 'Return-Path: <%s@example.org>\r\n' "$who"
	printf 'Received: from mx.example.org (mx.example.org [192.0.2.7])\r\n by club.example; %s\r\n' "$(date -R)"
	printf 'From: %s <%s@example.org>\r\nTo: ashes@club.example\r\n' "$who" "$who"
	printf 'Subject: Re: [ashes #1] your move\r\nDate: %s\r\n' "$(date -R)"
	printf 'Message-ID: <t%d.%s@example.org>\r\n' "$n" "$who"
	for h in "$@"; do printf '%s\r\n' "$h"; done
	printf 'MIME-Version: 1.0\r\n'
}
# send WHO pgpmime|inline|k9|tb BODY [HEADER...]
seq=0
send() {
	local who=$1 mode=$2 body=$3 f part
	shift 3
	seq=$((seq + 1))
	f=$tmp/mail/$seq.eml
	case $mode in
	pgpmime)
		hdrs "$who" $seq "$@" >"$f.tmp"
		part=$(printf 'Content-Type: text/plain; charset=utf-8\r\n\r\n%s\r\n' \
			"$(printf '%s' "$body" | sed 's/$/\r/' | sed '$ s/\r$//')"; echo x)
		t_signed "$who" "${part%x}" >>"$f.tmp" ;;
	inline)
		hdrs "$who" $seq "$@" >"$f.tmp"
		printf 'Content-Type: text/plain; charset=utf-8\r\n\r\n' >>"$f.tmp"
		printf '%s\n' "$body" | GNUPGHOME=$tmp/gnupg-$who gpg --batch \
			--clearsign 2>/dev/null | sed 's/$/\r/' >>"$f.tmp" ;;
	k9|tb)
		printf '%s\n' "$body" >"$tmp/body.txt"
		local shape=autocrypt
		[ "$mode" = tb ] && shape="tb-encrypted --recipient $daemon_fpr"
		# shellcheck disable=SC2086 # the shape's words
		python3 "$ASHES_SRCDIR/tests/mail/client-mail.py" $shape \
			--home "$tmp/gnupg-$who" --signer "$who@example.org" \
			--from "$who@example.org" --to ashes@club.example \
			--subject "Re: [ashes #1] your move" \
			--message-id "<t$seq.$who@example.org>" \
			"$tmp/body.txt" >"$f.tmp" ||
			{ echo "Bail out! client-mail.py $shape"; exit 1; } ;;
	esac
	t_deliver "$conf" "$f"
}
legal() { t_legal 4 "$@"; }
plies() { "$ashes" game show "$1" --config "$conf" | grep -c '^  [0-9]*\. '; }
q() { sqlite3 "$db" "$1"; }

# ---- game 1, finished; game 2, still running -------------------------
send alice pgpmime "challenge bob size=4"
send bob inline "accept 1"
h=()
m=$(legal 3); send alice pgpmime "move 1 1 $m"; h+=("$m")
m=$(legal 2 "${h[@]}"); send bob k9 "move 1 2 $m"; h+=("$m")
m=$(legal 1 "${h[@]}"); send alice tb "move 1 3 $m"; h+=("$m")
# a bare reply: only the unsigned In-Reply-To binds it to its game
m=$(legal 1 "${h[@]}")
send bob inline "$m
(my answer in game 1)" "In-Reply-To: <ashes.1.3.5.0@club.example>"
h+=("$m")
m=$(legal 2 "${h[@]}"); send alice inline "move 1 5 $m"; h+=("$m")
m=$(legal 1 "${h[@]}"); send bob pgpmime "move 1 6 $m"; h+=("$m")
send alice tb "resign 1"
t_is "game 1 played: 6 plies" 6 "$(plies 1)"
send alice pgpmime "challenge bob size=4"
send bob pgpmime "accept 2"
m=$(legal 1); send alice pgpmime "move 2 1 $m"
# an unsigned mail: refused (the club requires signatures)
seq=$((seq + 1))
{ hdrs mallory $seq; printf 'Content-Type: text/plain\r\n\r\nhelp\r\n'; } \
	>"$tmp/mail/$seq.eml.tmp"
t_deliver "$conf" "$tmp/mail/$seq.eml"
refused=$(q "SELECT id FROM inbound WHERE outcome LIKE 'refused: unsigned%'")
t_ok_if "the unsigned mail refused" [ -n "$refused" ]

# ---- before ----------------------------------------------------------
run archive export 1 -o "$tmp/before" --config "$conf"
t_is "export before retention" 0 "$rc"
run archive verify "$tmp/before" --daemon-key "$daemon_fpr"
t_is "verify before retention" 0 "$rc"
before_out=$out
g1_mails="SELECT DISTINCT inbound_id FROM moves WHERE game_id = 1
	UNION SELECT inbound_id FROM outbox WHERE game_id = 1 AND inbound_id IS NOT NULL"
t_is "game 1's mails all kept as received" 0 \
	"$(q "SELECT count(*) FROM inbound WHERE id IN ($g1_mails) AND reduced IS NOT NULL")"

# ---- the daemon, 15 days on: the refused mail's bytes go -------------
echo $((15 * 86400)) >"$tmp/offset"
: >"$tmp/daemon.log"
ASHESD_TEST_CLOCK_OFFSET_FILE=$tmp/offset \
	"$ashesd" --once -c "$conf" >>"$tmp/daemon.log" 2>&1 </dev/null
t_is "the daemon's retention pass: the refused mail dropped" dropped \
	"$(q "SELECT reduced FROM inbound WHERE id = $refused")"
t_has "and logged" "retention: 0 sent mails dropped their html and pictures \\(0 bytes\\), 1 refused or duplicate mails their bytes" \
	"$(cat "$tmp/daemon.log")"
t_is "game 1's mails not yet" 0 \
	"$(q "SELECT count(*) FROM inbound WHERE id IN ($g1_mails) AND reduced IS NOT NULL")"

# ---- retention, 91 days on -------------------------------------------
later=$(( $(date +%s) + 91 * 86400 ))
ASHES_NOW=$later run db prune --retention --config "$conf"
t_is "prune --retention: exit 0" 0 "$rc"
n=$(q "SELECT count(*) FROM inbound WHERE id IN ($g1_mails)")
t_has "prune says how many mails it reduced" "mails of ended games: $n reduced to their signed parts" "$out"
t_is "every mail of game 1 reduced" "$n" \
	"$(q "SELECT count(*) FROM inbound WHERE id IN ($g1_mails) AND reduced = 'signed'")"
t_is "game 2's mails kept as received" 0 \
	"$(q "SELECT count(*) FROM inbound i JOIN moves m ON m.inbound_id = i.id WHERE m.game_id = 2 AND i.reduced IS NOT NULL")"
t_is "no header of the mails left in game 1's" 0 \
	"$(q "SELECT count(*) FROM inbound WHERE id IN ($g1_mails) AND (instr(raw, 'Received:') OR instr(raw, 'From:') OR instr(raw, 'Date:') OR instr(raw, 'Message-ID:') OR instr(raw, 'Return-Path') OR instr(raw, '192.0.2.7') OR instr(raw, 'alice@example.org') OR instr(raw, 'Autocrypt:'))")"
t_is "the bare reply keeps its thread line" 1 \
	"$(q "SELECT count(*) FROM inbound WHERE id IN ($g1_mails) AND instr(raw, 'In-Reply-To: <ashes.1.3.5.0@club.example>')")"
t_is "the Thunderbird mails: the encrypted message as it came" 2 \
	"$(q "SELECT count(*) FROM inbound WHERE id IN ($g1_mails) AND instr(raw, 'multipart/encrypted') AND instr(raw, 'application/octet-stream')")"
t_is "the refused mail: no bytes, its row and outcome kept" "0|dropped|refused: unsigned" \
	"$(q "SELECT length(raw), reduced, substr(outcome, 1, 17) FROM inbound WHERE id = $refused")"
t_ok_if "and fewer bytes than before" [ "$(q "SELECT sum(length(raw)) FROM inbound WHERE id IN ($g1_mails)")" -lt \
	"$(du -b "$tmp/before" | tail -1 | cut -f1)" ]
run db check --config "$conf"
t_is "the database is sound" 0 "$rc"

# ---- after -----------------------------------------------------------
run archive export 1 -o "$tmp/after" --config "$conf"
t_is "export after retention" 0 "$rc"
run archive verify "$tmp/after" --daemon-key "$daemon_fpr"
t_is "verify after retention: exit 0" 0 "$rc"
t_is "verify after: the same plies, bindings and signers" \
	"$(printf '%s\n' "$before_out" | grep '^ply \|^resignation')" \
	"$(printf '%s\n' "$out" | grep '^ply \|^resignation')"
t_has "verify after: the bare reply bound by its thread" "bound only by the unsigned In-Reply-To header" "$out"
# (but for the time of the export)
t_is "the same record" "$(grep -v '^Annotator:' "$tmp/before/record.txt")" \
	"$(grep -v '^Annotator:' "$tmp/after/record.txt")"
same=0 files=0
for f in "$tmp"/before/*.signed "$tmp"/before/*.asc "$tmp"/before/*.sig \
	"$tmp"/before/*.pgp "$tmp"/before/*.eml; do
	[ -e "$f" ] && [ "${f##*/}" != MANIFEST.asc ] || continue
	files=$((files + 1))
	cmp -s "$f" "$tmp/after/${f##*/}" && same=$((same + 1))
done
t_is "the same signed parts, signatures and public copies ($files files)" \
	"$files" "$same"
ASHES_NOW=$later run db prune --retention --config "$conf"
t_has "a second prune: nothing more" "mails of ended games: 0 reduced" "$out"
t_end
