# bench: benchmarks run by make bench.

# bench_core: legal-move generations/s and random playouts/s (rules core).
EXTRA_PROGRAMS += bench/bench_core
bench_bins += bench/bench_core
bench_bench_core_SOURCES = bench/bench_core.c
bench_bench_core_CFLAGS = $(AM_CFLAGS) -O2
bench_bench_core_LDADD = libashes_core.a
