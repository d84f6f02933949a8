#!/bin/bash
# tests/e2e/test_hostile_mime.sh -- hostile mail shapes, through the real
# ashesd between a real Dovecot and Postfix with real gpg keys:
#   remote crash: ~28,000 nested message/rfc822 parts are refused as
#     unreadable (nesting deeper than 32 levels) and the daemon goes on;
#   poison mail: a mail the daemon dies on (the ASHES_TEST_CRASH_ON test
#     hook) is set aside in the Quarantine folder after 3 crashes, and the
#     mail behind it is handled once;
#   unsigned commands: a Subject is never run, only the signed text;
#   quoted HTML: a blockquote (or Gmail's quote) in an HTML-only mail is
#     quoted text, not commands;
#   mailing lists: mail with List-Id or List-Post is never answered;
#   storage: a mail over [limits] max_message_size keeps only its header
#     block in the database; a key with a 600 KB photo ID is refused and
#     the daemon's keyring does not take it.
# Each check reads the outcome the daemon recorded (`ashes inbound
# list`), the store, the mailboxes and the daemon's keyring.
set -u
. "${ASHES_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/e2e/lib-hostile.sh"
command -v sqlite3 >/dev/null 2>&1 || { echo "# SKIP: no sqlite3"; exit 77; }

# h_raw_outcome TEXT [SECS]: the outcome of the mail whose stored bytes
# hold TEXT (a mail the daemon could not parse is recorded without its
# Message-ID); waits until there is one.
h_raw_outcome() {
	local o
	for _ in $(seq 1 $((${2:-30} * 5))); do
		o=$(sqlite3 "$E2E_DIR/ashes.db" \
			"select outcome from inbound where instr(cast(raw as text), '$1') > 0")
		[ -n "$o" ] && break
		sleep 0.2
	done
	printf '%s\n' "$o"
}

h_start "[game]
size = 3"
ulimit -c 0 # the crash hook must not leave core files

h_players alice bob
game_new alice bob 3 pgpmime
G=$G_GAME
hist=()
# move WHO PLY: WHO sends the first legal move (PGP/MIME); its outcome.
move() {
	local mv
	mv=$(e2e_ashes legal --size 3 "${hist[@]}" | head -n 1)
	in_entity_text "move $G $2 $mv" >ent
	in_mail move.eml "$1" pgpmime ent
	in_send "$1" move.eml
	hist+=("$mv")
	MOVE_ID=$IN_MSGID MOVE=$mv
}

# ---- 1. ~28,000 nested message/rfc822 parts ----------------------------------
python3 - "$D" nested.eml <<'PY'
import sys, time, email.utils
d, out = sys.argv[1], sys.argv[2]
with open(out, "wb") as f:
    f.write(("From: alice <alice@%s>\r\nTo: ashes@%s\r\nSubject: nested\r\n"
             "Date: %s\r\nMessage-ID: <nested.%d@%s>\r\nMIME-Version: 1.0\r\n"
             % (d, d, email.utils.formatdate(), time.time_ns(), d)).encode())
    f.write(b"Content-Type: message/rfc822\r\n\r\n" * 28000)
    f.write(b"Content-Type: text/plain\r\n\r\nhelp\r\n")
PY
nested_id=$(sed -n 's/^Message-ID: <\(.*\)>\r$/\1/p' nested.eml | head -n 1)
size=$(stat -c %s nested.eml)
t_is "nested: the mail is about 900 KB" 1 "$(( size > 880000 && size < 920000 ))"
na=$(mail_count alice)
in_send alice nested.eml
o=$(h_raw_outcome "$nested_id" 60)
t_has "nested: refused as unreadable" "^refused: unreadable" "$o"
t_is "nested: recorded once" 1 "$(printf '%s\n' "$o" | grep -c .)"
# why, where someone can read it: the reply to alice, or the daemon's log
why=$(cat ashesd.log)
R=$(wait_mail alice "could not be read" 5 "$na") && why+=$(e2e_digest "$R")
t_has "nested: the reply or the log names nesting deeper than 32 levels" \
	"nested deeper than 32 levels" "$why"
if kill -0 "$E2E_DAEMON_PID" 2>/dev/null; then
	t_ok "nested: the daemon is still running"
else
	t_fail "nested: the daemon is still running"
fi
na=$(mail_count alice)
move alice 1
h_is_outcome "nested: a signed move after it is applied" "ok: 1 command" "$MOVE_ID"
in_reply alice "Taken: move $G 1 $MOVE" "$na" && t_ok "nested: and answered"
t_is "nested: game $G at ply 1" 1 "$(h_ply "$G")"

