/* inbound.c -- raw mail bytes to a verified message; see inbound.h. */
#include "config.h"

#include "mail/inbound.h"

#include <ctype.h>
#include <libetpan/libetpan.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "mail/mime.h"
#include "util/buf.h"
#include "util/xstr.h"

/* Headers of an oversized mail are read from at most this many bytes. */
#define INBOUND_HEADER_MAX (256 * 1024)

static __thread char inbound_error[256];

void inbound_strs_add(struct inbound_strs *l, const char *s)
{
	char **items;
	size_t i;

	for (i = 0; i < l->count; i++)
		if (strcmp(l->items[i], s) == 0)
			return;
	items = realloc(l->items, (l->count + 1) * sizeof(*items));
	if (items == NULL) {
		fputs("inbound: out of memory\n", stderr);
		abort();
	}
	l->items = items;
	l->items[l->count++] = xstrdup(s);
}

void inbound_strs_free(struct inbound_strs *l)
{
	size_t i;

	for (i = 0; i < l->count; i++)
		free(l->items[i]);
	free(l->items);
	l->items = NULL;
	l->count = 0;
}

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

static void inbound_problem(struct inbound_msg *msg, enum inbound_problem p,
			    const char *detail)
{
	if (msg->problem != INBOUND_OK)
		return;
	msg->problem = p;
	msg->problem_detail = xstrdup(detail);
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

/* ---- text and keys ---- */

/* CRLF -> LF, a final LF, no leading BOM: the command text the daemon
 * reads. */
static char *inbound_finish_text(const char *s, size_t len)
{
	struct buf b = BUF_INIT;
	size_t i;

	if (len >= 3 && memcmp(s, "\xef\xbb\xbf", 3) == 0) {
		s += 3;
		len -= 3;
	}
	for (i = 0; i < len; i++) {
		if (s[i] == '\r' && i + 1 < len && s[i + 1] == '\n')
			continue;
		buf_putc(&b, s[i] == '\r' ? '\n' : s[i]);
	}
	/* every line ends in LF, the last one too */
	if (b.len > 0 && b.data[b.len - 1] != '\n')
		buf_putc(&b, '\n');
	if (b.data == NULL)
		buf_puts(&b, "");
	return buf_steal(&b);
}

static void inbound_add_key(struct inbound_msg *msg, const char *data,
			    size_t len, bool attached)
{
	struct inbound_key *keys;
	size_t i;

	for (i = 0; i < msg->key_count; i++)
		if (msg->keys[i].len == len && memcmp(msg->keys[i].data, data, len) == 0)
			return;
	keys = realloc(msg->keys, (msg->key_count + 1) * sizeof(*keys));
	if (keys == NULL) {
		fputs("inbound: out of memory\n", stderr);
		abort();
	}
	msg->keys = keys;
	keys[msg->key_count].data = malloc(len + 1);
	if (keys[msg->key_count].data == NULL) {
		fputs("inbound: out of memory\n", stderr);
		abort();
	}
	memcpy(keys[msg->key_count].data, data, len);
	keys[msg->key_count].data[len] = '\0';
	keys[msg->key_count].len = len;
	keys[msg->key_count].attached = attached;
	msg->key_count++;
}

static void inbound_pasted_keys(struct inbound_msg *msg, const char *text,
				size_t len)
{
	size_t pos = 0, start, n;

	while (mime_find_armor(text, len, "PGP PUBLIC KEY BLOCK", &pos, &start, &n))
		inbound_add_key(msg, text + start, n, false);
}

static void inbound_key_part(struct mailmime *m, void *ctx)
{
	struct inbound_msg *msg = ctx;
	struct buf b = BUF_INIT;
	const char *err;
	char type[64];

	if (m->mm_type != MAILMIME_SINGLE)
		return;
	mime_type(m, type, sizeof(type));
	if (strcmp(type, "application/pgp-keys") == 0 &&
	    mime_decode(m, &b, &err) == 0 && b.len > 0)
		inbound_add_key(msg, b.data, b.len, true);
	buf_free(&b);
}

/* Decoded text of a text part into *utf8 (HTML converted).  Sets the
 * problem and returns -1 when it cannot be read. */
static int inbound_part_utf8(struct inbound_msg *msg, struct mailmime *part,
			     bool html, const char *bytes, size_t len,
			     struct buf *utf8)
{
	struct buf tmp = BUF_INIT;
	const char *err;

	if (mime_to_utf8(mime_param(part, "charset"), bytes, len, &tmp, &err) < 0) {
		inbound_problem(msg, INBOUND_UNDECODABLE, err);
		buf_free(&tmp);
		return -1;
	}
	if (html)
		mime_html_to_text(tmp.data ? tmp.data : "", tmp.len, utf8);
	else
		buf_append(utf8, tmp.data ? tmp.data : "", tmp.len);
	buf_free(&tmp);
	return 0;
}

static bool inbound_blank(const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (!isspace((unsigned char)s[i]))
			return false;
	return true;
}

/* ---- signatures ---- */

static void inbound_freshness(struct inbound_msg *msg,
			      const struct inbound_options *opts)
{
	long max_age = opts->max_age > 0 ? opts->max_age : INBOUND_DEFAULT_MAX_AGE;
	long max_future = opts->max_future > 0 ? opts->max_future :
			  INBOUND_DEFAULT_MAX_FUTURE;

	if (msg->sig.status != PGP_SIG_GOOD)
		return;
	if (msg->sig.created < opts->now - max_age)
		msg->freshness = INBOUND_FRESH_TOO_OLD;
	else if (msg->sig.created > opts->now + max_future)
		msg->freshness = INBOUND_FRESH_FUTURE;
}

/* The digest of signed content as every signature over it sees it: line
 * ends (CRLF, CR or LF) made one, trailing blanks of each line and blank
 * lines at the end dropped.  An OpenPGP text signature (a clearsigned
 * block, and PGP/MIME signed in text mode) does not cover trailing blanks
 * or the form of line ends, so an attacker can change those and the
 * signature still verifies: the replay history must not see a new text
 * then.  Coarser than any signature's own canonical form is safe -- the
 * same verified content always gives the same digest. */
static void inbound_canon_digest(const char *s, size_t len, char *hex)
{
	struct buf b = BUF_INIT;
	size_t i = 0, keep = 0;

	while (i < len) {
		size_t start = i, end;

		while (i < len && s[i] != '\r' && s[i] != '\n')
			i++;
		end = i;
		while (end > start && (s[end - 1] == ' ' || s[end - 1] == '\t'))
			end--;
		buf_append(&b, s + start, end - start);
		if (end > start)
			keep = b.len;
		if (i < len && s[i] == '\r' && i + 1 < len && s[i + 1] == '\n')
			i++;
		if (i < len) {
			i++;
			buf_putc(&b, '\n');
		}
	}
	sha256_hex(b.data ? b.data : "", keep, hex);
	buf_free(&b);
}

/* Turn the digest of the signed content in msg->signed_sha256 into the
 * digest of the signature itself: signer, creation time and content, as
 * dak's signature history keys it.  The replay history must refuse the
 * same signature sent again (however its armor or MIME wrapping was
 * redone), but not the same words signed again: a player sends "board 3"
 * or "accept 5" more than once, and another player signing the words of
 * your next move first must not make your own move a "replay". */
static void inbound_signature_id(struct inbound_msg *msg)
{
	char id[PGP_FPR_MAX + SHA256_HEX_LEN + 32];
	int n;

	if (msg->sig.fpr[0] == '\0')
		return;
	n = snprintf(id, sizeof(id), "%s %lld %s", msg->sig.fpr,
		     (long long)msg->sig.created, msg->signed_sha256);
	sha256_hex(id, (size_t)n, msg->signed_sha256);
}

/* Import the keys the mail carries (the register path). */
static int inbound_import(struct inbound_msg *msg,
			  const struct inbound_options *opts,
			  const char **error_r)
{
	size_t i;
	int imported = 0;

	for (i = 0; i < msg->key_count; i++) {
		char **fprs = NULL;
		unsigned int n = 0, k;
		const char *err;

		if (pgp_import_keys(opts->pgp, msg->keys[i].data,
				    msg->keys[i].len, &fprs, &n, &err) < 0)
			continue; /* a broken key is the mail's problem */
		for (k = 0; k < n; k++)
			inbound_strs_add(&msg->imported_fprs, fprs[k]);
		imported += (int)n;
		pgp_fprs_free(&fprs);
		/* One key a mail: a registration brings one, and a mail with
		 * many attachments must not grow the keyring by many. */
		if (n > 0)
			break;
	}
	(void)error_r;
	return imported;
}

/* Walk state to see whether text exists outside the signed entity. */
struct inbound_outside {
	struct mailmime *signed_entity;
	bool found;
};

static bool inbound_is_below(struct mailmime *m, struct mailmime *ancestor)
{
	for (; m != NULL; m = m->mm_parent)
		if (m == ancestor)
			return true;
	return false;
}

static void inbound_outside_part(struct mailmime *m, void *ctx)
{
	struct inbound_outside *o = ctx;
	struct buf b = BUF_INIT;
	const char *err;
	char type[64];

	if (o->found || m->mm_type != MAILMIME_SINGLE ||
	    inbound_is_below(m, o->signed_entity) || mime_is_attachment(m))
		return;
	mime_type(m, type, sizeof(type));
	if (strncmp(type, "text/", 5) != 0)
		return;
	if (mime_decode(m, &b, &err) < 0 || !inbound_blank(b.data, b.len))
		o->found = true;
	buf_free(&b);
}

static struct mailmime *inbound_find_signed(struct mailmime *m)
{
	char type[64];
	const char *proto;
	clistiter *it;

	mime_type(m, type, sizeof(type));
	proto = mime_param(m, "protocol");
	if (strcmp(type, "multipart/signed") == 0 && proto != NULL &&
	    strcasecmp(proto, "application/pgp-signature") == 0)
		return m;
	if (m->mm_type != MAILMIME_MULTIPLE)
		return NULL;
	for (it = clist_begin(m->mm_data.mm_multipart.mm_mp_list); it != NULL;
	     it = clist_next(it)) {
		struct mailmime *found = inbound_find_signed(clist_content(it));
		if (found != NULL)
			return found;
	}
	return NULL;
}

static int inbound_pgp_mime(struct inbound_msg *msg,
			    const struct inbound_options *opts,
			    struct mailmime *root, struct mailmime *ms,
			    const struct buf *canon, const char **error_r)
{
	struct mailmime *signed_part, *sig_part, *text_part;
	struct inbound_outside outside = { .signed_entity = ms };
	struct buf sig = BUF_INIT, text = BUF_INIT, dec = BUF_INIT;
	const char *signed_data, *err;
	size_t signed_len;
	bool html;
	int ret = -1;

	msg->sig_kind = INBOUND_PGP_MIME;
	if (mime_signed_parts(ms, canon->data, canon->len, &signed_data,
			      &signed_len, &signed_part, &sig_part, &err) < 0 ||
	    mime_decode(sig_part, &sig, &err) < 0) {
		msg->sig.status = PGP_SIG_ERROR;
		inbound_problem(msg, INBOUND_BAD_MIME, err);
		ret = 0;
		goto out;
	}
	inbound_canon_digest(signed_data, signed_len, msg->signed_sha256);
	mime_walk(mime_message_body(root), inbound_outside_part, &outside);
	msg->text_outside_signature = outside.found;

	text_part = mime_find_text_part(signed_part, &html);
	mime_walk(signed_part, inbound_key_part, msg);
	if (text_part == NULL) {
		inbound_problem(msg, INBOUND_NO_TEXT,
				"the signed part holds no text");
	} else if (mime_decode(text_part, &dec, &err) < 0) {
		inbound_problem(msg, INBOUND_UNDECODABLE, err);
	} else if (inbound_part_utf8(msg, text_part, html, dec.data, dec.len,
				     &text) == 0) {
		msg->text = inbound_finish_text(text.data ? text.data : "", text.len);
		msg->text_from_html = html;
		inbound_pasted_keys(msg, msg->text, strlen(msg->text));
	}
	if (opts->pgp == NULL) {
		msg->sig.status = PGP_SIG_ERROR;
		ret = 0;
		goto out;
	}
	if (pgp_verify_detached(opts->pgp, signed_data, signed_len, sig.data,
				sig.len, &msg->sig, error_r) < 0)
		goto out;
	if (msg->sig.status == PGP_SIG_UNKNOWN_KEY && opts->import_keys &&
	    inbound_import(msg, opts, error_r) > 0 &&
	    pgp_verify_detached(opts->pgp, signed_data, signed_len, sig.data,
				sig.len, &msg->sig, error_r) < 0)
		goto out;
	inbound_freshness(msg, opts);
	inbound_signature_id(msg);
	ret = 0;
out:
	buf_free(&sig);
	buf_free(&text);
	buf_free(&dec);
	return ret;
}

/* Our own reading of a clearsigned block's text (dash-escapes removed,
 * trailing whitespace dropped, CRLF), for keys pasted in it and for the
 * reply when gpg could not verify it.  Never for the replay digest: that
 * comes from the text gpg verified (a "- " line, for one, reads otherwise
 * here than in gpg). */
static void inbound_clear_text(const char *blk, size_t len, struct buf *out)
{
	size_t i = 0, e;
	bool in_headers = true, first = true;
	const char *sigp = NULL;

	/* skip the BEGIN line */
	while (i < len && blk[i] != '\n')
		i++;
	i++;
	for (; i < len; i = e + 1) {
		size_t s = i, t;

		e = i;
		while (e < len && blk[e] != '\n')
			e++;
		t = e;
		while (t > s && (blk[t - 1] == '\r' || blk[t - 1] == ' ' ||
				 blk[t - 1] == '\t'))
			t--;
		if (in_headers) {
			if (t == s)
				in_headers = false;
			continue;
		}
		if (t - s >= 29 && memcmp(blk + s, "-----BEGIN PGP SIGNATURE-----", 29) == 0) {
			sigp = blk + s;
			break;
		}
		if (t - s >= 2 && blk[s] == '-' && blk[s + 1] == ' ')
			s += 2;
		if (!first)
			buf_append(out, "\r\n", 2);
		buf_append(out, blk + s, t - s);
		first = false;
	}
	(void)sigp;
	if (out->data == NULL)
		buf_puts(out, "");
}

static int inbound_clearsigned(struct inbound_msg *msg,
			       const struct inbound_options *opts,
			       struct mailmime *part, bool html,
			       const char *bytes, size_t len, size_t start,
			       size_t blen, const char **error_r)
{
	struct buf plain = BUF_INIT, ours = BUF_INIT, utf8 = BUF_INIT;
	int ret = -1;

	msg->sig_kind = INBOUND_CLEARSIGNED;
	msg->text_outside_signature = !inbound_blank(bytes, start) ||
		!inbound_blank(bytes + start + blen, len - start - blen);
	inbound_clear_text(bytes + start, blen, &ours);
	if (opts->pgp == NULL) {
		msg->sig.status = PGP_SIG_ERROR;
	} else {
		if (pgp_verify_clearsigned(opts->pgp, bytes + start, blen,
					   &msg->sig, &plain, error_r) < 0)
			goto out;
	}
	/* The text from gpg when it verified; our own reading otherwise (only
	 * used for replies and for finding a pasted key to import). */
	if (plain.len == 0)
		buf_append(&plain, ours.data, ours.len);
	if (mime_to_utf8(html ? "utf-8" : mime_param(part, "charset"),
			 plain.data ? plain.data : "", plain.len, &utf8,
			 error_r) < 0) {
		inbound_problem(msg, INBOUND_UNDECODABLE, *error_r);
	} else {
		msg->text = inbound_finish_text(utf8.data ? utf8.data : "", utf8.len);
		msg->text_from_html = html;
		inbound_pasted_keys(msg, msg->text, strlen(msg->text));
	}
	if (opts->pgp != NULL && msg->sig.status == PGP_SIG_UNKNOWN_KEY &&
	    opts->import_keys && inbound_import(msg, opts, error_r) > 0) {
		buf_reset(&plain);
		if (pgp_verify_clearsigned(opts->pgp, bytes + start, blen,
					   &msg->sig, &plain, error_r) < 0)
			goto out;
	}
	/* The replay digest: of the text gpg verified, when it did. */
	if (msg->sig.status == PGP_SIG_GOOD)
		inbound_canon_digest(plain.data ? plain.data : "", plain.len,
				     msg->signed_sha256);
	else
		inbound_canon_digest(ours.data ? ours.data : "", ours.len,
				     msg->signed_sha256);
	inbound_freshness(msg, opts);
	inbound_signature_id(msg);
	ret = 0;
out:
	buf_free(&plain);
	buf_free(&ours);
	buf_free(&utf8);
	return ret;
}

static int inbound_body(struct inbound_msg *msg,
			const struct inbound_options *opts,
			struct mailmime *root, const char **error_r)
{
	struct buf dec = BUF_INIT, html_text = BUF_INIT, text = BUF_INIT;
	struct mailmime *part;
	const char *err, *bytes;
	size_t blen, start, n;
	bool html;
	int ret = 0;

	/* keys attached anywhere: harmless to collect, since only a
	 * signature the key itself verifies makes it count */
	mime_walk(mime_message_body(root), inbound_key_part, msg);
	part = mime_find_text_part(root, &html);
	if (part == NULL) {
		inbound_problem(msg, INBOUND_NO_TEXT, "the mail holds no text part");
		goto out;
	}
	if (mime_decode(part, &dec, &err) < 0) {
		inbound_problem(msg, INBOUND_UNDECODABLE, err);
		goto out;
	}
	bytes = dec.data ? dec.data : "";
	blen = dec.len;
	if (html) {
		/* Look for a clearsigned block in the rendered text. */
		if (inbound_part_utf8(msg, part, true, bytes, blen, &html_text) < 0)
			goto out;
		bytes = html_text.data ? html_text.data : "";
		blen = html_text.len;
	}
	if (mime_find_clearsigned(bytes, blen, &start, &n)) {
		ret = inbound_clearsigned(msg, opts, part, html, bytes, blen,
					  start, n, error_r);
		goto out;
	}
	if (html) {
		buf_append(&text, bytes, blen);
	} else if (inbound_part_utf8(msg, part, false, bytes, blen, &text) < 0) {
		goto out;
	}
	msg->text = inbound_finish_text(text.data ? text.data : "", text.len);
	msg->text_from_html = html;
	inbound_pasted_keys(msg, msg->text, strlen(msg->text));
out:
	buf_free(&dec);
	buf_free(&html_text);
	buf_free(&text);
	return ret;
}

int inbound_parse(const char *raw, size_t len,
		  const struct inbound_options *opts,
		  struct inbound_msg **msg_r, const char **error_r)
{
	struct inbound_msg *msg;
	struct buf canon = BUF_INIT;
	struct mailmime *root = NULL, *body, *ms;
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
	sha256_hex(raw, len, msg->raw_sha256);
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
	ms = inbound_find_signed(body);
	if (ms != NULL)
		ret = inbound_pgp_mime(msg, opts, root, ms, &canon, error_r);
	else
		ret = inbound_body(msg, opts, root, error_r);
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
