/* fuzz_pgp_scan.c -- libFuzzer target for the OpenPGP pre-scan
 * (pgp_scan.h): any bytes, as a signature, as key data and as a
 * clearsigned block, must be judged without reading past them, and a
 * reason must come with every refusal. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mail/pgp_scan.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* a copy of exactly size bytes, so that a read past them is seen */
	char *copy = malloc(size ? size : 1), why[200];

	if (copy == NULL)
		return 0;
	memcpy(copy, data, size);
	why[0] = '\0';
	if (pgp_scan(copy, size, PGP_SCAN_SIGNATURE, why, sizeof(why)) < 0 &&
	    why[0] == '\0')
		abort();
	why[0] = '\0';
	if (pgp_scan(copy, size, PGP_SCAN_KEYS, why, sizeof(why)) < 0 &&
	    why[0] == '\0')
		abort();
	why[0] = '\0';
	if (pgp_scan_clearsigned(copy, size, why, sizeof(why)) < 0 &&
	    why[0] == '\0')
		abort();
	free(copy);
	return 0;
}
