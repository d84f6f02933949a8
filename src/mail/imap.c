/* imap.c -- the "imap" mailbox source on libetpan's mailimap (see imap.h):
 * connecting, scanning, fetching and waiting; moving messages out of the
 * mailbox (archive, set aside) is in imap_move.c, dropping a failed session
 * in imap_session.c. */
#include "config.h"

#include "mail/imap.h"
#include "mail/imap_private.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <gnutls/gnutls.h>
#include <gnutls/x509.h>
#include <libetpan/libetpan.h>

#include "util/buf.h"
#include "util/xstr.h"

static uint64_t imap_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

int imap_tls_verify(const unsigned char *const *der, const size_t *der_len,
		    size_t n, const char *host, const char *ca_file,
		    char *error, size_t error_size)
{
	gnutls_x509_trust_list_t list = NULL;
	gnutls_x509_crt_t *certs = NULL;
	gnutls_datum_t out = { NULL, 0 };
	gnutls_typed_vdata_st vdata[2];
	unsigned int status = 0, n_vdata = 0;
	size_t i, n_certs = 0;
	int r, ret = -1;

	if (n == 0) {
		snprintf(error, error_size, "server sent no certificate");
		return -1;
	}
	if (gnutls_x509_trust_list_init(&list, 0) < 0) {
		snprintf(error, error_size, "gnutls: trust list init failed");
		return -1;
	}
	if (ca_file != NULL)
		r = gnutls_x509_trust_list_add_trust_file(
			list, ca_file, NULL, GNUTLS_X509_FMT_PEM, 0, 0);
	else
		r = gnutls_x509_trust_list_add_system_trust(list, 0, 0);
	if (r <= 0) {
		snprintf(error, error_size, "no trusted CA loaded from %s%s%s",
			 ca_file ? ca_file : "the system store",
			 r < 0 ? ": " : "", r < 0 ? gnutls_strerror(r) : "");
		goto out;
	}
	certs = calloc(n, sizeof(*certs));
	if (certs == NULL)
		abort();
	for (i = 0; i < n; i++) {
		gnutls_datum_t d = { (unsigned char *)der[i],
				     (unsigned int)der_len[i] };

		if (gnutls_x509_crt_init(&certs[i]) < 0)
			abort();
		n_certs++;
		r = gnutls_x509_crt_import(certs[i], &d, GNUTLS_X509_FMT_DER);
		if (r < 0) {
			snprintf(error, error_size,
				 "bad certificate from server: %s",
				 gnutls_strerror(r));
			goto out;
		}
	}
	vdata[n_vdata].type = GNUTLS_DT_DNS_HOSTNAME;
	vdata[n_vdata].data = (unsigned char *)host;
	vdata[n_vdata++].size = 0;
	vdata[n_vdata].type = GNUTLS_DT_KEY_PURPOSE_OID;
	vdata[n_vdata].data = (unsigned char *)GNUTLS_KP_TLS_WWW_SERVER;
	vdata[n_vdata++].size = 0;
	r = gnutls_x509_trust_list_verify_crt2(list, certs, (unsigned int)n,
					       vdata, n_vdata, 0, &status,
					       NULL);
	if (r < 0) {
		snprintf(error, error_size, "certificate check failed: %s",
			 gnutls_strerror(r));
		goto out;
	}
	if (status != 0) {
		if (gnutls_certificate_verification_status_print(
			    status, GNUTLS_CRT_X509, &out, 0) == 0)
			snprintf(error, error_size,
				 "server certificate not trusted for %s: %s",
				 host, (const char *)out.data);
		else
			snprintf(error, error_size,
				 "server certificate not trusted for %s",
				 host);
		gnutls_free(out.data);
		goto out;
	}
	ret = 0;
out:
	for (i = 0; i < n_certs; i++)
		gnutls_x509_crt_deinit(certs[i]);
	free(certs);
	gnutls_x509_trust_list_deinit(list, 1);
	return ret;
}

