/* inbound.c -- raw mail bytes to a verified message (see inbound.h): the
 * entry point, the message's life, its digests, and what the header block
 * says (sender, ids, references, the loop and bounce filters, what a
 * bounce is about).  The body -- text, keys, signature -- is read in
 * inbound_body.c. */
#include "config.h"

#include "mail/inbound.h"

#include <ctype.h>
#include <gnutls/crypto.h>
#include <libetpan/libetpan.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "mail/inbound_private.h"
#include "mail/mime.h"
#include "util/buf.h"
#include "util/xstr.h"

/* Headers of an oversized mail are read from at most this many bytes. */
#define INBOUND_HEADER_MAX (256 * 1024)

static __thread char inbound_error[256];


void inbound_msg_free(struct inbound_msg **msgp)
{
	struct inbound_msg *msg = *msgp;
	size_t i;

	if (msg == NULL)
		return;
	free(msg->problem_detail);
	free(msg->message_id);
	free(msg->from_addr);
	free(msg->subject);
	free(msg->in_reply_to);
	free(msg->content_language);
	inbound_strs_free(&msg->references);
	free(msg->text);
	for (i = 0; i < msg->key_count; i++)
		free(msg->keys[i].data);
	free(msg->keys);
	inbound_strs_free(&msg->imported_fprs);
	inbound_strs_free(&msg->bounce_message_ids);
	inbound_strs_free(&msg->bounce_recipients);
	free(msg);
	*msgp = NULL;
}

bool inbound_msg_signature_ok(const struct inbound_msg *msg)
{
	return msg->verdict == CLASSIFY_NORMAL && msg->problem == INBOUND_OK &&
	       msg->sig_kind != INBOUND_UNSIGNED &&
	       msg->sig.status == PGP_SIG_GOOD &&
	       msg->freshness == INBOUND_FRESH_OK && msg->text != NULL;
}


void inbound_sha256_hex(const void *data, size_t len,
			char hex_r[INBOUND_SHA256_HEX_LEN + 1])
{
	static const char digits[] = "0123456789abcdef";
	unsigned char d[INBOUND_SHA256_HEX_LEN / 2];
	size_t i;

	/* Fails only when GnuTLS itself is broken (no SHA-256, no memory):
	 * without a digest no mail can be recorded. */
	if (gnutls_hash_fast(GNUTLS_DIG_SHA256, data, len, d) < 0) {
		fputs("inbound: GnuTLS cannot compute SHA-256\n", stderr);
		abort();
	}
	for (i = 0; i < sizeof(d); i++) {
		hex_r[2 * i] = digits[d[i] >> 4];
		hex_r[2 * i + 1] = digits[d[i] & 15];
	}
	hex_r[INBOUND_SHA256_HEX_LEN] = '\0';
}

/* ---- headers ---- */

struct inbound_hdrs {
	const char *auto_submitted;
	const char *precedence;
	bool list;
	const char *x_loop[8];
	size_t x_loop_count;
	const char *return_path;
	bool have_return_path;
};

/* The Date header as a time, or 0 when any field is out of range (the
 * numbers are the sender's: a zone of +4607453 must not overflow). */
static time_t inbound_date(const struct mailimf_date_time *d)
{
	struct tm tm = { 0 };
	int zone = d->dt_zone, off;
	time_t t;

	if (d->dt_year < 1900 || d->dt_year > 9999 || d->dt_month < 1 ||
	    d->dt_month > 12 || d->dt_day < 1 || d->dt_day > 31 ||
	    d->dt_hour < 0 || d->dt_hour > 23 || d->dt_min < 0 ||
	    d->dt_min > 59 || d->dt_sec < 0 || d->dt_sec > 60 ||
	    zone < -9959 || zone > 9959)
		return 0;
	tm.tm_year = d->dt_year - 1900;
	tm.tm_mon = d->dt_month - 1;
	tm.tm_mday = d->dt_day;
	tm.tm_hour = d->dt_hour;
	tm.tm_min = d->dt_min;
	tm.tm_sec = d->dt_sec;
	t = timegm(&tm);
	if (t == (time_t)-1)
		return 0;
	off = (zone / 100) * 3600 + (zone % 100) * 60;
	return t - off;
}

/* UTF-8 subject from an RFC 2047 header value; control characters are
 * dropped so a subject can be quoted in a reply safely. */
