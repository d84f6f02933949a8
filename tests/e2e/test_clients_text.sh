#!/bin/bash
# tests/e2e/test_clients_text.sh -- what real mail clients do to a
# player's text, through the real ashesd between a real Dovecot and
# Postfix with real gpg keys (issue 23, items 1, 4, 5, 6).  Each mail is
# built the way the client writes it (from its sources and documentation;
# see the builders in clients.py below), signed by the test over exactly
# the bytes the client signs:
#   Thunderbird, PGP/MIME, format=flowed (quoted-printable, wrapped at 72
#     columns with a space at each wrap, as nsIDocumentEncoder's
#     OutputFormatFlowed writes): a challenge whose draw=no is past the
#     wrap keeps it; a 117-character note arrives whole;
#   an inline clearsigned text in a flowed part: a soft break added after
#     signing (trailing blanks are outside a clearsigned signature) joins
#     nothing;
#   HTML-only webmail with a pasted clearsigned move: Gmail (a <div> a
#     line, <div><br></div> a blank one), Outlook on the web (styled divs),
#     Proton (a <br> in each div, its signature block below): each
#     verifies and plays;
#   Gmail's multipart/alternative whose text/plain turned a double blank
#     into U+00A0: the text/html alternative verifies and plays; a
#     text/plain alone with U+00A0 is refused naming the no-break spaces,
#     and a registered player gets that answer three times a day;
#   a bare reply quoting the "your move" mail as Thunderbird, Outlook
#     (two styles), Apple Mail, K-9 and Gmail quote it: each is taken;
#   footers and sign-offs: Proton's locked footer, K-9's, a bare name, a
#     closing: the mail is recorded as run, nothing refused; a slip below
#     a closing is still answered.
set -u
. "${ASHES_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/e2e/lib-hostile.sh"

h_start "[game]
size = 5"
for who in tina carol; do h_add_user "$who"; done
h_players alice bob tina carol

# ---- the clients' shapes ---------------------------------------------------
cat >clients.py <<'EOF'
"""Text entities as mail clients write them (CRLF).  Usage:
  clients.py flowed FILE        Thunderbird: text/plain format=flowed, QP
  clients.py flowed-raw FILE    the same, FILE already flowed (8bit)
  clients.py html STYLE FILE    text/html as STYLE (gmail|outlook|proton)
                                writes a pasted plain text
  clients.py gmail-alt FILE     Gmail: multipart/alternative, text/plain
                                with U+00A0 for a double blank + text/html
  clients.py gmail-plain FILE   Gmail's text/plain alone (U+00A0)"""
import html, quopri, sys

def crlf(s):
    return s.replace("\r\n", "\n").replace("\n", "\r\n")

def wrap72(line):
    # nsPlainTextSerializer with OutputFormatFlowed: break at the last
    # space within 72 columns, the space kept at the end of the line
    out = []
    while len(line) > 72:
        cut = line.rfind(" ", 0, 73)
        if cut <= 0:
            break
        out.append(line[:cut + 1])
        line = line[cut + 1:]
    out.append(line)
    return out

def qp(text):
    b = quopri.encodestring(text.encode("utf-8"), quotetabs=False)
    return crlf(b.decode("ascii"))

def flowed(text, wrap=True):
    lines = []
    for l in text.split("\n"):
        if l.startswith((" ", ">", "From ")):
            l = " " + l            # space-stuffing (RFC 3676 4.4)
        lines.extend(wrap72(l) if wrap else [l])
    return "\n".join(lines)

def nbsp_runs(line):
    # a browser editor keeps a run of blanks as "&nbsp; " pairs
    out, i = "", 0
    while i < len(line):
        if line[i] == " " and (i + 1 < len(line) and line[i + 1] == " " or i == 0):
            out += "&nbsp;"
        else:
            out += html.escape(line[i], quote=False)
        i += 1
    return out

