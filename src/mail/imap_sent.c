/* imap_sent.c -- the Sent folder's copies of the daemon's replies; see
 * imap_sent.h.  Built on the "imap" source (imap.c) opened on the folder:
 * its connection, TLS check, login, backoff and CREATE (the source makes
 * its archive folder; here that is the Sent folder itself). */
#include "config.h"

#include "mail/imap_sent.h"
#include "mail/imap_private.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* UIDs per FETCH of headers. */
#define IMAP_SENT_FETCH_CHUNK 500

struct imap_sent {
	struct mail_source *src;
};

int imap_sent_open(const struct mail_source_settings *set, const char *folder,
		   struct imap_sent **sent_r, const char **error_r)
{
	struct mail_source_settings s = *set;
	struct imap_sent *sent;

	*sent_r = NULL;
	if (set->backend == NULL || strcmp(set->backend, "imap") != 0) {
		*error_r = "a Sent folder needs an IMAP mailbox";
		return -1;
	}
	if (folder == NULL)
		folder = IMAP_SENT_DEFAULT_FOLDER;
	s.mailbox = folder;
	s.archive = folder; /* the source CREATEs it on each connect */
	s.replay_since = 0;
	s.event = NULL;	    /* the mailbox source reports outages */
	s.event_context = NULL;
	sent = calloc(1, sizeof(*sent));
	if (sent == NULL) {
		*error_r = "out of memory";
		return -1;
	}
	if (mail_source_imap.open(&s, &sent->src, error_r) < 0) {
		free(sent);
		return -1;
	}
	*sent_r = sent;
	return 0;
}

int imap_sent_append(struct imap_sent *sent, const char *mail, size_t len,
		     const char **error_r)
{
	struct imap_source *is = (struct imap_source *)sent->src;
	struct mailimap_flag_list *flags;
	size_t hlen = len;
	int r;

	for (size_t i = 0; i + 1 < len; i++) {
		if (mail[i] == '\n' && mail[i + 1] == '\n') {
			hlen = i + 2;
			break;
		}
		if (i + 3 < len && memcmp(mail + i, "\r\n\r\n", 4) == 0) {
			hlen = i + 4;
			break;
		}
	}
	/* Twice at most: a connection left idle between two replies may
	 * have been closed by the server (Dovecot logs out after 30
	 * minutes); the second try is on a new one. */
	for (int tries = 0; tries < 2; tries++) {
		if (imap_ensure_connected(is, error_r) < 0)
			return -1;
		flags = mailimap_flag_list_new_empty();
		mailimap_flag_list_add(flags, mailimap_flag_new_seen());
		r = mailimap_append(is->imap, is->mailbox, flags, NULL, mail,
				    hlen);
		mailimap_flag_list_free(flags);
		if (r == MAILIMAP_NO_ERROR)
			return 0;
		imap_failed(is, "APPEND", r, error_r);
		if (is->imap != NULL)
			return -1; /* refused, not a lost connection */
	}
	return -1;
}

/* The Message-ID in a header block ("Message-ID: <x>", folded or not):
 * fn called with it. */
static void imap_sent_parse(const char *h, size_t len,
			    void (*fn)(void *ctx, const char *id, size_t len),
			    void *ctx)
{
	for (size_t i = 0; i + 11 < len; i++) {
		const char *lt, *gt;

		if ((i > 0 && h[i - 1] != '\n') ||
		    strncasecmp(h + i, "Message-ID:", 11) != 0)
			continue;
		lt = memchr(h + i, '<', len - i);
		if (lt == NULL)
			return;
		gt = memchr(lt, '>', len - (size_t)(lt - h));
		if (gt == NULL)
			return;
		fn(ctx, lt, (size_t)(gt - lt) + 1);
		return;
	}
}

/* Fetch the Message-ID headers of uids[0..n) and hand them to fn. */
static int imap_sent_fetch(struct imap_source *is, const uint32_t *uids,
			   size_t n,
			   void (*fn)(void *ctx, const char *id, size_t len),
			   void *ctx, const char **error_r)
{
	struct mailimap_set *set = mailimap_set_new_empty();
	struct mailimap_fetch_type *ft;
	clist *hdrs = clist_new(), *result = NULL;
	clistiter *it;
	int r;

	for (size_t i = 0; i < n; i++)
		mailimap_set_add_single(set, uids[i]);
	clist_append(hdrs, strdup("Message-ID"));
	ft = mailimap_fetch_type_new_fetch_att_list_empty();
	mailimap_fetch_type_new_fetch_att_list_add(
		ft, mailimap_fetch_att_new_body_peek_section(
			    mailimap_section_new_header_fields(
				    mailimap_header_list_new(hdrs))));
	r = mailimap_uid_fetch(is->imap, set, ft, &result);
	mailimap_fetch_type_free(ft);
	mailimap_set_free(set);
	if (r != MAILIMAP_NO_ERROR) {
		imap_failed(is, "UID FETCH Message-ID", r, error_r);
		return -1;
	}
	for (it = clist_begin(result); it != NULL; it = clist_next(it)) {
		struct mailimap_msg_att_static *st = imap_msg_static(
			clist_content(it), MAILIMAP_MSG_ATT_BODY_SECTION);
		const struct mailimap_msg_att_body_section *sec;

		if (st == NULL)
			continue;
		sec = st->att_data.att_body_section;
		if (sec != NULL && sec->sec_body_part != NULL)
			imap_sent_parse(sec->sec_body_part, sec->sec_length,
					fn, ctx);
	}
	mailimap_fetch_list_free(result);
	return 0;
}

int imap_sent_ids(struct imap_sent *sent, int64_t since,
		  void (*fn)(void *ctx, const char *id, size_t len),
		  void *ctx, const char **error_r)
{
	struct imap_source *is = (struct imap_source *)sent->src;
	uint32_t *uids = NULL;
	size_t n = 0, from = 0;
	int ret = 0;

	if (imap_ensure_connected(is, error_r) < 0)
		return -1;
	if (imap_uids_since(is, since, &uids, &n, error_r) < 0)
		return -1;
	if (n > IMAP_SENT_IDS_MAX)
		from = n - IMAP_SENT_IDS_MAX;
	for (size_t i = from; i < n && ret == 0; i += IMAP_SENT_FETCH_CHUNK) {
		size_t k = n - i < IMAP_SENT_FETCH_CHUNK ? n - i :
			   IMAP_SENT_FETCH_CHUNK;

		ret = imap_sent_fetch(is, uids + i, k, fn, ctx, error_r);
	}
	free(uids);
	return ret;
}

void imap_sent_close(struct imap_sent **sent)
{
	if (*sent == NULL)
		return;
	mail_source_close(&(*sent)->src);
	free(*sent);
	*sent = NULL;
}