static char *inbound_subject(const char *value)
{
	struct buf b = BUF_INIT, clean = BUF_INIT;
	const char *err;
	char *dec = NULL;
	size_t idx = 0, i;

	if (mailmime_encoded_phrase_parse("iso-8859-1", value, strlen(value),
					  &idx, "utf-8", &dec) == MAILIMF_NO_ERROR &&
	    dec != NULL) {
		if (mime_to_utf8("utf-8", dec, strlen(dec), &b, &err) < 0)
			buf_reset(&b);
		free(dec);
	}
	if (b.len == 0 && mime_to_utf8("utf-8", value, strlen(value), &b, &err) < 0)
		buf_reset(&b);
	for (i = 0; i < b.len; i++) {
		unsigned char c = (unsigned char)b.data[i];
		if (c >= 0x20 && c != 0x7f)
			buf_putc(&clean, (char)c);
		else if (c == '\t')
			buf_putc(&clean, ' ');
	}
	buf_free(&b);
	return buf_steal(&clean);
}

static void inbound_read_headers(struct inbound_msg *msg,
				 const struct mailimf_fields *fields,
				 struct inbound_hdrs *h)
{
	clistiter *it;

	if (fields == NULL)
		return;
	for (it = clist_begin(fields->fld_list); it != NULL; it = clist_next(it)) {
		const struct mailimf_field *f = clist_content(it);
		char id[1024];

		switch (f->fld_type) {
		case MAILIMF_FIELD_RETURN_PATH:
			if (h->have_return_path)
				break;
			h->have_return_path = true;
			h->return_path = f->fld_data.fld_return_path->ret_path->pt_addr_spec;
			if (h->return_path == NULL)
				h->return_path = "";
			break;
		case MAILIMF_FIELD_ORIG_DATE:
			if (msg->date == 0)
				msg->date = inbound_date(f->fld_data.fld_orig_date->dt_date_time);
			break;
		case MAILIMF_FIELD_FROM:
			if (msg->from_addr == NULL &&
			    clist_count(f->fld_data.fld_from->frm_mb_list->mb_list) > 0) {
				const struct mailimf_mailbox *mb = clist_content(
					clist_begin(f->fld_data.fld_from->frm_mb_list->mb_list));
				msg->from_addr = xstrdup(mb->mb_addr_spec);
			}
			break;
		case MAILIMF_FIELD_MESSAGE_ID:
			if (msg->message_id == NULL) {
				snprintf(id, sizeof(id), "<%s>",
					 f->fld_data.fld_message_id->mid_value);
				msg->message_id = xstrdup(id);
			}
			break;
		case MAILIMF_FIELD_IN_REPLY_TO:
			if (msg->in_reply_to == NULL &&
			    clist_count(f->fld_data.fld_in_reply_to->mid_list) > 0) {
				snprintf(id, sizeof(id), "<%s>", (const char *)clist_content(
					clist_begin(f->fld_data.fld_in_reply_to->mid_list)));
				msg->in_reply_to = xstrdup(id);
			}
			break;
		case MAILIMF_FIELD_REFERENCES: {
			clistiter *r;
			for (r = clist_begin(f->fld_data.fld_references->mid_list);
			     r != NULL; r = clist_next(r)) {
				snprintf(id, sizeof(id), "<%s>",
					 (const char *)clist_content(r));
				inbound_strs_add(&msg->references, id);
			}
			break;
		}
		case MAILIMF_FIELD_SUBJECT:
			if (msg->subject == NULL)
				msg->subject = inbound_subject(f->fld_data.fld_subject->sbj_value);
			break;
		case MAILIMF_FIELD_OPTIONAL_FIELD: {
			const struct mailimf_optional_field *o =
				f->fld_data.fld_optional_field;
			if (strcasecmp(o->fld_name, "Auto-Submitted") == 0) {
				if (h->auto_submitted == NULL)
					h->auto_submitted = o->fld_value;
			} else if (strcasecmp(o->fld_name, "Precedence") == 0) {
				if (h->precedence == NULL)
					h->precedence = o->fld_value;
			} else if (strcasecmp(o->fld_name, "List-Id") == 0 ||
				   strcasecmp(o->fld_name, "List-Post") == 0) {
				h->list = true;
			} else if (strcasecmp(o->fld_name, "X-Loop") == 0) {
				if (h->x_loop_count < sizeof(h->x_loop) / sizeof(h->x_loop[0]))
					h->x_loop[h->x_loop_count++] = o->fld_value;
			} else if (strcasecmp(o->fld_name, "Return-Path") == 0 &&
				   !h->have_return_path) {
				/* libetpan leaves "<>" unparsed */
				const char *v = o->fld_value;
				while (isspace((unsigned char)*v))
					v++;
				if (strncmp(v, "<>", 2) == 0) {
					h->have_return_path = true;
					h->return_path = "";
				}
			}
			break;
		}
		default:
			break;
		}
	}
}

