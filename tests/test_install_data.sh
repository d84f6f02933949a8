#!/bin/bash
# tests/test_install_data.sh -- `make install` puts every reply template
# and every migration of the source tree under $(pkgdatadir): a file left
# out of the Makefile's lists (nobase_dist_pkgdata_DATA) is otherwise
# found missing only by an installed ashesd that needs it, as the
# conditional moves' templates once were.  Installs the data alone into
# a temp DESTDIR.
set -u
: "${ASHES_SRCDIR:=$(cd "$(dirname "$0")/.." && pwd)}"
: "${ASHES_BUILDDIR:=$ASHES_SRCDIR/_build}"
. "$ASHES_SRCDIR/tests/lib.sh"
t_tmp

make -s -C "$ASHES_BUILDDIR" install-nobase_dist_pkgdataDATA \
	DESTDIR="$tmp/root" >"$tmp/install.log" 2>&1
t_is "make install-nobase_dist_pkgdataDATA" 0 "$?"
data=$(find "$tmp/root" -type d -path '*/share/ashesd' | head -n 1)
t_ok_if "the data is under .../share/ashesd" test -n "$data"
# (sql/README and templates/local.mk are for developers: not installed)
for d in templates sql; do
	want=$(cd "$ASHES_SRCDIR" && find "$d" -type f ! -path sql/README ! -path templates/local.mk |
		LC_ALL=C sort)
	got=$(cd "$data" 2>/dev/null && find "$d" -type f | LC_ALL=C sort)
	t_is "every file of $d/ is installed (missing listed)" "" \
		"$(comm -23 <(printf '%s\n' "$want") <(printf '%s\n' "$got"))"
	t_is "no other file is installed in $d/" "" \
		"$(comm -13 <(printf '%s\n' "$want") <(printf '%s\n' "$got"))"
done
t_end