def html_body(style, text):
    lines = text.rstrip("\n").split("\n")
    if style == "gmail":
        body = "".join("<div>%s</div>" % nbsp_runs(l) if l else "<div><br></div>"
                       for l in lines)
        return '<div dir="ltr">%s</div>\n' % body
    if style == "outlook":
        div = ('<div class="elementToProof" style="font-family: Aptos, '
               'Aptos_EmbeddedFont, Calibri, Helvetica, sans-serif; '
               'font-size: 12pt; color: rgb(0, 0, 0);">')
        body = "\n".join(div + ("<span>%s</span>" % nbsp_runs(l) if l else "<br>")
                         + "</div>" for l in lines)
        return ('<html><head><meta http-equiv="Content-Type" content="text/html; '
                'charset=utf-8"><style type="text/css" style="display:none;"> '
                'P {margin-top:0;margin-bottom:0;} </style></head>'
                '<body dir="ltr">\n%s\n</body></html>\n' % body)
    if style == "proton":
        div = '<div style="font-family: Arial, sans-serif; font-size: 14px;">'
        body = "".join(div + (nbsp_runs(l) + "<br>" if l else "<br>") + "</div>"
                       for l in lines)
        return (body + div + "<br></div>"
                '<div class="protonmail_signature_block" style="font-family: '
                'Arial, sans-serif; font-size: 14px;"><div class="protonmail_'
                'signature_block-user protonmail_signature_block-empty"></div>'
                '<div class="protonmail_signature_block-proton">Sent with '
                '<a target="_blank" href="https://proton.me/mail/home">Proton '
                'Mail</a> secure email.</div></div>\n')
    raise SystemExit("style " + style)

def gmail_plain(text):
    # what Gmail derives from its HTML: &nbsp; becomes U+00A0
    return "\n".join(l.replace("  ", "\u00a0 ") for l in text.rstrip("\n").split("\n")) + "\n"

def entity(ctype, body):
    return ("Content-Type: %s\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n"
            % ctype) + qp(body)

mode, rest = sys.argv[1], sys.argv[2:]
text = open(rest[-1], encoding="utf-8").read()
if mode == "flowed":
    out = entity("text/plain; charset=UTF-8; format=flowed", flowed(text) + "\n")
elif mode == "flowed-raw":
    out = ("Content-Type: text/plain; charset=UTF-8; format=flowed\r\n"
           "Content-Transfer-Encoding: 8bit\r\n\r\n") + crlf(text)
elif mode == "html":
    out = entity("text/html; charset=UTF-8", html_body(rest[0], text))
elif mode == "gmail-alt":
    b = "000000000000gmailalt0001"
    out = ('Content-Type: multipart/alternative; boundary="%s"\r\n\r\n--%s\r\n' % (b, b)
           + entity("text/plain; charset=\"UTF-8\"", gmail_plain(text))
           + "\r\n--%s\r\n" % b
           + entity("text/html; charset=\"UTF-8\"", html_body("gmail", text))
           + "\r\n--%s--\r\n" % b)
elif mode == "gmail-plain":
    out = entity("text/plain; charset=\"UTF-8\"", gmail_plain(text))
else:
    raise SystemExit("mode " + mode)
sys.stdout.buffer.write(out.encode("ascii"))
EOF

# c_send WHO SIGN MODE [STYLE] TEXT: TEXT as the client's entity (MODE of
# clients.py), SIGN pgpmime (detached over the entity) or none (the
# entity is the mail; a clearsigned TEXT signs itself).  IN_MSGID is set.
c_send() {
	local who=$1 sign=$2 mode=$3
	shift 3
	printf '%s\n' "${@: -1}" >c.txt
	python3 -S clients.py "$mode" "${@:1:$#-1}" c.txt >c.ent ||
		e2e_fail "clients.py $mode failed"
	in_mail c.eml "$who" "$sign" c.ent
	in_send "$who" c.eml
}

