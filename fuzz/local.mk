# fuzz: libFuzzer targets (--enable-fuzzing, CC=clang).