static enum classify_verdict inbound_classify(const struct inbound_msg *msg,
					      const struct inbound_hdrs *h,
					      const char *content_type,
					      const char *report_type,
					      const struct inbound_options *opts)
{
	struct classify_headers ch = {
		.from_addr = msg->from_addr,
		.return_path = h->have_return_path ? h->return_path : NULL,
		.auto_submitted = h->auto_submitted,
		.precedence = h->precedence,
		.list = h->list,
		.x_loop = h->x_loop,
		.x_loop_count = h->x_loop_count,
		.content_type = content_type,
		.report_type = report_type,
	};

	return classify_headers(&ch, opts->our_addrs);
}

/* ---- headers only: a mail too big, or whose MIME is refused ---- */

/* The first Content-Language of the top-level header (hdr, len bytes
 * of CRLF text: the header block ends at the first empty line), its
 * folded lines joined, cut to INBOUND_LANGUAGE_MAX bytes.  Read from
 * the bytes rather than from libetpan's MIME fields: libetpan 1.9.4
 * files the field but hands back an empty list of tags. */
static void inbound_read_language(struct inbound_msg *msg, const char *hdr,
				  size_t len)
{
	static const char name[] = "Content-Language:";
	const size_t nlen = sizeof(name) - 1;
	const char *p = hdr, *end = hdr + (len < INBOUND_HEADER_MAX ? len :
					   INBOUND_HEADER_MAX);
	char value[INBOUND_LANGUAGE_MAX + 1];
	size_t n = 0;

	if (msg->content_language != NULL)
		return;
	while (p < end && *p != '\r' && *p != '\n') {
		const char *eol = memchr(p, '\n', (size_t)(end - p));

		if (eol == NULL)
			eol = end;
		if ((size_t)(eol - p) >= nlen && strncasecmp(p, name, nlen) == 0) {
			const char *v = p + nlen;

			/* this line and the folded ones after it */
			for (;;) {
				for (; v < eol && n < INBOUND_LANGUAGE_MAX; v++)
					if (*v != '\r' && (n > 0 || (*v != ' ' &&
								     *v != '\t')))
						value[n++] = *v;
				if (eol + 1 >= end ||
				    (eol[1] != ' ' && eol[1] != '\t'))
					break;
				v = eol + 1;
				eol = memchr(v, '\n', (size_t)(end - v));
				if (eol == NULL)
					eol = end;
			}
			while (n > 0 && (value[n - 1] == ' ' ||
					 value[n - 1] == '\t'))
				n--;
			value[n] = '\0';
			if (n > 0)
				msg->content_language = xstrdup(value);
			return;
		}
		p = eol + 1;
	}
}

/* Read the top-level header block alone (From, Message-ID, the loop and
 * bounce filters), so that even a mail whose body cannot be read can be
 * recorded with its sender and answered. */
static void inbound_header_only(struct inbound_msg *msg, const char *raw,
				size_t len, const struct inbound_options *opts)
{
	struct buf hdr = BUF_INIT;
	struct mailimf_fields *fields = NULL;
	struct inbound_hdrs h = { 0 };
	size_t n = len < INBOUND_HEADER_MAX ? len : INBOUND_HEADER_MAX, i, idx = 0;
	const char *err;

	for (i = 0; i + 1 < n; i++) {
		if (raw[i] == '\n' && (raw[i + 1] == '\n' ||
				       (raw[i + 1] == '\r' && i + 2 < n && raw[i + 2] == '\n'))) {
			n = i + 1;
			break;
		}
	}
	msg->header_len = n;
	mime_to_crlf(raw, n, &hdr);
	buf_append(&hdr, "\r\n", 2);
	/* libetpan recurses once per nested comment: a hostile header
	 * would overflow the stack (mime.h); such a header is not read.
	 * And it is read as mime_parse reads the top-level header (envelope
	 * fields, the rest optional): mailimf_fields_parse's Return-Path
	 * parser leaks the address of a malformed path. */
	if (mime_check_header(hdr.data, hdr.len, &err) == 0 &&
	    mailimf_envelope_and_optional_fields_parse(hdr.data, hdr.len, &idx,
						       &fields) == MAILIMF_NO_ERROR)
		inbound_read_headers(msg, fields, &h);
	inbound_read_language(msg, hdr.data, hdr.len);
	msg->verdict = inbound_classify(msg, &h, NULL, NULL, opts);
	if (fields != NULL)
		mailimf_fields_free(fields);
	buf_free(&hdr);
}

static void inbound_oversized(struct inbound_msg *msg, const char *raw,
			      size_t len, const struct inbound_options *opts)
{
	inbound_header_only(msg, raw, len, opts);
	if (msg->verdict == CLASSIFY_NORMAL || msg->verdict == CLASSIFY_BOUNCE)
		msg->verdict = CLASSIFY_OVERSIZED;
}

