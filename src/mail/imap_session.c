/* imap_session.c -- the "imap" mailbox source losing its session: libetpan
 * error codes in words, which of them kill the session, dropping a dead
 * session and noting the outage.  Used by imap.c (connect, scan, fetch,
 * IDLE) and imap_move.c (archive, set aside); calls neither. */
#include "config.h"

#include "mail/imap_private.h"

const char *imap_strerror(int r)
{
	switch (r) {
	case MAILIMAP_ERROR_STREAM:
		return "connection lost";
	case MAILIMAP_ERROR_PARSE:
		return "unparsable server response";
	case MAILIMAP_ERROR_CONNECTION_REFUSED:
		return "connection refused";
	case MAILIMAP_ERROR_FATAL:
		return "server closed the session (BYE)";
	case MAILIMAP_ERROR_DONT_ACCEPT_CONNECTION:
		return "server does not accept connections";
	case MAILIMAP_ERROR_LOGIN:
		return "login refused";
	case MAILIMAP_ERROR_SASL:
		return "authentication refused";
	case MAILIMAP_ERROR_STARTTLS:
		return "STARTTLS refused";
	case MAILIMAP_ERROR_SSL:
		return "TLS handshake failed";
	case MAILIMAP_ERROR_SELECT:
		return "SELECT refused (no such mailbox?)";
	case MAILIMAP_ERROR_UID_MOVE:
		return "UID MOVE refused";
	case MAILIMAP_ERROR_UID_COPY:
		return "UID COPY refused";
	case MAILIMAP_ERROR_UID_STORE:
		return "UID STORE refused";
	case MAILIMAP_ERROR_EXPUNGE:
		return "EXPUNGE refused";
	case MAILIMAP_ERROR_UID_FETCH:
		return "UID FETCH refused";
	case MAILIMAP_ERROR_MEMORY:
		return "out of memory";
	default:
		return "IMAP error";
	}
}

bool imap_is_connection_error(int r)
{
	return r == MAILIMAP_ERROR_STREAM || r == MAILIMAP_ERROR_PARSE ||
	       r == MAILIMAP_ERROR_FATAL ||
	       r == MAILIMAP_ERROR_CONNECTION_REFUSED ||
	       r == MAILIMAP_ERROR_BAD_STATE;
}

void imap_disconnect(struct imap_source *is)
{
	if (is->imap == NULL)
		return;
	mailimap_free(is->imap);
	is->imap = NULL;
	is->n_pending = 0;
	/* Their UIDs are <= last_uid: the next scan archives them.  The
	 * set-asides (is->aside) are kept: no scan may archive them. */
	is->n_archive = 0;
	is->quarantine_created = false;
}

void imap_failed(struct imap_source *is, const char *what, int r,
		 const char **error_r)
{
	*error_r = mail_source_error(&is->src, "IMAP %s:%u: %s: %s", is->host,
				     is->port, what, imap_strerror(r));
	if (!imap_is_connection_error(r))
		return;
	imap_disconnect(is);
	/* The event fires once per outage. */
	if (!is->in_outage) {
		is->in_outage = true;
		is->backoff_ms = 0;
		is->retry_at_ms = 0;
		if (is->event != NULL)
			is->event(is->event_context, MAIL_SOURCE_EVENT_DOWN,
				  *error_r);
	}
}
