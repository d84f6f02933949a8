/* classify.h -- the loop and abuse filters of inbound mail: decide from a
 * message's headers whether it must never be answered (mail from
 * ourselves, auto-replies, bulk/list/junk, our own X-Loop), whether it is
 * a bounce, and dig out of a bounce (RFC 3464 DSN or a plain-text report)
 * which of our messages or recipients it is about.
 *
 * Pure functions over strings: no libetpan, no I/O, so the decisions are
 * easy to test and to reuse.
 */
#ifndef ASHES_MAIL_CLASSIFY_H
#define ASHES_MAIL_CLASSIFY_H

#include <stdbool.h>
#include <stddef.h>

enum classify_verdict {
	CLASSIFY_NORMAL = 0,
	CLASSIFY_FROM_SELF,	 /* From is one of our addresses */
	CLASSIFY_AUTO_SUBMITTED, /* Auto-Submitted present and not "no" */
	CLASSIFY_PRECEDENCE,	 /* Precedence: bulk, list or junk */
	CLASSIFY_X_LOOP,	 /* X-Loop names one of our addresses */
	CLASSIFY_BOUNCE,	 /* delivery report / mailer-daemon */
	CLASSIFY_OVERSIZED,	 /* larger than the configured limit */
	CLASSIFY_LIST,		 /* List-Id or List-Post: a mailing list's
				  * copy (RFC 3834 2: never answered) */
};

/* The headers the filters look at; NULL when the header is absent.  The
 * values are raw header values (unfolded). */
struct classify_headers {
	const char *from_addr;	  /* bare addr-spec of the first From */
	const char *return_path;  /* addr-spec of Return-Path ("" for <>) */
	const char *auto_submitted;
	const char *precedence;
	bool list;		  /* a List-Id or List-Post header is there */
	const char *const *x_loop; /* every X-Loop value */
	size_t x_loop_count;
	const char *content_type; /* lower-case "type/subtype" of the body */
	const char *report_type;  /* report-type parameter, if any */
};

/* Short name of a verdict ("normal", "from-self", ...). */
const char *classify_verdict_name(enum classify_verdict v);

/* The filters in a fixed order (self, delivery report or mailer-daemon,
 * auto-submitted, precedence, mailing list, x-loop, null reverse path).  our_addrs is a NULL-terminated list of the daemon's own
 * addresses (may be NULL).  Never fails. */
enum classify_verdict classify_headers(const struct classify_headers *h,
				       const char *const *our_addrs);

/* Addresses compared as mail systems do in practice: case-insensitive,
 * ignoring surrounding <> and spaces.  Only classify.c calls it in
 * ashesd; exported so that tests/mail/test_mime.c can check the
 * comparison apart from the other rules of classify_headers(). */
bool classify_addr_equal(const char *a, const char *b);

/* Calls fn for each recipient named in a DSN's message/delivery-status
 * text (Final-Recipient, else Original-Recipient, "rfc822;" removed). */
void classify_dsn_recipients(const char *text, size_t len,
			     void (*fn)(const char *addr, void *ctx),
			     void *ctx);

/* Calls fn for each "<id>" of a Message-ID header line found in text
 * (returned headers of a bounce: text/rfc822-headers, message/rfc822 or
 * quoted in a plain-text report).  The id is given with its <>. */
void classify_find_message_ids(const char *text, size_t len,
			       void (*fn)(const char *msgid, void *ctx),
			       void *ctx);

#endif
