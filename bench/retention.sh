#!/bin/bash
# bench/retention.sh [PLIES] -- the stored bytes per move of a long game,
# before and after [retention] (no mail servers: the real ashesd --once
# over a folder of signed mails, its replies sent to a local SMTP sink,
# so that they are sent mails with their html and pictures):
#   what the game added to the database's bytes in use (VACUUMed; an
#   empty club's tables have a page each) and to each table's, divided
#   by the moves, after the game (PLIES moves, default 60, at size 7, half
#   PGP/MIME and half inline, each mail with the headers a real one
#   carries), and again after `ashes db prune --retention` 91 days later.
#   Target: at most 8 KB a move after retention.
# Runs alone too: ASHES_BUILDDIR=_build bash bench/retention.sh 80
set -u
: "${ASHES_SRCDIR:=$(cd "$(dirname "$0")/.." && pwd)}"
. "$ASHES_SRCDIR/tests/lib.sh"
unset ASHES_DB ASHES_NOW
plies=${1:-80}
t_need gpg sqlite3 python3
t_tmp
conf=$tmp/ashesd.conf
db=$tmp/ashes.db
t_smtp_sink 0
t_players alice bob
t_import "$tmp/daemon-gnupg" alice bob
mkdir "$tmp/mail"
{
	t_conf "$tmp/mail" "$db" "$tmp/daemon-gnupg" \
		"url = smtp://127.0.0.1:$(cat "$tmp/port")" "starttls = no"
	printf '[game]\nsize = 7\n'
} >"$conf"
t_add_players "$conf" alice bob

seq=0
send() { # WHO pgpmime|inline BODY
	local who=$1 mode=$2 body=$3 f part
	seq=$((seq + 1))
	f=$tmp/mail/$seq.eml
	{
		printf 'Return-Path: <%s@example.org>\r\n' "$who"
		printf 'Received: from mx.example.org (mx.example.org [192.0.2.7])\r\n\tby club.example (Postfix) with ESMTPS id 4Q%05d\r\n\tfor <ashes@club.example>; %s\r\n' "$seq" "$(date -R)"
		printf 'Received: from [10.0.0.2] (unknown [198.51.100.4])\r\n\tby mx.example.org (Postfix) with ESMTPSA id 9F%05d;\r\n\t%s\r\n' "$seq" "$(date -R)"
		printf 'DKIM-Signature: v=1; a=rsa-sha256; c=relaxed/relaxed; d=example.org;\r\n\ts=mail; t=%s; bh=47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=;\r\n\th=From:To:Subject:Date; b=%s\r\n' "$(date +%s)" "$(head -c 256 /dev/urandom | base64 -w0)"
		printf 'From: %s <%s@example.org>\r\nTo: ashes@club.example\r\n' "$who" "$who"
		printf 'Subject: Re: [ashes #1] your move\r\nDate: %s\r\n' "$(date -R)"
		printf 'Message-ID: <t%d.%s@example.org>\r\n' "$seq" "$who"
		printf 'User-Agent: Mozilla Thunderbird\r\nContent-Language: en-GB\r\n'
		printf 'MIME-Version: 1.0\r\n'
	} >"$f.tmp"
	if [ "$mode" = pgpmime ]; then
		part=$(printf 'Content-Type: text/plain; charset=UTF-8; format=flowed\r\nContent-Transfer-Encoding: 7bit\r\n\r\n%s\r\n' \
			"$(printf '%s' "$body" | sed 's/$/\r/' | sed '$ s/\r$//')"; echo x)
		t_signed "$who" "${part%x}" >>"$f.tmp"
	else
		printf 'Content-Type: text/plain; charset=utf-8\r\n\r\n' >>"$f.tmp"
		printf '%s\n' "$body" | GNUPGHOME=$tmp/gnupg-$who gpg --batch \
			--clearsign 2>/dev/null | sed 's/$/\r/' >>"$f.tmp"
	fi
	t_deliver "$conf" "$f"
}

# The stored bytes, VACUUMed, by table (indexes with their table):
# into FILE, "TABLE BYTES" lines, "all" the whole.
measure() { # FILE
	sqlite3 "$db" 'VACUUM' || exit 1
	{
		sqlite3 -separator ' ' "$db" "SELECT 'all', (page_count - freelist_count) * page_size FROM pragma_page_count(), pragma_freelist_count(), pragma_page_size()"
		sqlite3 -separator ' ' "$db" "SELECT coalesce(m.tbl_name, d.name), sum(d.pgsize) FROM dbstat d LEFT JOIN sqlite_schema m ON m.name = d.name GROUP BY 1"
	} >"$1"
}
# What the game added to the empty club (its tables' first pages), per
# move: the whole, and the tables that grew most.
figures() { # LABEL
	measure "$tmp/now"
	python3 - "$1" "$n" "$tmp/empty" "$tmp/now" <<'PY'
import sys
label, n = sys.argv[1], int(sys.argv[2])
read = lambda f: {k: int(v) for k, v in (l.split() for l in open(f))}
e, c = read(sys.argv[3]), read(sys.argv[4])
grown = {k: c[k] - e.get(k, 0) for k in c}
print("%s: %d bytes in use, %d more than the empty club: %.1f KB a move"
      % (label, c["all"], grown["all"], grown["all"] / n / 1024))
for k in sorted((k for k in grown if k != "all"), key=lambda k: -grown[k])[:6]:
    print("  %-20s %9d bytes  %6.2f KB a move" % (k, grown[k], grown[k] / n / 1024))
PY
	awk '$1 == "all" { print $2 }' "$tmp/now" >"$tmp/bytes"
}
measure "$tmp/empty"

t0=$(date +%s)
send alice pgpmime "challenge bob size=7"
send bob inline "accept 1"
h=()
for ((i = 1; i <= plies; i++)); do
	who=alice mode=pgpmime
	[ $((i % 2)) = 0 ] && who=bob mode=inline
	# the middle one of the legal moves: a long game (the first ends
	# one in some twenty moves)
	mapfile -t legal < <("$ashes" legal --size 7 "${h[@]}")
	[ ${#legal[@]} -gt 0 ] || break
	m=${legal[$(( ${#legal[@]} / 2 ))]}
	send $who $mode "move 1 $i $m

Thanks for the game so far!
--
$who"
	h+=("$m")
	[ "$("$ashes" games --all --config "$conf" | grep -c '^ *1  finished')" = 1 ] && break
done
n=${#h[@]}
[ "$("$ashes" games --all --config "$conf" | grep -c '^ *1  finished')" = 1 ] ||
	send alice pgpmime "resign 1"
echo "game: $n moves in $(( $(date +%s) - t0 )) s, $(find "$tmp/sent" -type f | wc -l) mails sent, $(sqlite3 "$db" 'SELECT count(*) FROM inbound') read"
figures "before retention"
out=$(ASHES_NOW=$(( $(date +%s) + 91 * 86400 )) "$ashes" db prune --retention --config "$conf" 2>&1) ||
	{ echo "ashes db prune: $out"; exit 1; }
printf '%s\n' "$out" | sed 's/^/  prune: /'
figures "after retention"
grown=$(( $(cat "$tmp/bytes") - $(awk '$1 == "all" { print $2 }' "$tmp/empty") ))
printf 'target: at most 8.0 KB a move after retention: %s\n' \
	"$( [ "$grown" -le $((8 * 1024 * n)) ] && echo met || echo NOT met)"