# ---- 4. a command in the Subject ------------------------------------------------
nb=$(mail_count bob)
in_entity_text "board $G" >ent
IN_SUBJECT="resign $G" in_mail m.eml bob pgpmime ent
in_send bob m.eml
h_is_outcome "Subject 'resign $G', signed text 'board $G': only the board runs" \
	"ok: 1 command" "$IN_MSGID"
t_is "Subject: game $G still active" active "$(h_status "$G")"
if in_reply bob "^Game $G " "$nb"; then
	t_has "Subject: the reply carries the board" "^> board $G" "$(e2e_digest "$R")"
	t_has "Subject: the reply says the Subject was not run" \
		"the Subject of your mail reads like a command, but" "$(e2e_digest "$R")"
fi

# ---- 5. quoted HTML ----------------------------------------------------------------
# html_mail WHO HTML: a PGP/MIME mail whose only text part is text/html
html_mail() {
	{
		printf 'Content-Type: text/html; charset=utf-8\r\n\r\n'
		printf '<html><body>%s</body></html>\r\n' "$2"
	} >ent
	in_mail m.eml "$1" pgpmime ent
	in_send "$1" m.eml
}
nb=$(mail_count bob)
html_mail bob "<p>board $G</p><blockquote type=\"cite\">resign $G</blockquote>"
h_is_outcome "HTML blockquote: only 'board' runs" "ok: 1 command" "$IN_MSGID"
t_is "HTML blockquote: game $G still active" active "$(h_status "$G")"
in_reply bob "^> board $G" "$nb" && t_ok "HTML blockquote: the board is answered"
nb=$(mail_count bob)
html_mail bob "<div dir=\"ltr\"><p>board $G</p></div><br><div class=\"gmail_quote\">resign $G</div>"
h_is_outcome "Gmail quote: only 'board' runs" "ok: 1 command" "$IN_MSGID"
t_is "Gmail quote: game $G still active" active "$(h_status "$G")"
in_reply bob "^> board $G" "$nb" && t_ok "Gmail quote: the board is answered"

# ---- 10. mailing lists -------------------------------------------------------------
in_wait_sent 20
na=$(mail_count alice)
in_entity_text "board $G
-- 
list-id" >ent
in_mail m.eml alice pgpmime ent "List-Id: Ashes fans <ashes-fans.lists.example>"
list1=$IN_MSGID
in_send alice m.eml
in_entity_text "board $G
-- 
list-post" >ent
in_mail m.eml alice pgpmime ent "List-Post: <mailto:ashes-fans@lists.example>"
list2=$IN_MSGID
in_send alice m.eml
h_is_outcome "List-Id: ignored as list mail" "ignored: list" "$list1"
h_is_outcome "List-Post: ignored as list mail" "ignored: list" "$list2"
in_wait_sent 20
sleep 1
t_is "list mail: not answered" "$na" "$(mail_count alice)"

# ---- 11. storage: too big --------------------------------------------------------
{
	printf 'Content-Type: multipart/mixed; boundary="big-b"\r\n\r\n'
	printf -- '--big-b\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nboard %s\r\n\r\n' "$G"
	printf -- '--big-b\r\nContent-Type: application/octet-stream\r\n'
	printf 'Content-Transfer-Encoding: base64\r\n\r\n'
	head -c $((1200 * 1024)) /dev/urandom | base64 -w 76 | sed 's/$/\r/'
	printf -- '--big-b--\r\n'
} >ent
in_mail big.eml bob pgpmime ent
big_id=$IN_MSGID
in_send bob big.eml
h_is_outcome "a mail over max_message_size (1 MiB): refused as too big" "refused: too_big" "$big_id"
row=$(sqlite3 "$E2E_DIR/ashes.db" "select length(raw), raw_truncated from inbound where outcome like 'refused: too_big%'")
echo "# stored for it: $row (length of raw | raw_truncated)"
if [ "$(printf '%s\n' "$row" | grep -c .)" = 1 ] && [ "${row#*|}" = 1 ] &&
	[ "${row%|*}" -gt 0 ] && [ "${row%|*}" -lt 8192 ]; then
	t_ok "too big: the database keeps only its header block (truncated, ${row%|*} bytes)"
else
	t_fail "too big: the database keeps only its header block" "$row"
fi

# ---- 11. storage: a key with a 600 KB photo ID -----------------------------------
in_make_key frank 1y
{
	printf '\377\330\377\340\000\020JFIF\000\001\001\000\000\001\000\001\000\000'
	head -c 600000 /dev/urandom
	printf '\377\331'
} >photo.jpg
# gpg asks whether a JPEG this large is really meant
printf 'addphoto\n%s\ny\nsave\n' "$E2E_DIR/photo.jpg" |
	GNUPGHOME=$E2E_DIR/gnupg-frank gpg --batch --pinentry-mode loopback \
		--passphrase '' --command-fd 0 --edit-key "$(e2e_fpr frank)" >/dev/null 2>&1
