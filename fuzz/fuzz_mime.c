/* fuzz_mime.c -- libFuzzer target for the MIME limits: any bytes the
 * pre-scan (mime_check_structure) accepts must parse in libetpan to a
 * tree no deeper than the pre-scan counted -- else a mail could hide its
 * depth from the check -- and the tree must be safe to walk with mime.h.
 */
#include <libetpan/libetpan.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mail/mime.h"
#include "util/buf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Containers below m (multipart, message/rfc822), as the pre-scan counts
 * them.  The tree is at most MIME_MAX_DEPTH + 2 deep here. */
static unsigned tree_depth(const struct mailmime *m, unsigned depth)
{
	unsigned best = depth, d;
	const struct mailmime *c;
	clistiter *it;

	if (depth > MIME_MAX_DEPTH + 2)
		abort();
	if (m->mm_type == MAILMIME_MULTIPLE) {
		for (it = clist_begin(m->mm_data.mm_multipart.mm_mp_list);
		     it != NULL; it = clist_next(it)) {
			c = clist_content(it);
			d = tree_depth(c, depth + (c->mm_type != MAILMIME_SINGLE));
			best = d > best ? d : best;
		}
	} else if (m->mm_type == MAILMIME_MESSAGE &&
		   (c = m->mm_data.mm_message.mm_msg_mime) != NULL) {
		d = tree_depth(c, depth + (c->mm_type != MAILMIME_SINGLE));
		best = d > best ? d : best;
	}
	return best;
}

static void visit(struct mailmime *m, void *ctx)
{
	struct buf *b = ctx;
	const char *err;
	char type[64];

	mime_type(m, type, sizeof(type));
	(void)mime_param(m, "charset");
	(void)mime_is_attachment(m);
	buf_reset(b);
	(void)mime_decode(m, b, &err);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *raw = (const char *)data;
	struct mailmime *mime = NULL;
	struct buf b = BUF_INIT;
	const char *err = NULL;
	unsigned depth = 0;
	size_t idx = 0;
	bool html;

	if (mime_check_structure(raw, size, &depth, &err) < 0) {
		if (err == NULL || *err == '\0')
			abort();
		return 0;
	}
	if (depth > MIME_MAX_DEPTH)
		abort();
	if (mailmime_parse(raw, size, &idx, &mime) != MAILIMF_NO_ERROR)
		return 0;
	if (tree_depth(mime, 0) > depth)
		abort();
	mime_walk(mime, visit, &b);
	(void)mime_find_text_part(mime, &html);
	buf_free(&b);
	mime_free(&mime);
	return 0;
}
