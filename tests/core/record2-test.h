/* record2-test.h -- helpers shared by the tests of the version 2 game
 * record: small records, reading and replaying with the fault expected,
 * editing a text.
 */
#ifndef ASHES_TESTS_RECORD2_TEST_H
#define ASHES_TESTS_RECORD2_TEST_H

#include "core-test.h"
#include "core/record2.h"

/* The header of the small records below: lines 1-5, the body from 6. */
#define HEAD "ashes-record 2\n" \
	"Variant: size=5 tax=removed\n" \
	"Result: *\n" \
	"Termination: ongoing\n" \
	"\n"
#define ONGOING "result: * (ongoing)\n"
#define KEY_W "6D7E8F9012345678"
#define KEY_B "1706F5E4D3C2B1A0"
#define SHA "9d8fe67f29ca1eca40b789ebc89f0075" \
	"69e0a927fe28288cfd1540f93e8b7542"
#define AT "2026-12-01T10:00:00Z"

static inline char *format_alloc(const struct record2 *rec)
{
	size_t n = record2_format(rec, NULL, 0);
	char *buf = ck_alloc(n + 1);

	ck_wrote(buf, record2_format(rec, buf, n + 1), n);
	return buf;
}

static inline void parse_ok(const char *text, size_t len, struct record2 *rec)
{
	struct record2_fault f;

	ck_assert_msg(record2_parse_detail(text, len, rec, &f) == 0,
		      "line %d: %s (ply %zu, tag %s)", f.line,
		      record2_error_name(f.error), f.ply, f.tag);
}

/* text reads, writes back identical, and replays into *out. */
static inline void roundtrip(const char *text, struct record2 *rec,
		      struct core_record *out)
{
	struct record2_fault f;
	char *again;

	parse_ok(text, strlen(text), rec);
	again = format_alloc(rec);
	ck_assert_str_eq(again, text);
	free(again);
	ck_assert_msg(record2_replay(rec, out, &f) == 0,
		      "replay: line %d: %s (ply %zu, tag %s, %s)", f.line,
		      record2_error_name(f.error), f.ply, f.tag,
		      core_error_name(f.core_err));
}

/* text is refused on line `line` with `want`; the fault for more. */
static inline struct record2_fault parse_fails_len(const char *text, size_t len,
					    enum record2_error want, int line)
{
	struct record2 rec;
	struct record2_fault f;
	enum record2_error error = RECORD2_OK;
	int l = -1;

	ck_assert_msg(record2_parse_detail(text, len, &rec, &f) == -1,
		      "accepted: %.200s", text);
	ck_assert_msg(f.error == want && f.line == line,
		      "got %s on line %d, want %s on line %d: %.200s",
		      record2_error_name(f.error), f.line,
		      record2_error_name(want), line, text);
	ck_assert_ptr_null(rec.tags);
	ck_assert_ptr_null(rec.plies);
	ck_assert_ptr_null(rec.comments);
	/* The plain form agrees. */
	ck_assert_int_eq(record2_parse(text, len, &rec, &l, &error), -1);
	ck_assert_int_eq(error, want);
	ck_assert_int_eq(l, line);
	return f;
}

static inline struct record2_fault parse_fails(const char *text,
					enum record2_error want, int line)
{
	return parse_fails_len(text, strlen(text), want, line);
}

/* text reads, but its replay is refused with `want` on `line`. */
static inline struct record2_fault replay_fails(const char *text,
					 enum record2_error want, int line)
{
	struct record2 rec;
	struct core_record out;
	struct record2_fault f;

	parse_ok(text, strlen(text), &rec);
	ck_assert_msg(record2_replay(&rec, &out, &f) == -1,
		      "replayed: %.200s", text);
	ck_assert_msg(f.error == want && f.line == line,
		      "got %s on line %d, want %s on line %d: %.200s",
		      record2_error_name(f.error), f.line,
		      record2_error_name(want), line, text);
	ck_assert_ptr_null(out.plies);
	record2_free(&rec);
	return f;
}

/* text with the first `from` replaced by `to` (which must be there). */
static inline char *edit(const char *text, const char *from, const char *to)
{
	const char *p = strstr(text, from);
	size_t n = strlen(text) - strlen(from) + strlen(to) + 1;
	char *out = malloc(n);

	ck_assert_msg(p != NULL, "no %s", from);
	ck_assert_ptr_nonnull(out);
	snprintf(out, n, "%.*s%s%s", (int)(p - text), text, to,
		 p + strlen(from));
	return out;
}

/* The line number of the first line containing `what`. */
static inline int line_of(const char *text, const char *what)
{
	const char *p = strstr(text, what);
	int line = 1;

	ck_assert_msg(p != NULL, "no %s", what);
	for (const char *q = text; q < p; q++)
		line += *q == '\n';
	return line;
}

#endif
