/* json.h -- a small JSON writer (RFC 8259) into a struct buf: objects and
 * arrays nested to JSON_DEPTH_MAX, strings escaped, bytes that are not
 * UTF-8 replaced by U+FFFD so that the output is always valid JSON.
 *
 * Written here rather than taken from a library (libjansson): the daemon
 * only ever writes JSON (the export of a player's data, `--json` output),
 * never reads it, and writing needs no more than this; a library would
 * build a whole tree in memory to print it once.
 *
 * Every call takes the key its value has in the enclosing object, or
 * NULL inside an array.  A misuse (a key in an array, none in an object,
 * too deep, an end without a begin) sets w->failed and writes nothing
 * more; json_end() says whether the document is whole. */
#ifndef ASHES_UTIL_JSON_H
#define ASHES_UTIL_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/buf.h"

#define JSON_DEPTH_MAX 16

struct json_writer {
	struct buf *out;
	int depth;                       /* open objects and arrays */
	bool is_object[JSON_DEPTH_MAX];
	bool has_items[JSON_DEPTH_MAX];
	bool started;                    /* the top-level value begun */
	bool failed;
};

/* Start a document into out (appended to). */
void json_init(struct json_writer *w, struct buf *out);
void json_object_begin(struct json_writer *w, const char *key);
void json_object_end(struct json_writer *w);
void json_array_begin(struct json_writer *w, const char *key);
void json_array_end(struct json_writer *w);
/* A string of len bytes (may hold NULs: written \u0000). */
void json_string_len(struct json_writer *w, const char *key, const char *s,
		     size_t len);
/* A NUL-terminated string; NULL writes null. */
void json_string(struct json_writer *w, const char *key, const char *s);
void json_int(struct json_writer *w, const char *key, int64_t v);
/* A number; NaN and the infinities, which JSON has not, write null. */
void json_real(struct json_writer *w, const char *key, double v);
void json_bool(struct json_writer *w, const char *key, bool v);
void json_null(struct json_writer *w, const char *key);
/* 0 if the document is whole (everything begun ended, no misuse), with
 * a final newline; -1 otherwise. */
int json_end(struct json_writer *w);

/* Append s (len bytes) to out as a JSON string, quotes included. */
void json_quote(struct buf *out, const char *s, size_t len);

#endif
