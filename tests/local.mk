# tests: shared test helpers and the test summary.

# ---- e2e mail-in (tests/e2e/test_inbound_*.sh; owner: e2e mail-in) ----
TESTS += tests/e2e/test_inbound_sig.sh
EXTRA_DIST += tests/e2e/lib-inbound.sh tests/e2e/test_inbound_sig.sh
# ---- end e2e mail-in ----
