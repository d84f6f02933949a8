/* inbound_clients.c -- client habits undone (see inbound_clients.h). */
#include "config.h"

#include <string.h>

#include "mail/flowed.h"
#include "mail/inbound_clients.h"
#include "mail/mime.h"

void inbound_unflow(const struct mailmime *part, struct buf *text)
{
	if (part == NULL)
		return;
	flowed_decode_buf(mime_param(part, "format"), mime_param(part, "delsp"),
			  text);
}

struct mailmime *inbound_html_alternative(const struct mailmime *part)
{
	const struct mailmime *parent;
	char type[64];
	clistiter *it;

	if (part == NULL || (parent = part->mm_parent) == NULL ||
	    parent->mm_type != MAILMIME_MULTIPLE)
		return NULL;
	mime_type(parent, type, sizeof(type));
	if (strcmp(type, "multipart/alternative") != 0)
		return NULL;
	for (it = clist_begin(parent->mm_data.mm_multipart.mm_mp_list);
	     it != NULL; it = clist_next(it)) {
		struct mailmime *m = clist_content(it);

		if (m == part || m->mm_type != MAILMIME_SINGLE ||
		    mime_is_attachment(m))
			continue;
		mime_type(m, type, sizeof(type));
		if (strcmp(type, "text/html") == 0)
			return m;
	}
	return NULL;
}

bool inbound_has_nbsp(const char *s, size_t len)
{
	for (size_t i = 0; i + 1 < len; i++)
		if ((unsigned char)s[i] == 0xc2 && (unsigned char)s[i + 1] == 0xa0)
			return true;
	return false;
}

bool inbound_nbsp_html_block(const struct mailmime *plain, const char *block,
			     size_t n, struct buf *html_text, size_t *start_r,
			     size_t *n_r)
{
	struct mailmime *alt;
	struct buf dec = BUF_INIT, utf8 = BUF_INIT;
	const char *err;
	size_t hs, hn;
	bool found = false;

	if (!inbound_has_nbsp(block, n) ||
	    (alt = inbound_html_alternative(plain)) == NULL ||
	    mime_decode(alt, &dec, &err) < 0 ||
	    mime_to_utf8(mime_param(alt, "charset"), dec.data ? dec.data : "",
			 dec.len, &utf8, &err) < 0)
		goto out;
	mime_html_to_text(utf8.data ? utf8.data : "", utf8.len, html_text);
	found = mime_find_clearsigned(html_text->data ? html_text->data : "",
				      html_text->len, &hs, &hn) &&
		!inbound_has_nbsp(html_text->data + hs, hn);
	if (found) {
		*start_r = hs;
		*n_r = hn;
	}
out:
	buf_free(&dec);
	buf_free(&utf8);
	return found;
}
