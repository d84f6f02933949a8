#!/bin/bash
# tests/e2e/test_language_game.sh -- a whole game between a Korean and a
# German player by real signed mail: the real ashesd between a real
# Dovecot and Postfix with real gpg keys, and the translations of
# templates/ko/ and templates/de/.
#  1. alice registers with "Content-Language: ko-KR, ko;q=0.9, en", bob
#     with "Content-Language: de-DE, en" (as Thunderbird sends them):
#     each gets the welcome and the confirmation in that language;
#  2. alice challenges bob (size 3), bob accepts, they play until the
#     game ends, each sending one illegal move on the way, refused;
#  3. every mail each got is in the reader's language: a subject and a
#     text of it hold phrases that only that language's templates have,
#     none holds a phrase only the English templates have; the board
#     key, the legal-move headings, the refusal and the result mail say
#     the lines of their language's templates; both read and send the
#     same English command lines;
#  4. a size-5 game's "your move" as alice (Korean) reads it and bob's
#     (German) refusal are printed as "# " lines for the record.
# The phrases are read from the template files, so the test follows
# them: a line of a template is found by its place (the line after a
# section tag), which the translations keep.
set -u
. "$(dirname "$0")/lib-game.sh"
game_require_stack
T_START=$(date +%s)
export LC_ALL=C.UTF-8
TPL=$E2E_TOP/templates

e2e_start "[game]
size = 3"

# ---- the templates' phrases ---------------------------------------------
# Literal pieces of the mail templates (comments dropped, split at every
# {{...}} and line end, blanks trimmed), one a line, into three lists:
# the pieces of at least MIN characters with a letter that the English
# files have and neither translation (en-only), and those a translation
# has that the English files do not (ko-only, de-only).
python3 -S - "$TPL" "$E2E_DIR" <<'EOF'
import os, re, sys
top, out = sys.argv[1], sys.argv[2]
def texts(d):
    r = []
    for sub in ("", "mail"):
        p = os.path.join(d, sub)
        for n in sorted(os.listdir(p)):
            if n.endswith(".txt") and n not in ("calendar.txt", "words.txt"):
                r.append(open(os.path.join(p, n), encoding="utf-8").read())
    return r
def pieces(ts, least):
    s = set()
    for t in ts:
        t = re.sub(r"\{\{!.*?\}\}", "", t, flags=re.S)
        for line in t.split("\n"):
            for p in re.split(r"\{\{.*?\}\}", line):
                p = p.strip()
                if len(p) >= least and re.search(r"[^\W\d_]", p):
                    s.add(p)
    return s
raw = {l: "\n".join(texts(os.path.join(top, l) if l else top)) for l in ("", "ko", "de")}
en = pieces(texts(top), 12)
for l, least in (("ko", 4), ("de", 10)):
    mine = pieces(texts(os.path.join(top, l)), least)
    with open(os.path.join(out, l + "-only"), "w", encoding="utf-8") as f:
        f.write("".join(p + "\n" for p in sorted(mine) if p not in raw[""]))
with open(os.path.join(out, "en-only"), "w", encoding="utf-8") as f:
    f.write("".join(p + "\n" for p in sorted(en)
                    if p not in raw["ko"] and p not in raw["de"]))
EOF
[ -s "$E2E_DIR/en-only" ] && [ -s "$E2E_DIR/ko-only" ] && [ -s "$E2E_DIR/de-only" ] ||
	e2e_fail "no phrases read from the templates"