e2e_pubkey frank >frank.asc
t_is "photo key: frank's public key is over 600 KB" 1 "$(( $(stat -c %s frank.asc) > 600000 ))"
kbx=$E2E_DIR/daemon-gnupg/pubring.kbx
kbx0=$(stat -c %s "$kbx")
players0=$(in_players)
in_entity_text "register frank

$(cat frank.asc)" >ent
in_mail m.eml frank pgpmime ent
frank_id=$IN_MSGID
in_send frank m.eml
h_is_outcome "photo key: the registration is refused" "refused: unknown_key" "$frank_id"
t_is "photo key: no player made" "$players0" "$(in_players)"
if GNUPGHOME=$E2E_DIR/daemon-gnupg gpg --batch --list-keys "$(e2e_fpr frank)" >/dev/null 2>&1; then
	t_fail "photo key: not in the daemon's keyring"
else
	t_ok "photo key: not in the daemon's keyring"
fi
t_is "photo key: the keyring did not grow by it (less than 64 KiB)" 1 \
	"$(( $(stat -c %s "$kbx") - kbx0 < 65536 ))"

# ---- 1. poison mail: quarantined after 3 crashes ---------------------------------
# With the daemon stopped: a mail holding the marker, then (once it is in
# the mailbox, so that it comes first) bob's move behind it.
marker=POISON-$(date +%s%N)
e2e_stop_daemon
in_entity_text "help
$marker" >ent
in_mail poison.eml mallory none ent
poison_id=$IN_MSGID
in_send mallory poison.eml
for _ in $(seq 1 100); do
	[ -n "$(in_doveadm search -u ashes mailbox INBOX header Message-ID "$poison_id")" ] && break
	sleep 0.1
done
nb=$(mail_count bob)
move bob 2
behind_id=$MOVE_ID behind_move=$MOVE
for _ in $(seq 1 100); do
	[ -n "$(in_doveadm search -u ashes mailbox INBOX header Message-ID "$behind_id")" ] && break
	sleep 0.1
done
export ASHES_TEST_CRASH_ON=$marker
echo "# the daemon dies of SIGSEGV three times now, on purpose (the test hook)"
crashes=0
for _ in 1 2 3; do
	game_restart_daemon
	if h_wait_dead 30; then
		grep -q 'test hook: crashing on this mail' "$E2E_DIR/ashesd.log" &&
			crashes=$((crashes + 1))
	fi
done
t_is "poison: the daemon died on it three times" 3 "$crashes"
game_restart_daemon
unset ASHES_TEST_CRASH_ON
t_is "poison: the 4th start sets it aside" \
	"ignored: quarantined after 3 attempts: the daemon died while handling it" \
	"$(h_raw_outcome "$marker" 30)"
t_is "poison: in the Quarantine folder" 1 \
	"$(in_doveadm search -u ashes mailbox Quarantine header Message-ID "$poison_id" | wc -l)"
flags=$(in_doveadm -f tab fetch -u ashes flags mailbox Quarantine header Message-ID "$poison_id" | tail -n +2)
t_hasnt "poison: left unread there" 'Seen' "$flags"
t_is "poison: no longer in INBOX" "" "$(in_doveadm search -u ashes mailbox INBOX header Message-ID "$poison_id")"
h_is_outcome "poison: bob's move behind it is applied" "ok: 1 command" "$behind_id"
t_is "poison: game $G at ply 2" 2 "$(h_ply "$G")"
in_reply bob "Taken: move $G 2 $behind_move" "$nb" && t_ok "poison: bob's move is answered"
in_wait_sent 20
sleep 1.5 # a second answer, if any, would be delivered by now
t_is "poison: bob's move is answered exactly once" 1 \
	"$(e2e_mails bob | tail -n +$((nb + 1)) | xargs -r grep -l -F "Taken: move $G 2 $behind_move" | wc -l)"
if kill -0 "$E2E_DAEMON_PID" 2>/dev/null; then
	t_ok "poison: the daemon runs on"
else
	t_fail "poison: the daemon runs on"
fi
# The operator's monitoring sees it: [status] quarantined_warning is 1.
status=$(e2e_ashes status -c "$E2E_DIR/ashesd.conf")
t_is "poison: ashes status warns (exit 1)" 1 "$?"
t_has "poison: ashes status names the quarantined mail" \
	'^quarantine +WARNING +1 mail quarantined in the last 7d \(warning at 1\)' "$status"

t_done
