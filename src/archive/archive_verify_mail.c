/* archive_verify_mail.c -- one signed mail of an archive, as verify
 * checks it: its files there, its signature good by a key of keys.asc,
 * the .eml holding exactly the bytes and the signature the other files
 * give (so that the text read from the mail is the text that was
 * signed), and that text as the daemon reads it. */
#include "archive/archive_private.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mail/inbound.h"
#include "util/xalloc.h"
#include "util/xstr.h"


int verify_fail(struct verify *v, enum archive_reason reason, size_t ply,
		const char *fmt, ...)
{
	va_list ap;

	v->v->reason = reason;
	v->v->ply = ply;
	va_start(ap, fmt);
	vsnprintf(v->v->detail, sizeof(v->v->detail), fmt, ap);
	va_end(ap);
	return 1;
}

bool verify_has(const struct verify *v, const char *name)
{
	for (size_t i = 0; i < v->nnames; i++)
		if (strcmp(v->names[i], name) == 0)
			return true;
	return false;
}

const char *verify_form(enum pgp_signed_kind kind)
{
	return kind == PGP_SIGNED_MIME ? "PGP/MIME" :
	       kind == PGP_SIGNED_CLEAR ? "inline" :
	       kind == PGP_SIGNED_MESSAGE ? "signed message" : "unsigned";
}

void verify_mails_free(struct verify *v)
{
	for (size_t i = 0; i < v->nmails; i++) {
		free(v->mails[i].text);
		free(v->mails[i].subject);
		free(v->mails[i].thread);
	}
	free(v->mails);
	v->mails = NULL;
	v->nmails = 0;
}

struct verify_mail *verify_mail_by_sha(const struct verify *v,
				       const char *sha256)
{
	for (size_t i = 0; i < v->nmails; i++)
		if (v->mails[i].sha256[0] != '\0' &&
		    strcmp(v->mails[i].sha256, sha256) == 0)
			return &v->mails[i];
	return NULL;
}

struct verify_mail *verify_mail_by_stem(const struct verify *v,
					const char *stem)
{
	for (size_t i = 0; i < v->nmails; i++)
		if (strcmp(v->mails[i].stem, stem) == 0)
			return &v->mails[i];
	return NULL;
}

/* Read file stem+ext into *b: 0, 1 (not there), -1 (errno). */
static int verify_read(struct verify *v, const char *stem, const char *ext,
		       struct buf *b)
{
	char name[40];

	snprintf(name, sizeof(name), "%s%s", stem, ext);
	if (!verify_has(v, name))
		return 1;
	return archive_read_file(v->dir, name, VERIFY_FILE_MAX, b);
}

/* The signature check of the signed bytes: 0 good (by a key that may
 * have expired or been revoked since), else 1 with the verdict. */
static int verify_signature(struct verify *v, const char *stem,
			    size_t ply, const struct pgp_sig *sig)
{
	switch (sig->status) {
	case PGP_SIG_GOOD:
	case PGP_SIG_KEY_EXPIRED:
	case PGP_SIG_KEY_REVOKED:
		return 0;
	case PGP_SIG_UNKNOWN_KEY:
		return verify_fail(v, ARCHIVE_FOREIGN_SIGNER, ply,
				   "%s is signed by key %s, which keys.asc "
				   "does not hold", stem,
				   sig->fpr[0] ? sig->fpr : "(unnamed)");
	case PGP_SIG_BAD:
		return verify_fail(v, ARCHIVE_TAMPERED_MAIL, ply,
				   "%s: the signature does not match the "
				   "signed bytes (BAD signature)", stem);
	default:
		return verify_fail(v, ARCHIVE_TAMPERED_MAIL, ply,
				   "%s: no valid signature (%s)", stem,
				   pgp_sig_status_name(sig->status));
	}
}

/* The .eml must hold exactly what the other files say was signed. */
static int verify_eml_holds(struct verify *v, const char *stem, size_t ply,
			    const struct buf *eml, enum pgp_signed_kind kind,
			    const struct buf *signed_part,
			    const struct buf *sig)
{
	struct buf s = BUF_INIT, d = BUF_INIT;
	enum pgp_signed_kind k;
	const char *error;
	int ret = 0;

	if (pgp_export_signed(eml->data, eml->len, &k, &s, &d, &error) < 0)
		ret = verify_fail(v, ARCHIVE_TAMPERED_MAIL, ply, "%s.eml: %s",
				  stem, error);
	else if (k != kind || s.len != signed_part->len ||
		 memcmp(s.data, signed_part->data, s.len) != 0 ||
		 (kind == PGP_SIGNED_MIME &&
		  (d.len != sig->len || memcmp(d.data, sig->data, d.len) != 0)))
		ret = verify_fail(v, ARCHIVE_TAMPERED_MAIL, ply,
				  "%s.eml does not hold the signed %s and "
				  "signature of %s.%s", stem, verify_form(kind),
				  stem, kind == PGP_SIGNED_MIME ? "signed" :
				  kind == PGP_SIGNED_MESSAGE ? "pgp" : "asc");
	buf_free(&s);
	buf_free(&d);
	return ret;
}