/* ---- bounces ---- */

static void inbound_add_id(const char *id, void *ctx)
{
	inbound_strs_add(ctx, id);
}

static void inbound_bounce_part(struct mailmime *m, void *ctx)
{
	struct inbound_msg *msg = ctx;
	struct buf body = BUF_INIT;
	const char *err;
	char type[64];

	mime_type(m, type, sizeof(type));
	if (strcmp(type, "message/delivery-status") == 0) {
		if (m->mm_type == MAILMIME_SINGLE)
			(void)mime_decode(m, &body, &err);
		else
			buf_append(&body, m->mm_mime_start, m->mm_length);
		classify_dsn_recipients(body.data, body.len, inbound_add_id,
					&msg->bounce_recipients);
	} else if (strcmp(type, "text/rfc822-headers") == 0 ||
		   strcmp(type, "message/rfc822") == 0 ||
		   strcmp(type, "message/rfc822-headers") == 0) {
		if (m->mm_type == MAILMIME_SINGLE)
			(void)mime_decode(m, &body, &err);
		else
			buf_append(&body, m->mm_mime_start, m->mm_length);
		classify_find_message_ids(body.data, body.len, inbound_add_id,
					  &msg->bounce_message_ids);
	}
	buf_free(&body);
}

static void inbound_bounce(struct inbound_msg *msg, struct mailmime *root)
{
	struct mailmime *body = mime_message_body(root);
	struct mailmime *text;
	struct buf b = BUF_INIT;
	const char *err;
	bool html;

	mime_walk(body, inbound_bounce_part, msg);
	/* A plain-text bounce quotes the returned headers in its text. */
	if (msg->bounce_message_ids.count == 0 &&
	    (text = mime_find_text_part(root, &html)) != NULL &&
	    mime_decode(text, &b, &err) == 0)
		classify_find_message_ids(b.data, b.len, inbound_add_id,
					  &msg->bounce_message_ids);
	if (msg->in_reply_to != NULL)
		inbound_strs_add(&msg->bounce_message_ids, msg->in_reply_to);
	buf_free(&b);
}

int inbound_parse(const char *raw, size_t len,
		  const struct inbound_options *opts,
		  struct inbound_msg **msg_r, const char **error_r)
{
	struct inbound_msg *msg;
	struct buf canon = BUF_INIT;
	struct mailmime *root = NULL, *body;
	struct inbound_hdrs h = { 0 };
	size_t max_size = opts->max_size > 0 ? opts->max_size :
			  INBOUND_DEFAULT_MAX_SIZE;
	char type[64];
	const char *err;
	int ret = -1;

	msg = calloc(1, sizeof(*msg));
	if (msg == NULL) {
		*error_r = "out of memory";
		return -1;
	}
	msg->raw_size = len;
	inbound_sha256_hex(raw, len, msg->raw_sha256);
	if (len > max_size) {
		inbound_oversized(msg, raw, len, opts);
		ret = 0;
		goto out;
	}
	/* One canonical form (CRLF) for everything: RFC 3156 signs CRLF
	 * text, and a maildir file usually has LF. */
	mime_to_crlf(raw, len, &canon);
	if (canon.data == NULL)
		buf_puts(&canon, "");
	if (mime_parse(canon.data, canon.len, &root, &err) < 0) {
		/* Still say to whom: the reply tells the sender why. */
		inbound_problem(msg, INBOUND_BAD_MIME, err);
		inbound_header_only(msg, canon.data, canon.len, opts);
		msg->header_len = 0;
		ret = 0;
		goto out;
	}
	if (root->mm_type == MAILMIME_MESSAGE)
		inbound_read_headers(msg, root->mm_data.mm_message.mm_fields, &h);
	inbound_read_language(msg, canon.data, canon.len);
	body = mime_message_body(root);
	mime_type(body, type, sizeof(type));
	msg->verdict = inbound_classify(msg, &h, type,
					mime_param(body, "report-type"), opts);
	if (msg->verdict == CLASSIFY_BOUNCE)
		inbound_bounce(msg, root);
	if (msg->verdict != CLASSIFY_NORMAL) {
		ret = 0;
		goto out;
	}
	ret = inbound_read_body(msg, opts, root, &canon, error_r);
	if (ret == 0)
		inbound_name_carried_key(msg, opts);
	if (msg->problem != INBOUND_OK) {
		free(msg->text);
		msg->text = NULL;
	}
out:
	mime_free(&root);
	buf_free(&canon);
	if (ret < 0) {
		snprintf(inbound_error, sizeof(inbound_error), "%s", *error_r);
		*error_r = inbound_error;
		inbound_msg_free(&msg);
		return -1;
	}
	*msg_r = msg;
	return 0;
}
