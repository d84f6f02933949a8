/* mime_limits.c -- the limits of mime.h (MIME_MAX_DEPTH), checked before
 * libetpan sees a mail.
 *
 * libetpan's parser recurses once per level of MIME nesting
 * (mailmime_parse_with_default) and once per "(" of a comment in a
 * structured header (mailimf_comment_parse), with no limit: a mail of
 * 28,000 nested message/rfc822 parts, or a header of a million "(",
 * overflows the stack.  So mime_check_structure walks the mail the way
 * mailmime_parse will, without recursion: an explicit stack of the
 * entities still to read, each header block first checked for its
 * comment nesting and then read with libetpan's own (flat) header
 * parsers, and multipart bodies cut into parts by a copy of libetpan's
 * splitting code (mailmime_content.c of 1.9.4; upstream has not changed
 * it since).  Cutting parts any other way -- by RFC 2046's rules, say --
 * would let a mail whose parts libetpan reads differently (it takes a
 * boundary as a prefix, and skips a close delimiter that another
 * delimiter follows) hide its depth from the check.
 */
#include "config.h"

#include "mail/mime.h"

#include <libetpan/libetpan.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "util/xstr.h"

#define MIME_STR_(x) #x
#define MIME_STR(x) MIME_STR_(x)

static const char mime_err_depth[] = "the message's MIME structure is nested "
	"deeper than " MIME_STR(MIME_MAX_DEPTH) " levels";
static const char mime_err_comment[] = "a header of the message nests "
	"comments deeper than " MIME_STR(MIME_MAX_DEPTH) " levels";

/* Where the field at h[i] ends, if libetpan reads its value as plain
 * text and never looks for comments in it (Subject, Comments: people
 * write ":(" there): the line end that is not folded.  Else i. */
static size_t mime_skip_unstructured(const char *h, size_t len, size_t i)
{
	static const char *const names[] = { "subject", "comments" };
	size_t k, j, n;

	for (k = 0; k < sizeof(names) / sizeof(names[0]); k++) {
		n = strlen(names[k]);
		if (len - i <= n || strncasecmp(h + i, names[k], n) != 0)
			continue;
		for (j = i + n; j < len && (h[j] == ' ' || h[j] == '\t'); j++)
			;
		if (j >= len || h[j] != ':')
			continue;
		for (; j < len; j++)
			if (h[j] == '\n' && !(j + 1 < len &&
					      (h[j + 1] == ' ' || h[j + 1] == '\t')))
				return j;
		return len;
	}
	return i;
}

/* The deepest comment nesting libetpan can reach reading the header block
 * at h.  Every "(" counts, also in a quoted string, where libetpan would
 * see no comment (counting more is safe); inside a comment a backslash
 * quotes the next byte, as in libetpan; no comment goes on past a line
 * end that is not folded; the block ends at the first empty line.  But a
 * backslash before a line end may quote it (in a quoted string as well),
 * so the next line then neither ends the block nor starts a field. */
static size_t mime_comment_depth(const char *h, size_t len)
{
	size_t i, depth = 0, max = 0;

	if (len > 0 && (h[0] == '\r' || h[0] == '\n'))
		return 0;
	for (i = mime_skip_unstructured(h, len, 0);
	     i < len && max <= MIME_MAX_DEPTH; i++) {
		char c = h[i];

		if (c == '\n') {
			char next = i + 1 < len ? h[i + 1] : '\n';

			if (next == ' ' || next == '\t')
				continue;
			depth = 0;
			/* quoted by a backslash (in a quoted string): read on */
			if (i > 0 && h[i - 1] == '\\')
				continue;
			if (next == '\r' || next == '\n')
				break;
			/* a new field: i + 1 is its first byte */
			i = mime_skip_unstructured(h, len, i + 1) - 1;
			continue;
		}
		if (depth > 0 && c == '\\') {
			i++;
			continue;
		}
		if (c == '(' && ++depth > max)
			max = depth;
		else if (c == ')' && depth > 0)
			depth--;
	}
	return max;
}

int mime_check_header(const char *data, size_t len, const char **error_r)
{
	if (mime_comment_depth(data, len) > MIME_MAX_DEPTH) {
		*error_r = mime_err_comment;
		return -1;
	}
	return 0;
}

/* libetpan's splitting of a multipart body, state for state.  Each
 * returns 0, or -1 where libetpan's returns MAILIMF_ERROR_PARSE. */

