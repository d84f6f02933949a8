#!/bin/bash
# tests/summary.sh BUILDDIR -- add up what `make check` ran: each Check
# binary's "Checks: N, Failures: F, Errors: E" line, each script test's
# own "N passed, N failed" line, and a script test without one as one
# check.  Ends with the line "N passed, N failed".
set -u
cd "${1:-.}"
pass=0 fail=0
for trs in $(find . -name '*.trs' | sort); do
	log=${trs%.trs}.log
	res=$(sed -n 's/^:test-result: //p' "$trs" | head -1)
	line=$(grep -E '^[0-9]+%: Checks: [0-9]+, Failures: [0-9]+, Errors: [0-9]+' "$log" 2>/dev/null | tail -1)
	if [ -n "$line" ]; then
		echo "${log#./}: $line"
		n=$(echo "$line" | sed -E 's/.*Checks: ([0-9]+).*/\1/')
		f=$(echo "$line" | sed -E 's/.*Failures: ([0-9]+).*/\1/')
		e=$(echo "$line" | sed -E 's/.*Errors: ([0-9]+).*/\1/')
		pass=$((pass + n - f - e)); fail=$((fail + f + e))
		# A binary that crashed after its summary still failed.
		[ "$res" = PASS ] || [ "$res" = SKIP ] || [ $((f + e)) -gt 0 ] || fail=$((fail + 1))
	elif line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$log" 2>/dev/null | tail -1) && [ -n "$line" ]; then
		# a script test that counts its own checks
		echo "${log#./}: $res ($line)"
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
		echo "${log#./}: $res"
	fi
done
echo "$pass passed, $fail failed"
