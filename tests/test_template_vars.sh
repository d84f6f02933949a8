#!/bin/bash
# tests/test_template_vars.sh -- scripts/template-vars fails where it
# must: on a copy of templates/ it passes as shipped, then fails for a
# player-facing file with no translation, a variable a translation lacks
# or adds, and a translated line too wide in display columns (a Hangul
# syllable two columns), and still passes when an operator's file
# (admin-*.txt, help-cli.txt: OPERATOR in the script) has no translation.
set -u
: "${ASHES_SRCDIR:=$(cd "$(dirname "$0")/.." && pwd)}"
. "$ASHES_SRCDIR/tests/lib.sh"
t_tmp

check() { python3 "$ASHES_SRCDIR/scripts/template-vars" --root "$tmp/t" >"$tmp/out" 2>&1; }
fresh() { rm -rf "$tmp/t"; cp -r "$ASHES_SRCDIR/templates" "$tmp/t"; }

fresh
check
t_is "the shipped templates pass" 0 "$?"

rm "$tmp/t/ko/mail/undo.txt"
check
t_is "a Korean file missing fails" 1 "$?"
t_has "... naming it" "ko/mail/undo.txt: missing" "$(cat "$tmp/out")"
t_hasnt "... and only it" "de/mail/undo.txt: missing" "$(cat "$tmp/out")"

fresh
printf 'new text {{x}}\n' >"$tmp/t/mail/new-kind.txt"
check
t_is "a new English file with no translation fails" 1 "$?"
t_has "... in German" "de/mail/new-kind.txt: missing" "$(cat "$tmp/out")"
t_has "... and in Korean" "ko/mail/new-kind.txt: missing" "$(cat "$tmp/out")"

fresh
printf 'operator text\n' >"$tmp/t/admin-new.txt"
check
t_is "an operator's file needs no translation" 0 "$?"

fresh
sed -i 's/{{game}}/{{gmae}}/' "$tmp/t/de/mail/draw.txt"
check
t_is "a renamed variable fails" 1 "$?"
t_has "... the one lacking" "de/mail/draw.txt: missing {{game}}" "$(cat "$tmp/out")"
t_has "... and the one added" "de/mail/draw.txt: extra {{gmae}}" "$(cat "$tmp/out")"

fresh
# 37 Hangul syllables: 74 columns, though only 37 characters
printf '%s\n' "$(printf '가%.0s' $(seq 37))" >>"$tmp/t/ko/mail/draw.txt"
check
t_is "a Korean line of 74 display columns fails" 1 "$?"
t_has "... counted in columns" "ko/mail/draw.txt:" "$(cat "$tmp/out")"
t_has "... as 74" "74 columns, wider than 72" "$(cat "$tmp/out")"

fresh
printf '%s\n' "$(printf '가%.0s' $(seq 36))" >>"$tmp/t/ko/mail/draw.txt"
# a line holding a tag is measured without it: the value is the same in
# every language
printf '%s {{game}}\n' "$(printf 'x%.0s' $(seq 71))" >>"$tmp/t/de/mail/draw.txt"
check
t_is "72 columns of Hangul, and 72 of text beside a tag, pass" 0 "$?"
t_end