/* The text and headers of the .eml, read as the daemon reads a mail. */
static int verify_read_text(struct verify *v, struct verify_mail *m,
			    const struct buf *eml, const char **error_r)
{
	struct inbound_options opts;
	struct inbound_msg *msg = NULL;
	struct buf thread = BUF_INIT;

	memset(&opts, 0, sizeof(opts));
	opts.max_size = eml->len + 1;
	opts.now = (time_t)m->sig.created;
	opts.pgp = v->pgp;
	if (inbound_parse(eml->data, eml->len, &opts, &msg, error_r) < 0)
		return -1;
	m->text = xstrdup(msg->text != NULL ? msg->text : "");
	m->subject = xstrdup(msg->subject != NULL ? msg->subject : "");
	for (size_t i = 0; i < msg->references.count; i++)
		buf_printf(&thread, "%s ", msg->references.items[i]);
	if (msg->in_reply_to != NULL)
		buf_puts(&thread, msg->in_reply_to);
	m->thread = xstrdup(buf_str(&thread));
	buf_free(&thread);
	inbound_msg_free(&msg);
	return 0;
}

int verify_mail_load(struct verify *v, const char *stem,
		     enum archive_reason missing, size_t ply,
		     struct verify_mail **m_r, const char **error_r)
{
	struct buf eml = BUF_INIT, signed_part = BUF_INIT, sig = BUF_INIT;
	struct buf text = BUF_INIT;
	struct verify_mail m;
	int r, ret = -1;

	memset(&m, 0, sizeof(m));
	snprintf(m.stem, sizeof(m.stem), "%s", stem);
	*m_r = NULL;
	if ((r = verify_read(v, stem, ".eml", &eml)) != 0) {
		ret = r < 0 ? -1 : verify_fail(v, missing, ply, "%s.eml is "
					       "not in the archive", stem);
		if (r < 0)
			*error_r = strerror(errno);
		goto out;
	}
	if ((r = verify_read(v, stem, ".signed", &signed_part)) == 0) {
		m.kind = PGP_SIGNED_MIME;
		if ((r = verify_read(v, stem, ".sig", &sig)) != 0) {
			ret = r < 0 ? -1 : verify_fail(v, missing, ply,
						       "%s.sig is not in the "
						       "archive", stem);
			goto out;
		}
		if (pgp_verify_detached(v->pgp, signed_part.data,
					signed_part.len, sig.data, sig.len,
					&m.sig, error_r) < 0)
			goto out;
	} else if (r == 1 &&
		   (r = verify_read(v, stem, ".asc", &signed_part)) == 0) {
		m.kind = PGP_SIGNED_CLEAR;
		if (pgp_verify_clearsigned(v->pgp, signed_part.data,
					   signed_part.len, &m.sig, &text,
					   error_r) < 0)
			goto out;
	} else if (r == 1 &&
		   (r = verify_read(v, stem, ".pgp", &signed_part)) == 0) {
		/* an encrypted mail's signed message (record-format.md) */
		struct pgp_decrypted d;

		m.kind = PGP_SIGNED_MESSAGE;
		if (pgp_verify_message(v->pgp, signed_part.data,
				       signed_part.len, eml.len + 1024, &text,
				       &d, error_r) < 0)
			goto out;
		m.sig = d.sig;
		if (d.status != PGP_DECRYPT_OK) {
			memset(&m.sig, 0, sizeof(m.sig));
			m.sig.status = PGP_SIG_ERROR;
		}
	}
	if (r < 0) {
		*error_r = strerror(errno);
		goto out;
	}
	if (m.kind != PGP_SIGNED_NONE) {
		if ((ret = verify_signature(v, stem, ply, &m.sig)) != 0 ||
		    (ret = verify_eml_holds(v, stem, ply, &eml, m.kind,
					    &signed_part, &sig)) != 0)
			goto out;
		inbound_sha256_hex(signed_part.data, signed_part.len,
				   m.sha256);
	}
	ret = -1;
	if (verify_read_text(v, &m, &eml, error_r) < 0)
		goto out;
	v->mails = xrealloc(v->mails, (v->nmails + 1) * sizeof(*v->mails));
	v->mails[v->nmails] = m;
	*m_r = &v->mails[v->nmails++];
	memset(&m, 0, sizeof(m));
	ret = 0;
out:
	free(m.text);
	free(m.subject);
	free(m.thread);
	buf_free(&eml);
	buf_free(&signed_part);
	buf_free(&sig);
	buf_free(&text);
	return ret;
}