# tpl_line LANG FILE TAG: the line after the line TAG ("" for the first
# line after the leading comment) of templates/LANG/FILE (LANG "en": the
# English file).
tpl_line() {
	local f=$TPL/$2
	[ "$1" = en ] || f=$TPL/$1/$2
	if [ -z "$3" ]; then
		awk 'c { print; exit } /}}$/ { c = 1 }' "$f"
	else
		awk -v tag="$3" 'c { print; exit } $0 == tag { c = 1 }' "$f"
	fi
}
# pieces LINE: its literal pieces, one a line (at least 2 characters
# with a letter).
pieces() {
	printf '%s\n' "$1" | sed 's/{{[^}]*}}/\n/g' |
		sed 's/^[[:space:]]*//; s/[[:space:]]*$//' | grep '[[:alpha:]].'
}
# says WHAT LANG FILE TAG TEXT [first]: TEXT holds every piece of that
# line of LANG's template (with "first": its first piece, for a line
# whose sections say one thing or another), and no piece of the
# English one.
says() {
	local what=$1 lang=$2 file=$3 tag=$4 text=$5 first=${6:-} line p miss= en= k=0
	line=$(tpl_line "$lang" "$file" "$tag")
	[ -n "$line" ] || { t_fail "$what: no line after '$tag' in $lang/$file"; return; }
	while IFS= read -r p; do
		k=$((k + 1))
		[ -n "$first" ] && [ "$k" -gt 1 ] && break
		grep -q -F -- "$p" <<<"$text" || miss+="[$p] "
	done < <(pieces "$line")
	while IFS= read -r p; do
		[ "${#p}" -ge 4 ] && grep -q -F -- "$p" <<<"$text" && en+="[$p] "
	done < <(pieces "$(tpl_line en "$file" "$tag")")
	if [ -z "$miss" ] && [ -z "$en" ]; then
		t_ok "$what"
	else
		t_fail "$what" "line of $lang/$file: $line
missing: $miss
English: $en
$text"
	fi
}

# next_mail WHO SKIP [SECONDS]: the first mail of WHO after SKIP.
next_mail() {
	local i f
	for i in $(seq 1 $((${3:-30} * 20))); do
		f=$(e2e_mails "$1" | sed -n "$(($2 + 1))p")
		[ -n "$f" ] && { echo "$f"; return 0; }
		sleep 0.05
	done
	return 1
}
sql() { sqlite3 -cmd '.timeout 5000' "$E2E_DIR/ashes.db" "$1"; }
subject_of() { e2e_digest "$1" | sed -n '1s/^Subject: //p'; }
body_of() { e2e_digest "$1" | tail -n +2; }

# ---- 1. registration: the language from Content-Language ----------------
declare -A LANG_OF=([alice]=ko [bob]=de)
register() {
	local who=$1 header=$2 n f code
	n=$(mail_count "$who")
	player_send "$who" pgpmime "register" "register $who

$(e2e_pubkey "$who")" "Content-Language: $header"
	f=$(next_mail "$who" "$n") || e2e_fail "$who got no welcome"
	says "$who's welcome in ${LANG_OF[$who]}" "${LANG_OF[$who]}" mail/cmd-register.txt "" "$(body_of "$f")"
	code=$(e2e_digest "$f" | sed -n 's/^ *confirm \([A-Z0-9]*\)$/\1/p' | head -1)
	[ -n "$code" ] || e2e_fail "no English confirm line in $who's welcome"
	n=$(mail_count "$who")
	player_send "$who" pgpmime "confirm" "confirm $code"
	f=$(next_mail "$who" "$n") || e2e_fail "$who got no confirmation"
	says "$who's confirmation in ${LANG_OF[$who]}" "${LANG_OF[$who]}" mail/cmd-confirm.txt "{{^key_bound}}" "$(body_of "$f")"
	t_is "$who's language stored from the header" "${LANG_OF[$who]}" \
		"$(sql "SELECT language FROM player_settings s JOIN players p ON p.id = s.player_id WHERE p.name = '$who'")"
}
register alice "ko-KR, ko;q=0.9, en"
register bob "de-DE, en"

# ---- 2. the game --------------------------------------------------------
# challenge WHITE BLACK SIZE: sets G; checks the challenge mails.
challenge() {
	local w=$1 b=$2 size=$3 nw nb f
	nw=$(mail_count "$w")
	nb=$(mail_count "$b")
	player_send "$w" pgpmime "challenge" "challenge $b size=$size
-- 
$(date +%s%N)"
	f=$(next_mail "$w" "$nw") || e2e_fail "no answer to the challenge"
	G=$(subject_of "$f" | sed -n 's/^\[ashes #\([0-9][0-9]*\)\].*/\1/p')
	[ -n "$G" ] || e2e_fail "no game number in $(subject_of "$f")"
	says "$w's challenge reply in ${LANG_OF[$w]}" "${LANG_OF[$w]}" mail/cmd-challenge.txt "" "$(body_of "$f")"
	f=$(next_mail "$b" "$nb") || e2e_fail "$b got no challenge"
	says "$b's challenge in ${LANG_OF[$b]}" "${LANG_OF[$b]}" mail/challenge.txt "" "$(body_of "$f")"
	t_has "... with the English accept line" "accept $G\$" "$(body_of "$f")"
	nb=$(mail_count "$b")
	player_send "$b" pgpmime "Re: [ashes #$G]" "accept $G"
	f=$(next_mail "$b" "$nb") || e2e_fail "$b got no answer to accept"
	says "$b's accept reply in ${LANG_OF[$b]}" "${LANG_OF[$b]}" mail/cmd-accept.txt "{{^challenger_black}}" "$(body_of "$f")"
}
challenge alice bob 3
GAME=$G