/* mailmime_boundary_parse (a boundary at the very end does not count) */
static bool mime_boundary_at(const char *m, size_t len, size_t *cur,
			     const char *b, size_t blen)
{
	if (*cur + blen >= len || memcmp(m + *cur, b, blen) != 0)
		return false;
	*cur += blen;
	return true;
}

/* mailmime_preamble_parse: to just past the next "--" that starts a line */
static int mime_preamble(const char *m, size_t len, size_t *idx, bool beol)
{
	enum { A0, A, A1, B, C, D, E } state = beol ? A0 : A;
	size_t cur = *idx;

	while (state != E) {
		char c;

		if (cur >= len)
			return -1;
		c = m[cur++];
		switch (state) {
		case A0: state = c == '-' ? A1 : c == '\r' ? B : c == '\n' ? C : A; break;
		case A: state = c == '\r' ? B : c == '\n' ? C : A; break;
		case A1: state = c == '-' ? E : c == '\r' ? B : c == '\n' ? C : A; break;
		case B: state = c == '\r' ? B : c == '\n' ? C : c == '-' ? D : A0; break;
		case C: state = c == '-' ? D : c == '\r' ? B : c == '\n' ? C : A0; break;
		case D: state = c == '-' ? E : A; break;
		case E: break;
		}
	}
	*idx = cur;
	return 0;
}

/* mailmime_lwsp_parse, result unused */
static void mime_lwsp(const char *m, size_t len, size_t *cur)
{
	while (*cur < len && (m[*cur] == ' ' || m[*cur] == '\t'))
		(*cur)++;
}

/* mailmime_body_part_dash2_parse: the text up to the next line starting
 * with "--" and the boundary (or, failing that, up to the last line
 * starting with '-'), without the line end before it. */
static int mime_dash2(const char *m, size_t len, size_t *idx, const char *b,
		      size_t blen, size_t *start_r, size_t *size_r)
{
	size_t cur = *idx, begin = cur, end = len;
	int state = 0;

	while (state != 5 && cur < len) {
		char c = m[cur];

		switch (state) {
		case 0: state = c == '\r' ? 1 : c == '\n' ? 2 : 0; break;
		case 1: state = c == '\n' ? 2 : 0; break;
		case 2:
			if (c == '-') {
				end = cur;
				state = 3;
			} else {
				state = c == '\r' ? 1 : c == '\n' ? 2 : 0;
			}
			break;
		case 3: state = c == '\r' ? 1 : c == '\n' ? 2 : c == '-' ? 4 : 0; break;
		case 4: state = mime_boundary_at(m, len, &cur, b, blen) ? 5 : 6; break;
		}
		if (state == 6)
			state = 0;	/* look at the same byte again */
		else if (state != 5)
			cur++;
	}
	if (end > begin && m[end - 1] == '\r') {
		end--;
	} else if (end > begin && m[end - 1] == '\n') {
		end--;
		if (end > begin && m[end - 1] == '\r')
			end--;
	}
	if (end == begin)
		return -1;
	*start_r = begin;
	*size_r = end - begin;
	*idx = cur;
	return 0;
}


/* mailmime_multipart_close_parse: "--" after the boundary */
static int mime_close_dashes(const char *m, size_t len, size_t *idx)
{
	size_t cur = *idx;
	int state = 0;

	while (state != 4) {
		switch (state) {
		case 0:
		case 1:
			if (cur >= len || m[cur] != '-')
				return -1;
			state++;
			break;
		case 2:
			if (cur >= len)
				state = 4;
			else if (m[cur] == ' ' || m[cur] == '\t')
				state = 2;
			else
				state = m[cur] == '\r' ? 3 : 4;
			break;
		case 3:
			state = 4;
			break;
		}
		cur++;
	}
	*idx = cur;
	return 0;
}

/* A part up to its delimiter: with last false as
 * mailmime_body_part_dash2_transport_crlf_parse, ended by a delimiter
 * line ("--" boundary, blanks, line end); with last true as
 * mailmime_body_part_dash2_close_parse, the last part, ended by the
 * close delimiter ("--" boundary "--"). */
