#!/bin/bash
# tests/summary.sh BUILDDIR... -- add up what `make check` ran in each
# build folder (scripts/test: the normal one and the sanitizer one): each
# Check binary's "Checks: N, Failures: F, Errors: E" line, each script
# test's own "N passed, N failed" line, and a script test without one as
# one check.  With several folders each log is named with its folder.
# Ends with the line "N passed, N failed", for all of them together;
# ASHES_EXTRA_FAILED adds failures make check did not see (scripts/test:
# a build that failed).
set -u
pass=0 fail=${ASHES_EXTRA_FAILED:-0}

# summarise PREFIX: the tests of the current folder, added to the totals.
summarise() {
	local prefix=$1 trs log res line n f e
	for trs in $(find . -name '*.trs' | sort); do
		log=${trs%.trs}.log
		res=$(sed -n 's/^:test-result: //p' "$trs" | head -1)
		line=$(grep -E '^[0-9]+%: Checks: [0-9]+, Failures: [0-9]+, Errors: [0-9]+' "$log" 2>/dev/null | tail -1)
		if [ -n "$line" ]; then
			echo "$prefix${log#./}: $line"
			n=$(echo "$line" | sed -E 's/.*Checks: ([0-9]+).*/\1/')
			f=$(echo "$line" | sed -E 's/.*Failures: ([0-9]+).*/\1/')
			e=$(echo "$line" | sed -E 's/.*Errors: ([0-9]+).*/\1/')
			pass=$((pass + n - f - e)); fail=$((fail + f + e))
			# A binary that crashed after its summary still failed.
			[ "$res" = PASS ] || [ "$res" = SKIP ] || [ $((f + e)) -gt 0 ] || fail=$((fail + 1))
		elif line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$log" 2>/dev/null | tail -1) && [ -n "$line" ]; then
			# a script test that counts its own checks
			echo "$prefix${log#./}: $res ($line)"
			n=$(echo "$line" | sed -E 's/^([0-9]+) passed.*/\1/')
			f=$(echo "$line" | sed -E 's/^[0-9]+ passed, ([0-9]+) failed.*/\1/')
			pass=$((pass + n)); fail=$((fail + f))
			[ "$res" = PASS ] || [ "$res" = SKIP ] || [ "$f" -gt 0 ] || fail=$((fail + 1))
		else
			case "$res" in
			PASS) pass=$((pass + 1)) ;;
			SKIP) ;;
			*) fail=$((fail + 1)) ;;
			esac
			echo "$prefix${log#./}: $res"
		fi
	done
}

[ $# -gt 0 ] || set -- .
for dir in "$@"; do
	prefix=
	[ $# -gt 1 ] && prefix=$(basename "$dir")/
	if ! cd "$dir"; then
		fail=$((fail + 1))
		continue
	fi
	summarise "$prefix"
	cd - >/dev/null || exit 1
done
echo "$pass passed, $fail failed"