# c_decoded: the last entity's text, its quoted-printable undone.
c_decoded() {
	python3 -S -c 'import quopri, sys
sys.stdout.write(quopri.decodestring(open("c.ent", "rb").read()).decode("utf-8", "replace").replace("\r", ""))'
}

# c_outcome DESC PREFIX: the last mail's outcome starts with PREFIX.
c_outcome() { h_is_outcome "$1" "$2" "$IN_MSGID"; }

HIST=()
# c_pick: a legal next move after HIST, into MV.
c_pick() { MV=$(in_legal "${HIST[@]}" | head -n 1); }

# c_ply_wait GAME N: until GAME has N plies (10 s).
c_ply_wait() {
	for _ in $(seq 1 100); do
		[ "$(in_game_ply "$1")" = "$2" ] && return 0
		sleep 0.1
	done
	return 1
}

# ---- 1. Thunderbird: format=flowed, PGP/MIME --------------------------------
T1=$(date +%s%N)
line="challenge bob size=5 tax=lost clock=days:3 weekends=off vacation=no draw=no"
na=$(mail_count alice)
c_send alice pgpmime flowed "$line"
t_has "flowed: the challenge line (${#line} characters) is wrapped at column 72 in the mail" \
	'vacation=no $' "$(c_decoded)"
c_outcome "flowed: Thunderbird's wrapped challenge is recorded as run" "ok"
in_reply alice "Game [0-9]+ created" "$na" && game=$(e2e_game_of "$R")
game=${game:-0}
nb=$(mail_count bob)
player_send bob pgpmime "Re: [ashes #$game]" "accept $game"
raw_wait alice "move $game 1 MOVE" 30 "$na" >/dev/null ||
	t_fail "flowed: game $game started"

# 117 characters for game 1, as the report measured
note="message $game Thanks for the game! I am travelling next week, so my moves may come a bit slower than usual. Sorry, Alice!"
nb=$(mail_count bob)
c_send alice pgpmime flowed "$note"
c_outcome "flowed: the ${#note}-character note is recorded as run" "ok"
tail_words=${note: -24}
if in_reply bob "travelling" "$nb"; then
	t_has "flowed: the note arrives whole (its last 24 characters: \"$tail_words\")" \
		"$(printf '%s' "$tail_words" | sed 's/[].!?*[]/\\&/g')" \
		"$(e2e_digest "$R" | tr -s ' \n' '  ')"
fi
echo "# flowed cases: $(( ($(date +%s%N) - T1) / 1000000 )) ms"

# An inline clearsigned text in a flowed part: a blank added after the
# first line once signed (trailing blanks are outside a clearsigned
# signature: gpg drops them) must not join its two commands.
in_clearsign alice "message $game see you
board $game" >cs.txt
sed -i '0,/^message /s/^\(message .*\)$/\1 /' cs.txt
t_has "inline flowed: the signed line now ends in a soft break" "see you \$" "$(cat cs.txt)"
nb=$(mail_count bob)
c_send alice none flowed-raw "$(cat cs.txt)"
c_outcome "inline flowed: both commands run (a soft break outside the signature joins nothing)" \
	"ok: 2 commands"
if in_reply bob "see you" "$nb"; then
	t_hasnt "inline flowed: the note is not run together with the next line" \
		"see you board" "$(e2e_digest "$R" | tr -s ' \n' '  ')"
fi

# ---- 4. HTML-only webmail, a pasted clearsigned move --------------------------
T4=$(date +%s%N)
ply=0
for style in gmail outlook proton; do
	ply=$((ply + 1))
	who=alice
	[ $((ply % 2)) = 0 ] && who=bob
	c_pick
	in_clearsign "$who" "move $game $ply $MV