/* Check the session's peer chain; -1 with src->error on failure. */
static int imap_check_certificate(struct imap_source *is,
				  const char **error_r)
{
	carray *chain;
	const unsigned char **der = NULL;
	size_t *len = NULL, n, i;
	char err[400];
	int ret;

	if (is->tls_no_verify)
		return 0;
	chain = mailstream_get_certificate_chain(is->imap->imap_stream);
	n = chain ? carray_count(chain) : 0;
	if (n > 0) {
		der = calloc(n, sizeof(*der));
		len = calloc(n, sizeof(*len));
		if (der == NULL || len == NULL)
			abort();
	}
	for (i = 0; i < n; i++) {
		MMAPString *s = carray_get(chain, (unsigned int)i);

		der[i] = (const unsigned char *)s->str;
		len[i] = s->len;
	}
	ret = imap_tls_verify(der, len, n, is->host, is->ca_file, err,
			      sizeof(err));
	if (ret < 0)
		*error_r = mail_source_error(&is->src, "IMAP %s:%u: %s",
					     is->host, is->port, err);
	free(der);
	free(len);
	if (chain != NULL)
		mailstream_certificate_chain_free(chain);
	return ret;
}

static void imap_tls_callback(struct mailstream_ssl_context *ctx, void *data)
{
	struct imap_source *is = data;

	/* SNI, so a server with several names picks the right certificate. */
	mailstream_ssl_set_server_name(ctx, is->host);
}

static bool imap_has_capability(mailimap *imap, const char *name)
{
	return mailimap_has_extension(imap, (char *)name) != 0;
}

/* Connect, check TLS, log in, select; -1 with *error_r on failure. */
static int imap_connect(struct imap_source *is, const char **error_r)
{
	const char *what = "connect";
	uint32_t uidvalidity;
	int r;

	is->imap = mailimap_new(0, NULL);
	if (is->imap == NULL)
		abort();
	mailimap_set_timeout(is->imap, (is->timeout_ms + 999) / 1000);
	if (is->tls == MAIL_TLS_IMPLICIT)
		r = mailimap_ssl_connect_with_callback(is->imap, is->host,
						       is->port,
						       imap_tls_callback, is);
	else
		r = mailimap_socket_connect(is->imap, is->host, is->port);
	if (r != MAILIMAP_NO_ERROR_NON_AUTHENTICATED &&
	    r != MAILIMAP_NO_ERROR_AUTHENTICATED)
		goto failed;
	if (is->tls == MAIL_TLS_STARTTLS) {
		what = "STARTTLS";
		r = mailimap_socket_starttls_with_callback(is->imap,
							   imap_tls_callback,
							   is);
		if (r != MAILIMAP_NO_ERROR)
			goto failed;
	}
	if (is->tls != MAIL_TLS_NONE && imap_check_certificate(is, error_r) < 0)
		goto refused;

	what = "login";
	if (is->auth == MAIL_SOURCE_AUTH_PLAIN)
		r = mailimap_authenticate(is->imap, "PLAIN", is->host, NULL,
					  NULL, is->user, is->user,
					  is->password, NULL);
	else
		r = mailimap_login(is->imap, is->user, is->password);
	if (r != MAILIMAP_NO_ERROR)
		goto failed;

	what = "CAPABILITY";
	{
		struct mailimap_capability_data *cap = NULL;

		r = mailimap_capability(is->imap, &cap);
		if (r != MAILIMAP_NO_ERROR)
			goto failed;
		mailimap_capability_data_free(cap);
	}
	is->has_move = imap_has_capability(is->imap, "MOVE");
	is->has_idle = !is->no_idle && mailimap_has_idle(is->imap) != 0;
	is->has_uidplus = mailimap_has_uidplus(is->imap) != 0;

	/* Make the archive folder; "already exists" is the usual answer. */
	what = "CREATE";
	r = mailimap_create(is->imap, is->archive);
	if (imap_is_connection_error(r))
		goto failed;

	what = "SELECT";
	r = mailimap_select(is->imap, is->mailbox);
	if (r != MAILIMAP_NO_ERROR)
		goto failed;
	uidvalidity = is->imap->imap_selection_info->sel_uidvalidity;
	if (is->src.state.uidvalidity != uidvalidity) {
		if (is->src.state.uidvalidity != 0)
			is->rescan_pending = true;
		is->src.state.uidvalidity = uidvalidity;
		is->src.state.last_uid = 0;
		/* UIDs of the old mailbox */
		is->n_aside = 0;
		is->n_archive = 0;
	}
	is->cursor = is->src.state.last_uid;
	is->n_pending = 0;
	return 0;

failed:
	/* A refused login or a missing mailbox counts as an outage too: the
	 * caller logs it once, and it is retried with backoff. */
	*error_r = mail_source_error(&is->src, "IMAP %s:%u: %s: %s", is->host,
				     is->port, what, imap_strerror(r));
refused:
	imap_disconnect(is);
	return -1;
}

