/* digest_test.h -- the stand-in digest of the service's tests
 * (server_test.h, the case runner) and of bench/bench_server.c: the real one is the mail layer's
 * business. */
#ifndef ASHES_TESTS_DIGEST_TEST_H
#define ASHES_TESTS_DIGEST_TEST_H

#include <inttypes.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* 64 lower-case hex digits of text[0..len) into out, that differ when
 * the text differs. */
static inline void digest(const char *text, size_t len, char out[65])
{
	for (int part = 0; part < 4; part++) {
		uint64_t h = 1469598103934665603ULL ^ (uint64_t)(part * 7919);
		for (size_t i = 0; i < len; i++) {
			h ^= (unsigned char)text[i];
			h *= 1099511628211ULL;
		}
		snprintf(out + part * 16, 17, "%016" PRIx64, h);
	}
}

#endif