board $game" >cs.txt
	c_send "$who" none html "$style" "$(cat cs.txt)"
	c_outcome "html ($style): the pasted clearsigned move of $who verifies and runs" "ok"
	if c_ply_wait "$game" "$ply"; then
		t_ok "html ($style): ply $ply ($MV) is played"
		HIST+=("$MV")
	else
		t_fail "html ($style): ply $ply ($MV) is played" "plies: $(in_game_ply "$game")"
	fi
done
echo "# html cases: $(( ($(date +%s%N) - T4) / 1000000 )) ms"

# ---- 6. Gmail's U+00A0 ----------------------------------------------------------
ply=$((ply + 1))
c_pick
in_clearsign bob "move $game $ply $MV

message $game well  played" >cs.txt
c_send bob none gmail-alt "$(cat cs.txt)"
t_has "nbsp: Gmail's text/plain holds U+00A0 where the signed text has two blanks" \
	$'well\u00a0 played' "$(c_decoded)"
c_outcome "nbsp: the text/plain fails, its text/html alternative verifies and runs" "ok"
if c_ply_wait "$game" "$ply"; then
	t_ok "nbsp: ply $ply ($MV) is played from the HTML alternative"
	HIST+=("$MV")
else
	t_fail "nbsp: ply $ply ($MV) is played from the HTML alternative"
fi

# The challenge's draw=no, past Thunderbird's wrap, held.
nb=$(mail_count bob)
player_send bob pgpmime "Re: [ashes #$game]" "draw offer $game"
if in_reply bob "without draw offers" "$nb"; then
	t_ok "flowed: draw=no past the wrap was kept: bob's draw offer is refused"
fi

# The text/plain alone: refused, and the refusal names the cause; bob is a
# registered player and it is his own key, so he gets it three times a day.
in_clearsign bob "games

message $game good  game" >cs.txt
nb=$(mail_count bob)
for try in 1 2 3 4; do
	c_send bob none gmail-plain "$(cat cs.txt)"
	if [ "$try" -lt 4 ]; then
		c_outcome "nbsp: Gmail's text/plain alone (try $try) is refused as changed to no-break spaces" \
			"refused: bad_signature_nbsp"
	else
		c_outcome "nbsp: the fourth try today is not answered" \
			"refused: bad_signature_nbsp (not answered"
	fi
done
if in_reply bob "no-break spaces" "$nb"; then
	t_has "nbsp: the refusal says what the mail program did" "U\\+00A0" \
		"$(e2e_digest "$R")"
fi
in_wait_sent 20
t_is "nbsp: bob got three refusals for four tries" 3 \
	"$(e2e_mails bob | tail -n +$((nb + 1)) | xargs -r grep -l -F "no-break" | wc -l)"

# ---- a bare reply in each client's quoting style ---------------------------------
# The move alone on the first line, the "your move" mail below it as each
# client quotes it: only the quoted mail names the game.  Thunderbird's
# "On DATE, NAME wrote:" and "> "; Outlook (GpgOL, plain text): a rule of
# underscores and the headers, the original not quoted; Apple Mail's
# attribution inside the quote; K-9's; Gmail's attribution wrapped over
# two lines; the older Outlook's "-----Original Message-----".
TQ=$(date +%s%N)
for style in thunderbird outlook apple k9 gmail outlook-old; do
	ply=$((ply + 1))
	who=alice
	[ $((ply % 2)) = 0 ] && who=bob
	c_pick
	f=$(raw_wait "$who" "move $game $ply MOVE" 30) ||
		{ t_fail "quote ($style): $who has a your-move mail for ply $ply"; continue; }
	subj=$(mail_header "$f" Subject)
	orig=$(e2e_digest "$f" | sed 1d)
	quoted=$(printf '%s\n' "$orig" | sed 's/^/> /')
	case $style in
	thunderbird) body="$MV

On 12/2/26 02:40, Ashes club wrote:
$quoted" ;;
	outlook) body="$MV

________________________________
From: Ashes club <ashes@$D>
Sent: Wednesday, December 2, 2026 2:40 AM
To: $who <$who@$D>
Subject: $subj

