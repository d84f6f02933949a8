/* smtp.h -- send finished RFC 5322 messages with libcurl's SMTP client.
 *
 * The bytes given are sent unchanged (through a read callback, never
 * CURLOPT_MIMEPOST, which would re-wrap a signed PGP/MIME body); libcurl
 * only dot-stuffs them on the wire.  One sender keeps one connection open
 * from one send to the next, across batches: the same CURL handle (whose
 * connection cache holds it), with MAIL FROM / RCPT TO set per message,
 * until smtp_sender_disconnect(), a failed send (libcurl closes the
 * connection after any transfer that failed) or the server hangs up.
 * libcurl does not pipeline SMTP (RFC 2920 PIPELINING is not used even
 * where offered): each MAIL, RCPT and DATA waits for its reply.  Each send says whether the message was accepted, failed for
 * now (retry later with backoff) or failed for good (record it), with the
 * server's reply text.  Passwords are never logged nor put in replies.
 *
 * Classification:
 *   SMTP_SENT       the server answered 250 to the end of DATA;
 *   SMTP_TEMPFAIL   a 4xx reply, connection refused/reset, timeout, name
 *                   lookup failure, and also failures that are not the
 *                   message's fault and that an operator fixes (TLS or
 *                   certificate trouble, STARTTLS missing when required,
 *                   login refused): the outbox keeps the message;
 *   SMTP_PERMFAIL   a 5xx reply to MAIL FROM, RCPT TO or DATA (unknown
 *                   recipient, message refused).
 * Every recipient of a message must be accepted or the message is not
 * sent (all or nothing; the daemon sends one recipient per message).
 */
#ifndef ASHES_MAIL_SMTP_H
#define ASHES_MAIL_SMTP_H

#include <stdbool.h>
#include <stddef.h>

enum smtp_security {
	SMTP_STARTTLS_REQUIRED = 0,	/* smtp://, refuse to go on without TLS */
	SMTP_STARTTLS_OPTIONAL,	/* smtp://, TLS if the server offers it */
	SMTP_PLAIN,		/* smtp://, never TLS: loopback tests */
	SMTP_IMPLICIT_TLS,	/* smtps:// */
};

struct smtp_settings {
	const char *host;
	unsigned int port;	/* 0: 465 for smtps, else 25 */
	enum smtp_security security;
	const char *ca_file;	/* PEM CAs; NULL: the system store */
	bool tls_no_verify;	/* testing only: accept any certificate */
	const char *user;	/* NULL: no AUTH */
	const char *password;
	const char *helo_name;	/* NULL: libcurl's default */
	unsigned int timeout_ms;	/* connect and each transfer; 0: 60 s */
};

enum smtp_result {
	SMTP_SENT = 0,
	SMTP_TEMPFAIL,
	SMTP_PERMFAIL,
};

struct smtp_sender;

/* Make a sender; no connection is opened until the first send.  Returns 0,
 * or -1 with a static *error_r.  Free with smtp_sender_free(). */
int smtp_sender_new(const struct smtp_settings *set,
		    struct smtp_sender **sender_r, const char **error_r);

/* Send one message (data, size: the whole RFC 5322 text, CRLF or LF line
 * ends) from envelope sender FROM to the n recipients RCPTS.  *reply_r
 * (owned by the sender, valid until the next call) gets the server's last
 * reply, e.g. "550 5.1.1 <x@y>: Recipient address rejected", or
 * libcurl's words when there was no reply ("Couldn't connect to server").
 * *code_r (may be NULL) gets the reply code, 0 if none.  No recipient at
 * all is a permanent failure. */
enum smtp_result smtp_send(struct smtp_sender *sender, const char *from,
			   const char *const *rcpts, size_t n_rcpts,
			   const void *data, size_t size,
			   const char **reply_r, int *code_r);

/* Close the connection kept open between sends, with QUIT (e.g. after it
 * sat idle); the next send opens a new one.  Nothing to do when no send
 * was made since the last close. */
void smtp_sender_disconnect(struct smtp_sender *sender);

/* The words for a result: "sent", "temporary failure", "permanent
 * failure". */
const char *smtp_result_name(enum smtp_result result);

/* Close the connection (QUIT) and free; *senderp becomes NULL. */
void smtp_sender_free(struct smtp_sender **senderp);

#endif