# an_illegal_move HISTORY...: a move of the side to move's stacks to a
# cell the legal list names, but not for that stack.
an_illegal_move() {
	local -a legal
	local m from to
	mapfile -t legal < <(e2e_ashes legal --size 3 "$@" | grep -- -)
	for m in "${legal[@]}"; do
		from=${legal[0]%%-*} to=${m#*-}
		to=${to%%[/=x]*}
		[ "$from" != "$to" ] || continue
		printf '%s\n' "${legal[@]}" | grep -q -x -- "$from-$to" && continue
		echo "$from-$to"
		return 0
	done
	return 1
}

declare -A REFUSAL YOURMOVE
HISTORY=()
RANDOM=28
while :; do
	st=$(e2e_ashes status --size 3 "${HISTORY[@]}")
	result=$(printf '%s\n' "$st" | sed -n 's/^result: //p')
	turn=$(printf '%s\n' "$st" | sed -n 's/^turn: //p')
	[ "$result" = ongoing ] || break
	[ "${#HISTORY[@]}" -lt 200 ] || e2e_fail "no end in 200 plies"
	ply=$((${#HISTORY[@]} + 1))
	if [ "$turn" = white ]; then who=alice; else who=bob; fi
	f=$(raw_wait "$who" "move $GAME $ply MOVE" 60) ||
		e2e_fail "$who got no 'your move' mail for ply $ply"
	YOURMOVE[$who]=$f
	if [ -z "${REFUSAL[$who]:-}" ]; then
		bad=$(an_illegal_move "${HISTORY[@]}") || e2e_fail "no illegal move at ply $ply"
		n=$(mail_count "$who")
		player_send "$who" pgpmime "Re: [ashes #$GAME]" "move $GAME $ply $bad"
		REFUSAL[$who]=$(next_mail "$who" "$n") || e2e_fail "$who's illegal move not answered"
		t_is "$who's illegal move $bad: nothing stored" "${#HISTORY[@]}" \
			"$(db_moves "$GAME" | wc -l)"
	fi
	mapfile -t moves < <(e2e_ashes legal --size 3 "${HISTORY[@]}")
	pick=${moves[$((RANDOM % ${#moves[@]}))]}
	player_send "$who" pgpmime "Re: [ashes #$GAME]" "move $GAME $ply $pick"
	HISTORY+=("$pick")
done
# The result mails: both players' last, once the game is over in the
# store, the outbox empty and no mail came for a second.
for i in $(seq 1 600); do
	[ "$(sql "SELECT status FROM games WHERE id = $GAME")" = finished ] && break
	sleep 0.1
done
settled=
for i in $(seq 1 300); do
	counts="$(mail_count alice) $(mail_count bob)"
	if [ -z "$(outbox_unsent)" ] && [ "$counts" = "$settled" ]; then
		break
	fi
	settled=$counts
	sleep 1
done
# Each player's result mail, found by the Message-ID of the outbox row
# of kind result (whoever moved last has the reply to that move too).
declare -A RESULT
for who in alice bob; do
	id=$(sql "SELECT message_id FROM outbox WHERE kind = 'result' AND game_id = $GAME AND recipient LIKE '$who@%'")
	[ -n "$id" ] || e2e_fail "no result mail for $who in the outbox"
	RESULT[$who]=$(e2e_mails "$who" | xargs -r grep -l -i -F -x -- "Message-ID: <$id>" | head -n 1)
	[ -n "${RESULT[$who]}" ] || e2e_fail "$who did not get the result mail $id"
done

t_ok_if "the game ended ($result after ${#HISTORY[@]} plies)" test "${#HISTORY[@]}" -ge 2
t_is "the daemon stored the same moves" "$(printf '%s\n' "${HISTORY[@]}")" "$(db_moves "$GAME")"
t_is "the game is finished in the store" finished "$(sql "SELECT status FROM games WHERE id = $GAME")"
# ---- 3. every mail in the reader's language -----------------------------
for who in alice bob; do
	l=${LANG_OF[$who]}
	n=0 bad=
	for f in $(e2e_mails "$who"); do
		n=$((n + 1))
		d=$(e2e_digest "$f")
		s=$(subject_of "$f")
		hit=$(grep -F -o -f "$E2E_DIR/en-only" <<<"$d" | head -n 3 | tr '\n' '|')
		[ -z "$hit" ] || bad+="mail $n ($s): English [$hit]
"
		grep -q -F -f "$E2E_DIR/$l-only" <<<"$d" || bad+="mail $n ($s): no $l phrase
"
		if [[ $s == "Re: "* ]]; then
			# a reply about no game: "Re: " and the player's own subject
			grep -q -x -E 'Re: (register|confirm)' <<<"$s" || bad+="mail $n: subject $s
"
		elif [ "$l" = ko ]; then
			grep -q -P '[\x{AC00}-\x{D7A3}]' <<<"$s" || bad+="mail $n: subject not Korean: $s
"
		else
			grep -q -F -f "$E2E_DIR/de-only" <<<"$s" || bad+="mail $n: subject not German: $s
"
		fi
		sed '/^\r\?$/q' "$f" | LC_ALL=C grep -q '[^ -~[:space:]]' &&
			bad+="mail $n: a header line not ASCII (subject not RFC 2047)
"
	done
	if [ -z "$bad" ]; then
		t_ok "every one of $who's $n mails in $l: subject and text, no English template phrase"
	else
		t_fail "every one of $who's $n mails in $l" "$bad"
	fi
done

for who in alice bob; do
	l=${LANG_OF[$who]}
	d=$(body_of "${YOURMOVE[$who]}")
	s=$(subject_of "${YOURMOVE[$who]}")
	says "$who's your-move subject in $l" "$l" mail/subject-game.txt "{{#my_turn}}" "$s"
	says "$who's your-move text" "$l" mail/your-move.txt "" "$d"
	says "... its board key" "$l" board-key.txt "{{#board_both_ends}}" "$d"
	says "... its legal-move heading" "$l" mail/legal-moves.txt "{{^moves_cut}}" "$d"
	says "... its stacks heading" "$l" mail/legal-moves.txt "{{#moves_short_stacks}}" "$d"
	t_has "... the same English command line" "^    move $GAME [0-9]+ MOVE\$" "$d"
	t_has "... UTF-8" "charset=\"?utf-8" "$(grep -i '^Content-Type: text/plain' "${YOURMOVE[$who]}")"
	d=$(body_of "${REFUSAL[$who]}")
	says "$who's refusal heading in $l" "$l" mail/reply.txt "{{#refused}}" "$d" first
	says "... the refusal's reason" "$l" mail/refusal.txt "{{#explain}}" "$d"
	t_has "... quoting the English command" "^> move $GAME [0-9]+ " "$d"
	d=$(body_of "${RESULT[$who]}")
	says "$who's result mail in $l" "$l" mail/result.txt "" "$d"
	says "... its result line" "$l" mail/result.txt "{{#result_text}}" "$d"
	says "... its subject" "$l" mail/subject-game.txt "{{#status_finished}}" \
		"$(subject_of "${RESULT[$who]}")" first
done

# ---- 4. for the record: a size-5 your-move in Korean, a German refusal --
challenge alice bob 5
f=$(raw_wait alice "move $G 1 MOVE" 60) || e2e_fail "alice got no first your-move at size 5"
mapfile -t moves < <(e2e_ashes legal --size 5)
player_send alice pgpmime "Re: [ashes #$G]" "move $G 1 ${moves[0]}"
f=$(raw_wait bob "move $G 2 MOVE" 60) || e2e_fail "bob got no your-move at size 5"
mapfile -t moves2 < <(e2e_ashes legal --size 5 "${moves[0]}")
player_send bob pgpmime "Re: [ashes #$G]" "move $G 2 ${moves2[0]}"
f=$(raw_wait alice "move $G 3 MOVE" 60) || e2e_fail "alice got no ply-3 your-move at size 5"
d=$(e2e_digest "$f")
says "alice's size-5 your-move in Korean" ko mail/your-move.txt "" "$d"
echo "# ---- a size-5 'your move' as alice (ko) reads it ----"
sed 's/^/# /' <<<"$d"
echo "# ---- a refusal as bob (de) reads it ----"
e2e_digest "${REFUSAL[bob]}" | sed 's/^/# /'
e2e_end
