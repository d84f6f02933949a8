/* fuzz_record.c -- libFuzzer target for record_parse: any bytes must be
 * refused with a line number or give a record whose canonical text parses
 * back to the same text.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "core/record.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char *format_alloc(const struct core_record *rec)
{
	size_t n = record_format(rec, NULL, 0);
	char *buf = malloc(n + 1);

	if (buf == NULL || record_format(rec, buf, n + 1) != n)
		abort();
	return buf;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct core_record rec, back;
	struct record_fault_info fault;
	enum core_error err;
	char *text, *again;
	int line = -1;

	if (record_parse_detail(&rec, (const char *)data, size, &fault) < 0) {
		/* A refusal says what and where, inside the input. */
		if (fault.line < 0 || fault.err == CORE_OK ||
		    fault.fault == RECORD_FAULT_NONE ||
		    (unsigned)fault.fault >= RECORD_FAULT_COUNT ||
		    (fault.text != NULL &&
		     (fault.text < (const char *)data ||
		      fault.text + fault.text_len > (const char *)data + size)) ||
		    rec.plies != NULL)
			abort();
		return 0;
	}
	text = format_alloc(&rec);
	if (record_parse(&back, text, strlen(text), &line, &err) < 0)
		abort();
	again = format_alloc(&back);
	if (strcmp(text, again) != 0 || back.pos.key != rec.pos.key)
		abort();
	free(text);
	free(again);
	record_free(&rec);
	record_free(&back);
	return 0;
}