static int mime_part(const char *m, size_t len, size_t *idx, const char *b,
		     size_t blen, bool last, size_t *start_r, size_t *size_r)
{
	size_t cur = *idx, end, s, n;

	for (;;) {
		if (mime_dash2(m, len, &cur, b, blen, &s, &n) < 0)
			return -1;
		end = s + n;
		if (last) {
			if (cur >= len || mime_close_dashes(m, len, &cur) == 0)
				break;
			continue;
		}
		mime_lwsp(m, len, &cur);
		if (mailimf_crlf_parse(m, len, &cur) == MAILIMF_NO_ERROR)
			break;
	}
	*start_r = *idx;
	*size_r = end - *idx;
	*idx = cur;
	return 0;
}

/* mailmime_multipart_next_parse: one blank line after a delimiter */
static void mime_part_next(const char *m, size_t len, size_t *idx)
{
	size_t cur = *idx;
	int state = 0;

	while (state != 2) {
		if (cur >= len)
			return;
		if (state == 0 && (m[cur] == ' ' || m[cur] == '\t'))
			state = 0;
		else if (state == 0 && m[cur] == '\r')
			state = 1;
		else if (m[cur] == '\n')
			state = 2;
		else
			return;
		cur++;
	}
	*idx = cur;
}

enum mime_scan_kind { MIME_SCAN_SINGLE, MIME_SCAN_MESSAGE, MIME_SCAN_MULTIPLE };

/* An entity still to read: a message (its header at off) or a multipart
 * (its body at off), in the region data[0..len) libetpan gives it. */
struct mime_scan_item {
	const char *data;
	size_t len, off;
	enum mime_scan_kind kind;
	char *boundary;
	bool digest;		/* parts without Content-Type are messages */
	unsigned depth;		/* containers from the top, this one counted */
};

struct mime_scan {
	struct mime_scan_item *items;
	size_t count, cap;
	unsigned deepest;
};

/* What libetpan makes of an entity with MIME fields mf (NULL: none), as
 * mailmime_parse_with_default decides it.  A boundary with a '"' in it is
 * refused: libetpan 1.9.4 overflows a buffer on some of them (and later
 * versions read them otherwise). */
static int mime_scan_kind(struct mailmime_fields *mf, bool default_message,
			  char **boundary_r, bool *digest_r,
			  enum mime_scan_kind *kind_r, const char **error_r)
{
	struct mailmime_content *ct = NULL;
	int enc = mf != NULL ? mailmime_transfer_encoding_get(mf) :
		  MAILMIME_MECHANISM_8BIT;
	bool message = false;
	clistiter *it;

	*kind_r = MIME_SCAN_SINGLE;
	for (it = mf != NULL ? clist_begin(mf->fld_list) : NULL; it != NULL;
	     it = clist_next(it)) {
		struct mailmime_field *f = clist_content(it);

		if (f->fld_type == MAILMIME_FIELD_TYPE) {
			ct = f->fld_data.fld_content;
			break;
		}
	}
	if (ct == NULL) {
		message = default_message;
	} else if (ct->ct_type->tp_type == MAILMIME_TYPE_COMPOSITE_TYPE &&
		   ct->ct_type->tp_data.tp_composite_type->ct_type ==
			   MAILMIME_COMPOSITE_TYPE_MULTIPART) {
		const char *b = mailmime_content_param_get(ct, (char *)"boundary");

		if (b == NULL)
			return 0;
		if (strchr(b, '"') != NULL) {
			*error_r = "a multipart boundary of the message is malformed";
			return -1;
		}
		*boundary_r = xstrdup(b);
		*digest_r = strcasecmp(ct->ct_subtype, "digest") == 0;
		*kind_r = MIME_SCAN_MULTIPLE;
		return 0;
	} else if (ct->ct_type->tp_type == MAILMIME_TYPE_COMPOSITE_TYPE &&
		   ct->ct_type->tp_data.tp_composite_type->ct_type ==
			   MAILMIME_COMPOSITE_TYPE_MESSAGE) {
		message = strcasecmp(ct->ct_subtype, "rfc822") == 0;
	}
	/* an encoded message/rfc822 is not parsed as a message */
	if (message && enc != MAILMIME_MECHANISM_QUOTED_PRINTABLE &&
	    enc != MAILMIME_MECHANISM_BASE64)
		*kind_r = MIME_SCAN_MESSAGE;
	return 0;
}

