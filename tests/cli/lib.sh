# tests/cli/lib.sh -- what the shell tests of `ashes` share, sourced after
# they set ASHES_SRCDIR: the programs, the templates, a scratch folder
# $tmp removed on exit, check NAME EXPECTED ACTUAL (one TAP line, counting
# $n and $failed), and run ARGS... (runs ashes with no input; sets out,
# err, rc).
: "${ASHES_BUILDDIR:=$(pwd)}"
ashes=$ASHES_BUILDDIR/ashes
ashesd=$ASHES_BUILDDIR/ashesd
export ASHES_TEMPLATES=$ASHES_SRCDIR/templates
export LC_ALL=C
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failed=0 n=0

check() { # check NAME EXPECTED ACTUAL
	n=$((n + 1))
	if [ "$2" = "$3" ]; then
		echo "ok $n - $1"
	else
		echo "not ok $n - $1"
		echo "  expected: $(printf '%s' "$2" | head -c 600)"
		echo "  actual:   $(printf '%s' "$3" | head -c 600)"
		failed=$((failed + 1))
	fi
}

# Runs ashes; sets out, err, rc.
run() {
	"$ashes" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
	rc=$?
	out=$(cat "$tmp/out")
	err=$(cat "$tmp/err")
}