/* Connect if needed, respecting the backoff; fires DOWN/UP events. */
static int imap_ensure_connected(struct imap_source *is, const char **error_r)
{
	uint64_t now;

	if (is->imap != NULL)
		return 0;
	now = imap_now_ms();
	if (now < is->retry_at_ms) {
		*error_r = mail_source_error(&is->src,
					     "IMAP %s:%u: not connected; next "
					     "try in %u ms", is->host, is->port,
					     (unsigned int)(is->retry_at_ms -
							    now));
		return -1;
	}
	if (imap_connect(is, error_r) < 0) {
		is->backoff_ms = is->backoff_ms == 0 ? is->backoff_min_ms :
				 is->backoff_ms * 2;
		if (is->backoff_ms > is->backoff_max_ms)
			is->backoff_ms = is->backoff_max_ms;
		is->retry_at_ms = imap_now_ms() + is->backoff_ms;
		if (!is->in_outage) {
			is->in_outage = true;
			if (is->event != NULL)
				is->event(is->event_context,
					  MAIL_SOURCE_EVENT_DOWN, *error_r);
		}
		return -1;
	}
	is->backoff_ms = 0;
	is->retry_at_ms = 0;
	if (is->in_outage) {
		is->in_outage = false;
		if (is->event != NULL)
			is->event(is->event_context, MAIL_SOURCE_EVENT_UP,
				  "connected");
	}
	return 0;
}