$orig" ;;
	apple) body="$MV

> On 2 Dec 2026, at 02:40, Ashes club <ashes@$D> wrote:
> 
$quoted" ;;
	k9) body="$MV

On December 2, 2026 2:40:00 AM UTC, Ashes club <ashes@$D> wrote:
$quoted" ;;
	gmail) body="$MV

On Wed, Dec 2, 2026 at 2:40 AM Ashes club <
ashes@$D> wrote:

$quoted" ;;
	outlook-old) body="$MV

-----Original Message-----
From: Ashes club [mailto:ashes@$D]
Sent: Wednesday, December 2, 2026 2:40 AM
To: $who
Subject: $subj

$orig" ;;
	esac
	n=$(mail_count "$who")
	player_send "$who" pgpmime "Re: $subj" "$body" \
		"In-Reply-To: $(mail_header "$f" Message-ID)"
	if raw_wait "$who" "Taken: move $game $ply $MV" 30 "$n" >/dev/null; then
		t_ok "quote ($style): $who's bare $MV, the mail quoted below, is ply $ply"
		HIST+=("$MV")
	else
		t_fail "quote ($style): $who's bare $MV, the mail quoted below, is ply $ply" \
			"plies: $(in_game_ply "$game")"
	fi
done
echo "# quote cases: $(( ($(date +%s%N) - TQ) / 1000000 )) ms"

# ---- the archive proves the moves read from HTML ---------------------------------
# (the U+00A0 one from the text/html alternative: the export takes the
# block the inbound reading took)
e2e_daemon_key
na=$(mail_count alice)
player_send alice pgpmime "Re: [ashes #$game]" "resign $game"
in_reply alice "game $game is over" "$na" 30
e2e_ashes archive export "$game" -o "$E2E_DIR/arch" --config "$E2E_DIR/ashesd.conf" \
	>export.out 2>&1
t_is "archive: export exits 0" 0 "$?"
e2e_ashes archive verify "$E2E_DIR/arch" --daemon-key "$dfpr" >verify.out 2>&1
rc=$?
sed 's/^/#   /' verify.out
t_is "archive: verify exits 0 (the HTML-only plies and the U+00A0 one proven)" 0 "$rc"
t_is "archive: one line per ply (${#HIST[@]}: the HTML-only ones, the U+00A0 one, the bare replies)" "${#HIST[@]}" "$(grep -c '^ply [0-9]* ' verify.out)"

# ---- 5. footers and sign-offs ------------------------------------------------------
nt=$(mail_count tina)
c_send tina pgpmime flowed "games

Tina

Sent with Proton Mail secure email."
c_outcome "footer: Proton Mail's locked footer and a bare name: recorded as run" "ok: 1 command"
if in_reply tina "You have no games|Your games" "$nt"; then
	t_hasnt "footer: the reply refuses nothing" "not a command|Refused" "$(e2e_digest "$R")"
fi
nc=$(mail_count carol)
c_send carol pgpmime flowed "games

Sent from my Android device with K-9 Mail. Please excuse my brevity."
c_outcome "footer: K-9's footer (70 characters, no \"-- \"): recorded as run" "ok: 1 command"
c_send carol pgpmime flowed "games
Cheers, Carol

Get Outlook for Android"
c_outcome "footer: a closing and Outlook mobile's footer: recorded as run" "ok: 1 command"
c_send carol pgpmime flowed "games
Thanks
resgn $game"
c_outcome "footer: a slip below a closing is still refused" "refused: line 3"
if in_reply carol "did you mean" "$nc" 30; then
	t_ok "footer: ... with its suggestion"
fi
t_hasnt "no reply of the run says \"Sent\" or a name is not a command" \
	'"(Sent|Tina|Carol|Cheers, Carol)" is not a command' \
	"$(for w in tina carol; do e2e_mails "$w" | xargs -r cat; done)"

t_done
