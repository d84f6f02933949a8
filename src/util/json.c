/* json.c -- a small JSON writer; see json.h. */
#include "util/json.h"

#include "util/escape.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

void json_init(struct json_writer *w, struct buf *out)
{
	memset(w, 0, sizeof(*w));
	w->out = out;
}

void json_quote(struct buf *out, const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, n;
	uint32_t cp;

	buf_putc(out, '"');
	while (i < len) {
		unsigned char c = p[i];

		switch (c) {
		case '"': buf_puts(out, "\\\""); i++; continue;
		case '\\': buf_puts(out, "\\\\"); i++; continue;
		case '\n': buf_puts(out, "\\n"); i++; continue;
		case '\r': buf_puts(out, "\\r"); i++; continue;
		case '\t': buf_puts(out, "\\t"); i++; continue;
		default: break;
		}
		if (c < 0x20 || c == 0x7f) {
			buf_printf(out, "\\u%04x", c);
			i++;
			continue;
		}
		n = escape_utf8(p + i, len - i, &cp);
		if (n == 0) {
			buf_puts(out, "\xef\xbf\xbd"); /* U+FFFD */
			i++;
			continue;
		}
		buf_append(out, p + i, n);
		i += n;
	}
	buf_putc(out, '"');
}

/* Begin a value: the comma, the indent and the key.  false (and failed
 * set) on a misuse. */
static bool json_value(struct json_writer *w, const char *key)
{
	int d = w->depth;

	if (w->failed)
		return false;
	if (d == 0) {
		/* one top-level value, no key */
		if (key != NULL || w->started) {
			w->failed = true;
			return false;
		}
		w->started = true;
		return true;
	}
	if ((key != NULL) != w->is_object[d - 1]) {
		w->failed = true;
		return false;
	}
	if (w->has_items[d - 1])
		buf_putc(w->out, ',');
	w->has_items[d - 1] = true;
	buf_putc(w->out, '\n');
	for (int i = 0; i < d; i++)
		buf_puts(w->out, "  ");
	if (key != NULL) {
		json_quote(w->out, key, strlen(key));
		buf_puts(w->out, ": ");
	}
	return true;
}

static void json_open(struct json_writer *w, const char *key, bool object)
{
	if (w->depth + 1 >= JSON_DEPTH_MAX) {
		w->failed = true;
		return;
	}
	if (!json_value(w, key))
		return;
	buf_putc(w->out, object ? '{' : '[');
	w->depth++;
	w->is_object[w->depth - 1] = object;
	w->has_items[w->depth - 1] = false;
}

static void json_close(struct json_writer *w, bool object)
{
	int d = w->depth;

	if (w->failed)
		return;
	if (d == 0 || w->is_object[d - 1] != object) {
		w->failed = true;
		return;
	}
	if (w->has_items[d - 1]) {
		buf_putc(w->out, '\n');
		for (int i = 0; i < d - 1; i++)
			buf_puts(w->out, "  ");
	}
	buf_putc(w->out, object ? '}' : ']');
	w->depth--;
}

void json_object_begin(struct json_writer *w, const char *key)
{
	json_open(w, key, true);
}

void json_object_end(struct json_writer *w)
{
	json_close(w, true);
}

void json_array_begin(struct json_writer *w, const char *key)
{
	json_open(w, key, false);
}

void json_array_end(struct json_writer *w)
{
	json_close(w, false);
}

void json_string_len(struct json_writer *w, const char *key, const char *s,
		     size_t len)
{
	if (json_value(w, key))
		json_quote(w->out, s, len);
}

void json_string(struct json_writer *w, const char *key, const char *s)
{
	if (s == NULL)
		json_null(w, key);
	else
		json_string_len(w, key, s, strlen(s));
}

void json_int(struct json_writer *w, const char *key, int64_t v)
{
	if (json_value(w, key))
		buf_printf(w->out, "%lld", (long long)v);
}

void json_real(struct json_writer *w, const char *key, double v)
{
	if (!isfinite(v))
		json_null(w, key);
	else if (json_value(w, key))
		buf_printf(w->out, "%.17g", v);
}

void json_bool(struct json_writer *w, const char *key, bool v)
{
	if (json_value(w, key))
		buf_puts(w->out, v ? "true" : "false");
}

void json_null(struct json_writer *w, const char *key)
{
	if (json_value(w, key))
		buf_puts(w->out, "null");
}

int json_end(struct json_writer *w)
{
	if (w->failed || w->depth != 0 || !w->started)
		return -1;
	buf_putc(w->out, '\n');
	return 0;
}