static int imap_uid_cmp(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/* First static attribute of type att_type in a fetch response item. */
static struct mailimap_msg_att_static *
imap_msg_static(struct mailimap_msg_att *att, int att_type)
{
	clistiter *it;

	for (it = clist_begin(att->att_list); it != NULL; it = clist_next(it)) {
		struct mailimap_msg_att_item *item = clist_content(it);

		if (item->att_type == MAILIMAP_MSG_ATT_ITEM_STATIC &&
		    item->att_data.att_static->att_type == att_type)
			return item->att_data.att_static;
	}
	return NULL;
}

/* List the mailbox: archive leftovers (UID <= last_uid) but those waiting
 * to be set aside, queue UIDs above the cursor.  -1 with *error_r on
 * failure. */
static int imap_scan(struct imap_source *is, const char **error_r)
{
	struct mailimap_set *set;
	struct mailimap_fetch_type *ft;
	clist *result = NULL;
	clistiter *it;
	int r;

	set = mailimap_set_new_interval(1, 0);
	ft = mailimap_fetch_type_new_fetch_att_list_empty();
	mailimap_fetch_type_new_fetch_att_list_add(ft,
						   mailimap_fetch_att_new_uid());
	r = mailimap_uid_fetch(is->imap, set, ft, &result);
	mailimap_fetch_type_free(ft);
	mailimap_set_free(set);
	if (r != MAILIMAP_NO_ERROR) {
		imap_failed(is, "UID FETCH", r, error_r);
		return -1;
	}
	is->n_pending = 0;
	for (it = clist_begin(result); it != NULL; it = clist_next(it)) {
		struct mailimap_msg_att_static *st;
		uint32_t uid;

		st = imap_msg_static(clist_content(it), MAILIMAP_MSG_ATT_UID);
		if (st == NULL)
			continue;
		uid = st->att_data.att_uid;
		if (uid <= is->src.state.last_uid) {
			if (!imap_set_aside_queued(is, uid))
				imap_archive_add(is, uid);
		} else if (uid > is->cursor) {
			if (is->n_pending == is->cap_pending) {
				is->cap_pending = is->cap_pending ?
					is->cap_pending * 2 : 64;
				is->pending = realloc(is->pending,
						      is->cap_pending *
						      sizeof(*is->pending));
				if (is->pending == NULL)
					abort();
			}
			is->pending[is->n_pending++] = uid;
		}
	}
	mailimap_fetch_list_free(result);
	if (is->n_pending > 1)
		qsort(is->pending, is->n_pending, sizeof(*is->pending),
		      imap_uid_cmp);
	mail_source_note_contact(&is->src, (long)is->n_pending);
	/* Leftovers a crash or an outage kept from being archived. */
	if (imap_archive_flush(is, error_r) < 0 && is->imap == NULL)
		return -1;
	return 0;
}

/* Days from 1970-01-01 to the given day of the proleptic Gregorian
 * calendar (H. Hinnant's days_from_civil): no libc time zone involved. */
static int64_t imap_days_from_civil(int64_t y, int m, int d)
{
	int64_t era, yoe, doy, doe;

	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = y - era * 400;
	doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + doe - 719468;
}

int imap_date_time_epoch(int day, int month, int year, int hour, int min,
			 int sec, int zone, int64_t *epoch_r)
{
	static const int mdays[12] = { 31, 29, 31, 30, 31, 30, 31, 31, 30,
				       31, 30, 31 };
	int zabs = zone < 0 ? -zone : zone;
	bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
	int64_t offset;

	/* A leap second (60) is the next second's start, as timegm has it. */
	if (year < 1900 || year > 9999 || month < 1 || month > 12 ||
	    day < 1 || day > mdays[month - 1] ||
	    (month == 2 && day == 29 && !leap) || hour < 0 || hour > 23 ||
	    min < 0 || min > 59 || sec < 0 || sec > 60 || zabs > 2400 ||
	    zabs % 100 > 59)
		return -1;
	offset = (int64_t)(zabs / 100) * 3600 + (int64_t)(zabs % 100) * 60;
	if (zone < 0)
		offset = -offset;
	/* "12:00:00 +0100" is 11:00:00 UTC: local time less the offset. */
	*epoch_r = imap_days_from_civil(year, month, day) * 86400 +
		   (int64_t)hour * 3600 + (int64_t)min * 60 + sec - offset;
	return 0;
}

/* The INTERNALDATE of a fetch response item in epoch seconds, 0 when it
 * is missing or makes no sense (then the caller charges "now"). */
static int64_t imap_msg_received(struct mailimap_msg_att *att)
{
	struct mailimap_msg_att_static *st =
		imap_msg_static(att, MAILIMAP_MSG_ATT_INTERNALDATE);
	const struct mailimap_date_time *dt;
	int64_t t;

	if (st == NULL || st->att_data.att_internal_date == NULL)
		return 0;
	dt = st->att_data.att_internal_date;
	if (imap_date_time_epoch(dt->dt_day, dt->dt_month, dt->dt_year,
				 dt->dt_hour, dt->dt_min, dt->dt_sec,
				 dt->dt_zone, &t) < 0 || t <= 0)
		return 0;
	return t;
}

/* Fetch one body into is->data, its INTERNALDATE into is->received.  1
 * found, 0 gone, -1 error. */
static int imap_fetch_body(struct imap_source *is, uint32_t uid,
			   const char **error_r)
{
	struct mailimap_set *set;
	struct mailimap_fetch_type *ft;
	clist *result = NULL;
	clistiter *it;
	int r, ret = 0;

	set = mailimap_set_new_single(uid);
	ft = mailimap_fetch_type_new_fetch_att_list_empty();
	mailimap_fetch_type_new_fetch_att_list_add(ft,
						   mailimap_fetch_att_new_uid());
	mailimap_fetch_type_new_fetch_att_list_add(
		ft, mailimap_fetch_att_new_internaldate());
	mailimap_fetch_type_new_fetch_att_list_add(
		ft, mailimap_fetch_att_new_body_peek_section(
			    mailimap_section_new(NULL)));
	r = mailimap_uid_fetch(is->imap, set, ft, &result);
	mailimap_fetch_type_free(ft);
	mailimap_set_free(set);
	if (r != MAILIMAP_NO_ERROR) {
		imap_failed(is, "UID FETCH BODY", r, error_r);
		return -1;
	}
	for (it = clist_begin(result); it != NULL; it = clist_next(it)) {
		struct mailimap_msg_att_static *st_uid, *st_body;
		struct mailimap_msg_att_body_section *sec;

		st_uid = imap_msg_static(clist_content(it),
					 MAILIMAP_MSG_ATT_UID);
		st_body = imap_msg_static(clist_content(it),
					  MAILIMAP_MSG_ATT_BODY_SECTION);
		/* N:* style answers may carry other messages: filter. */
		if (st_uid == NULL || st_uid->att_data.att_uid != uid ||
		    st_body == NULL)
			continue;
		sec = st_body->att_data.att_body_section;
		buf_reset(&is->data);
		buf_append(&is->data, "", 0);
		if (sec != NULL && sec->sec_body_part != NULL)
			buf_append(&is->data, sec->sec_body_part,
				   sec->sec_length);
		is->received = imap_msg_received(clist_content(it));
		ret = 1;
		break;
	}
	mailimap_fetch_list_free(result);
	return ret;
}

static enum mail_source_result imap_next(struct mail_source *src,
					 struct mail_source_message *msg_r,
					 const char **error_r)
{
	struct imap_source *is = (struct imap_source *)src;
	int r;

	if (imap_ensure_connected(is, error_r) < 0)
		return MAIL_SOURCE_ERROR;
	if (is->rescan_pending) {
		is->rescan_pending = false;
		return MAIL_SOURCE_RESCAN;
	}
	for (;;) {
		uint32_t uid;

		if (is->n_pending == 0) {
			/* Archive what was handled before looking again,
			 * so a scan never sees it. */
			if (imap_archive_flush(is, error_r) < 0)
				return MAIL_SOURCE_ERROR;
			/* A refused set-aside must not hold up the mail. */
			if (imap_set_aside_flush(is, error_r) < 0 &&
			    is->imap == NULL)
				return MAIL_SOURCE_ERROR;
			if (imap_scan(is, error_r) < 0)
				return MAIL_SOURCE_ERROR;
			if (is->n_pending == 0)
				return MAIL_SOURCE_NONE;
		}
		uid = is->pending[0];
		memmove(is->pending, is->pending + 1,
			--is->n_pending * sizeof(*is->pending));
		if (uid <= src->state.last_uid)
			continue;	/* done meanwhile (set aside ahead) */
		r = imap_fetch_body(is, uid, error_r);
		if (r < 0)
			return MAIL_SOURCE_ERROR;
		if (r == 0)
			continue;	/* expunged meanwhile */
		is->cursor = uid;
		mail_source_note_handed_out(src);
		msg_r->uidvalidity = src->state.uidvalidity;
		msg_r->uid = uid;
		msg_r->data = buf_str(&is->data);
		msg_r->size = is->data.len;
		msg_r->received = is->received;
		return MAIL_SOURCE_MESSAGE;
	}
}

static int imap_wait(struct mail_source *src, unsigned int max_ms,
		     const char **error_r)
{
	struct imap_source *is = (struct imap_source *)src;
	unsigned int ms = max_ms < is->poll_ms ? max_ms : is->poll_ms;
	uint32_t exists;
	int r, ret;

	if (is->imap == NULL) {
		uint64_t now = imap_now_ms();

		if (is->retry_at_ms > now &&
		    is->retry_at_ms - now < (uint64_t)ms)
			ms = (unsigned int)(is->retry_at_ms - now);
		else if (is->retry_at_ms <= now)
			ms = 0;
		mail_source_sleep(is->wake_pipe, ms);
		return 0;
	}
	/* A message handed out but not marked was not handled (the caller
	 * waits to retry it): offer it again after this wait. */
	if (is->cursor > src->state.last_uid) {
		is->cursor = src->state.last_uid;
		is->n_pending = 0;
	}
	if (imap_archive_flush(is, error_r) < 0)
		return -1;
	if (!is->has_idle || ms < 1000)
		return mail_source_sleep(is->wake_pipe, ms);

	/* The stream's cancel pipe, which wait_idle and interrupt use. */
	if (mailstream_setup_idle(is->imap->imap_stream) < 0) {
		imap_failed(is, "IDLE setup", MAILIMAP_ERROR_STREAM, error_r);
		return -1;
	}
	exists = is->imap->imap_selection_info ?
		 is->imap->imap_selection_info->sel_exists : 0;
	r = mailimap_idle(is->imap);
	if (r != MAILIMAP_NO_ERROR) {
		mailstream_unsetup_idle(is->imap->imap_stream);
		imap_failed(is, "IDLE", r, error_r);
		return -1;
	}
	/* Mail that came in between our last scan and IDLE may have been
	 * announced already (EXISTS read with the continuation, or waiting
	 * in libetpan's buffer where select() cannot see it). */
	if ((is->imap->imap_selection_info != NULL &&
	     is->imap->imap_selection_info->sel_exists != exists) ||
	    is->imap->imap_stream->read_buffer_len > 0) {
		r = MAILSTREAM_IDLE_HASDATA;
	} else {
		is->idling = 1;
		errno = 0;
		r = mailstream_wait_idle(is->imap->imap_stream,
					 (int)(ms / 1000));
		is->idling = 0;
	}
	mailstream_unsetup_idle(is->imap->imap_stream);
	switch (r) {
	case MAILSTREAM_IDLE_HASDATA:
		ret = 1;
		break;
	case MAILSTREAM_IDLE_ERROR:
		/* A signal (SIGHUP, SIGTERM) breaks the select() inside:
		 * that is an interrupt, not a lost connection. */
		if (errno == EINTR) {
			ret = 0;
			break;
		}
		imap_failed(is, "IDLE", MAILIMAP_ERROR_STREAM, error_r);
		return -1;
	default:	/* timeout, interrupted, cancelled */
		ret = 0;
		break;
	}
	r = mailimap_idle_done(is->imap);
	if (r != MAILIMAP_NO_ERROR) {
		imap_failed(is, "IDLE DONE", r, error_r);
		return -1;
	}
	/* The server answered through the whole wait. */
	mail_source_note_contact(src, -1);
	return ret;
}

static void imap_interrupt(struct mail_source *src)
{
	struct imap_source *is = (struct imap_source *)src;

	if (is->idling && is->imap != NULL)
		mailstream_interrupt_idle(is->imap->imap_stream);
	mail_source_wake(is->wake_pipe);
}

static void imap_close(struct mail_source *src)
{
	struct imap_source *is = (struct imap_source *)src;

	if (is->imap != NULL) {
		const char *error;

		/* Best effort: what is left is archived by a later scan (a
		 * set-aside not done yet too: see imap_move.c). */
		(void)imap_archive_flush(is, &error);
		if (is->imap != NULL)
			(void)imap_set_aside_flush(is, &error);
		if (is->imap != NULL)
			mailimap_logout(is->imap);
	}
	imap_disconnect(is);
	free(is->host);
	free(is->ca_file);
	free(is->user);
	if (is->password != NULL) {
		explicit_bzero(is->password, strlen(is->password));
		free(is->password);
	}
	free(is->mailbox);
	free(is->archive);
	free(is->quarantine);
	free(is->pending);
	free(is->archive_uids);
	free(is->aside);
	buf_free(&is->data);
	mail_source_wake_close(is->wake_pipe);
	free(is);
}

static int imap_open(const struct mail_source_settings *set,
		     struct mail_source **src_r, const char **error_r)
{
	struct imap_source *is;

	if (set->host == NULL || set->user == NULL || set->password == NULL) {
		*error_r = "mail source imap: host, user and password needed";
		return -1;
	}
	if (set->port > 65535) {
		*error_r = "mail source imap: bad port";
		return -1;
	}
	is = calloc(1, sizeof(*is));
	if (is == NULL)
		abort();
	is->src.v = &mail_source_imap;
	is->host = xstrdup(set->host);
	is->tls = set->tls;
	is->port = set->port ? (uint16_t)set->port :
		   set->tls == MAIL_TLS_IMPLICIT ? 993 : 143;
	is->ca_file = xstrdup(set->ca_file);
	is->tls_no_verify = set->tls_no_verify;
	is->auth = set->auth;
	is->user = xstrdup(set->user);
	is->password = xstrdup(set->password);
	is->mailbox = xstrdup(set->mailbox ? set->mailbox : "INBOX");
	is->archive = xstrdup(set->archive ? set->archive : "Archive");
	is->quarantine = xstrdup(set->quarantine ? set->quarantine :
				 "Quarantine");
	is->timeout_ms = set->timeout_ms ? set->timeout_ms : 30000;
	is->poll_ms = set->poll_ms ? set->poll_ms : 60000;
	is->no_idle = set->no_idle;
	is->backoff_min_ms = set->backoff_min_ms ? set->backoff_min_ms : 1000;
	is->backoff_max_ms = set->backoff_max_ms ? set->backoff_max_ms :
			     300000;
	if (is->backoff_max_ms < is->backoff_min_ms)
		is->backoff_max_ms = is->backoff_min_ms;
	is->event = set->event;
	is->event_context = set->event_context;
	if (mail_source_wake_init(is->wake_pipe) < 0) {
		imap_close(&is->src);
		*error_r = "mail source imap: pipe failed";
		return -1;
	}
	*src_r = &is->src;
	return 0;
}

const struct mail_source_vfuncs mail_source_imap = {
	.name = "imap",
	.open = imap_open,
	.next = imap_next,
	.mark_handled = imap_mark_handled,
	.set_aside = imap_set_aside,
	.wait = imap_wait,
	.interrupt = imap_interrupt,
	.close = imap_close,
};
