/* intake_mail.c -- the service's reading of what the mail layer found in
 * a mail (mail/inbound.h): its identity and text, the facts a refusal is
 * worded with, and what the service makes of the mail as a whole -- the
 * refusal code (a section of templates/mail/mail-refused.txt) or the
 * silent outcome that intake.c acts on.  The loop and the bot thread
 * only carry the result to server_handle().
 *
 * Its own file: only what reads real mail links the mail layer; the
 * service's tests hand server_handle() a server_inbound of their own.
 */
#include "server/server_private.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mail/inbound.h"
#include "util/msgid.h"

/* What a mail with a signature gpg did not find good is refused as. */
static const char *intake_sig_refusal(const struct inbound_msg *im)
{
	switch (im->sig.status) {
	case PGP_SIG_BAD:
		if (im->sig_nbsp)
			return "bad_signature_nbsp";
		return "bad_signature";
	case PGP_SIG_KEY_EXPIRED:
		return "key_expired";
	case PGP_SIG_KEY_REVOKED:
		return "key_revoked";
	case PGP_SIG_SIG_EXPIRED:
		return "signature_expired";
	case PGP_SIG_UNKNOWN_KEY:
		return "unknown_key";
	case PGP_SIG_ERROR:
		switch (im->sig.refused) {
		case PGP_REFUSED_SHAPE:
			return "signature_refused";
		case PGP_REFUSED_BUDGET:
			return "gpg_budget";
		case PGP_REFUSED_WEAK_DIGEST:
			return "weak_digest";
		case PGP_REFUSED_NONE:
			break;
		}
		return "bad_signature";
	case PGP_SIG_GOOD:
		if (im->freshness == INBOUND_FRESH_TOO_OLD)
			return "signature_too_old";
		if (im->freshness == INBOUND_FRESH_FUTURE)
			return "signature_future";
		return NULL;
	case PGP_SIG_NONE:
	default:
		/* Whether the club reads it anyway is intake.c's to say. */
		return "unsigned";
	}
}

/* References and In-Reply-To, space separated, or NULL. */
static char *intake_join_references(const struct inbound_msg *im)
{
	struct buf b = BUF_INIT;
	size_t i;

	for (i = 0; i < im->references.count; i++) {
		if (b.len)
			buf_putc(&b, ' ');
		buf_puts(&b, im->references.items[i]);
	}
	if (im->in_reply_to) {
		if (b.len)
			buf_putc(&b, ' ');
		buf_puts(&b, im->in_reply_to);
	}
	return b.len ? buf_steal(&b) : (buf_free(&b), NULL);
}

/* The reason the reply gives for a mail it cannot use: the decoder's,
 * the signature's refusal (pre-scan, budget, digest), or a key too big
 * to read -- then the unknown_key reply names the limit rather than
 * asking for a key the mail did carry. */
static const char *intake_problem(const struct inbound_msg *im,
				  struct server_mail_facts *facts)
{
	size_t i;

	if (im->problem_detail != NULL)
		return im->problem_detail;
	if (im->sig.why[0] != '\0')
		return im->sig.why;
	for (i = 0; i < im->key_count; i++) {
		if (im->keys[i].len <= PGP_KEY_MAX_BYTES)
			continue;
		snprintf(facts->key_note, sizeof(facts->key_note), "the public "
			 "key in it is %zu bytes, over the limit of %u bytes",
			 im->keys[i].len, (unsigned int)PGP_KEY_MAX_BYTES);
		return facts->key_note;
	}
	return NULL;
}

void server_inbound_from_mail(const struct inbound_msg *im, const char *raw,
			      size_t raw_len, size_t size_limit,
			      struct server_mail_facts *facts,
			      struct server_inbound *si)
{
	memset(facts, 0, sizeof(*facts));
	memset(si, 0, sizeof(*si));
	facts->references = intake_join_references(im);
	si->from_address = im->from_addr;
	si->message_id = msgid_bare(im->message_id, facts->message_id,
				    sizeof(facts->message_id));
	si->raw_sha256 = im->raw_sha256;
	si->raw = raw;
	si->raw_len = raw_len;
	si->subject = im->subject;
	si->content_language = im->content_language;
	si->references = facts->references;
	si->body = im->text ? im->text : "";
	si->body_len = strlen(si->body);
	si->unsigned_text_ignored = im->text_outside_signature;
	si->key_offered = im->key_count > 0 || im->imported_fprs.count > 0;
	/* an unknown key: the primary the mail carried, as the sender's
	 * program shows it, rather than the signing subkey */
	si->signer = im->carried_fpr[0] != '\0' ? im->carried_fpr : im->sig.fpr;
	si->signature_time = (int64_t)im->sig.created;
	si->problem = intake_problem(im, facts);
	si->size = im->raw_size;
	si->size_limit = size_limit;
	switch (im->verdict) {
	case CLASSIFY_NORMAL:
		break;
	case CLASSIFY_OVERSIZED:
		/* Only the header block is worth keeping of it. */
		si->mail_refusal = "too_big";
		si->raw_len = im->header_len;
		si->raw_truncated = true;
		return;
	case CLASSIFY_BOUNCE:
		/* intake.c marks an address failing only for a report
		 * naming one of our Message-IDs. */
		si->silent_outcome = "bounce";
		si->bounce_ids = (const char *const *)im->bounce_message_ids.items;
		si->bounce_id_count = im->bounce_message_ids.count;
		return;
	default:
		/* Loops and automatic mail are archived, never answered. */
		si->silent_outcome = classify_verdict_name(im->verdict);
		return;
	}
	if (im->problem == INBOUND_ENCRYPTED)
		si->mail_refusal = "encrypted";
	else if (im->problem != INBOUND_OK)
		si->mail_refusal = "unreadable";
	else
		si->mail_refusal = intake_sig_refusal(im);
	if (si->mail_refusal == NULL) {
		si->fingerprint = im->sig.fpr;
		si->signed_sha256 = im->signed_sha256;
	}
}

void server_mail_facts_free(struct server_mail_facts *facts)
{
	free(facts->references);
	facts->references = NULL;
}
