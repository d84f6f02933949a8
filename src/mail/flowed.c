/* flowed.c -- RFC 3676 format=flowed decoding (see flowed.h). */
#include "config.h"

#include <string.h>
#include <strings.h>

#include "mail/flowed.h"

/* A parameter value as a client writes it: maybe quoted, any case. */
static bool flowed_param_is(const char *value, const char *want)
{
	size_t n = strlen(want);

	if (value == NULL)
		return false;
	if (value[0] == '"') {
		value++;
		return strncasecmp(value, want, n) == 0 && value[n] == '"';
	}
	return strcasecmp(value, want) == 0;
}

static bool flowed_is_flowed(const char *format)
{
	return flowed_param_is(format, "flowed");
}

static bool flowed_delsp(const char *delsp)
{
	return flowed_param_is(delsp, "yes");
}

/* One physical line as RFC 3676 section 4.2 reads it. */
struct flowed_line {
	size_t depth;      /* quote depth: the leading '>' */
	const char *text;  /* after the quote marks and any stuffing space */
	size_t len;
	bool flowed;       /* ends in a soft break */
	bool signature;    /* "-- ", the signature separator */
};

static void flowed_read_line(const char *s, size_t len, struct flowed_line *l)
{
	size_t i = 0;

	while (i < len && s[i] == '>')
		i++;
	l->depth = i;
	/* space-stuffing (4.4), quoted or not */
	if (i < len && s[i] == ' ')
		i++;
	l->text = s + i;
	l->len = len - i;
	/* the signature separator is never flowed (4.3) */
	l->signature = l->len == 3 && memcmp(l->text, "-- ", 3) == 0;
	l->flowed = l->len > 0 && l->text[l->len - 1] == ' ' && !l->signature;
}

static void flowed_put_prefix(struct buf *out, size_t depth)
{
	for (size_t i = 0; i < depth; i++)
		buf_putc(out, '>');
	if (depth > 0)
		buf_putc(out, ' ');
}

static void flowed_decode(const char *s, size_t len, bool delsp,
			  struct buf *out)
{
	size_t pos = 0;
	bool open = false;     /* a paragraph is being joined */
	size_t open_depth = 0;

	while (pos < len) {
		const char *nl = memchr(s + pos, '\n', len - pos);
		size_t end = nl != NULL ? (size_t)(nl - s) : len;
		size_t llen = end - pos;
		struct flowed_line l;

		if (llen > 0 && s[pos + llen - 1] == '\r')
			llen--;
		flowed_read_line(s + pos, llen, &l);
		pos = nl != NULL ? end + 1 : len;

		/* a soft break never joins lines of different depth (4.5),
		 * nor the signature separator to the line before */
		if (open && (l.depth != open_depth || l.signature)) {
			buf_putc(out, '\n');
			open = false;
		}
		if (!open)
			flowed_put_prefix(out, l.depth);
		if (l.flowed && delsp)
			l.len--;
		buf_append(out, l.text, l.len);
		if (l.flowed) {
			open = true;
			open_depth = l.depth;
		} else {
			buf_putc(out, '\n');
			open = false;
		}
	}
	if (open)
		buf_putc(out, '\n');
	if (out->data == NULL)
		buf_puts(out, "");
}

void flowed_decode_buf(const char *format, const char *delsp,
		       struct buf *text)
{
	struct buf out = BUF_INIT;

	if (!flowed_is_flowed(format))
		return;
	flowed_decode(text->data ? text->data : "", text->len,
		      flowed_delsp(delsp), &out);
	buf_free(text);
	*text = out;
}