/* Queue the entity data[off..len) if libetpan will read below it. */
static int mime_scan_push(struct mime_scan *s, const char *data, size_t len,
			  size_t off, struct mailmime_fields *mf,
			  bool default_message, unsigned depth,
			  const char **error_r)
{
	struct mime_scan_item it = { .data = data, .len = len, .off = off,
				     .depth = depth };

	if (mime_scan_kind(mf, default_message, &it.boundary, &it.digest,
			   &it.kind, error_r) < 0)
		return -1;
	if (it.kind == MIME_SCAN_SINGLE)
		return 0;
	if (depth > MIME_MAX_DEPTH) {
		free(it.boundary);
		*error_r = mime_err_depth;
		return -1;
	}
	if (depth > s->deepest)
		s->deepest = depth;
	if (s->count == s->cap) {
		size_t cap = s->cap > 0 ? s->cap * 2 : 16;
		struct mime_scan_item *items = realloc(s->items, cap * sizeof(*items));

		if (items == NULL) {
			fputs("mime: out of memory\n", stderr);
			abort();
		}
		s->items = items;
		s->cap = cap;
	}
	s->items[s->count++] = it;
	return 0;
}

/* The header block at data[*off..len), read as libetpan reads it
 * (envelope fields for a message, else only optional ones), *off moved
 * past it; the entity below is queued.  mailimf_* never fail here but
 * for memory, and then libetpan reads nothing below: neither do we. */
static int mime_scan_header(struct mime_scan *s, const char *data, size_t len,
			    size_t off, bool envelope, bool default_message,
			    unsigned depth, const char **error_r)
{
	struct mailimf_fields *fields = NULL;
	struct mailmime_fields *mf = NULL;
	int r, ret;

	if (mime_check_header(data + off, len - off, error_r) < 0)
		return -1;
	r = envelope ? mailimf_envelope_and_optional_fields_parse(data, len, &off, &fields) :
		       mailimf_optional_fields_parse(data, len, &off, &fields);
	if (r != MAILIMF_NO_ERROR)
		return 0;
	(void)mailimf_crlf_parse(data, len, &off);
	if (mailmime_fields_parse(fields, &mf) != MAILIMF_NO_ERROR)
		mf = NULL;
	mailimf_fields_free(fields);
	ret = mime_scan_push(s, data, len, off, mf, default_message, depth,
			     error_r);
	if (mf != NULL)
		mailmime_fields_free(mf);
	return ret;
}

/* mailmime_multipart_body_parse: queue each part of it. */
static int mime_scan_multipart(struct mime_scan *s,
			       const struct mime_scan_item *it,
			       const char **error_r)
{
	const char *m = it->data, *b = it->boundary;
	size_t len = it->len, cur = it->off, part_begin, blen = strlen(b);
	bool final_part = false;

	if (mime_preamble(m, len, &cur, true) == 0)
		while (!mime_boundary_at(m, len, &cur, b, blen) &&
		       mime_preamble(m, len, &cur, false) == 0)
			;
	part_begin = cur;
	for (;;) {
		mime_lwsp(m, len, &cur);
		if (mailimf_crlf_parse(m, len, &cur) != MAILIMF_NO_ERROR)
			break;
		part_begin = cur;
	}
	cur = part_begin;
	while (!final_part) {
		size_t ps, pn;

		if (mime_part(m, len, &cur, b, blen, false, &ps, &pn) < 0) {
			if (mime_part(m, len, &cur, b, blen, true, &ps, &pn) < 0)
				break;
			final_part = true;
		}
		if (mime_scan_header(s, m + ps, pn, 0, false, it->digest,
				     it->depth + 1, error_r) < 0)
			return -1;
		mime_part_next(m, len, &cur);
	}
	return 0;
}

int mime_check_structure(const char *data, size_t len, unsigned *depth_r,
			 const char **error_r)
{
	struct mime_scan s = { 0 };
	int ret = 0;

	/* the mail itself: a message, not counted */
	ret = mime_scan_header(&s, data, len, 0, true, false, 1, error_r);
	while (ret == 0 && s.count > 0) {
		struct mime_scan_item it = s.items[--s.count];

		if (it.kind == MIME_SCAN_MESSAGE)
			ret = mime_scan_header(&s, it.data, it.len, it.off, true,
					       false, it.depth + 1, error_r);
		else
			ret = mime_scan_multipart(&s, &it, error_r);
		free(it.boundary);
	}
	while (s.count > 0)
		free(s.items[--s.count].boundary);
	free(s.items);
	if (depth_r != NULL)
		*depth_r = s.deepest;
	return ret;
}
