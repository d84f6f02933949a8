# bench: benchmarks run by make bench.
