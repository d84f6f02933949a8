# tests: shared test helpers and the test summary.
