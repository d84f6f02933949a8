/* imap.h -- the "imap" mailbox source (libetpan mailimap): see source.h for
 * the interface.  What this backend adds:
 *
 * - TLS: implicit (imaps) or STARTTLS.  libetpan (1.9, gnutls build) does
 *   not check the server's certificate itself; it only hands out the peer's
 *   chain (mailstream_get_certificate_chain).  imap_tls_verify() checks that
 *   chain with gnutls against the CA file or the system trust store, and the
 *   host name (or IP address) against the certificate, before any password
 *   is sent.  tls_no_verify turns this off (tests only).
 * - Login: LOGIN or AUTHENTICATE PLAIN (Cyrus SASL via libetpan).
 * - Scanning: UID FETCH 1:* (UID), filtered on the client side, because a
 *   UID FETCH N+1:* always returns the newest message even when its UID is
 *   <= N; the mailbox holds only unhandled mail (handled mail is moved out),
 *   so the listing stays short.  Messages whose UID is at or below the saved
 *   last UID were committed by the caller but not yet archived (a crash or
 *   a dropped connection): they are archived, never handed out again.
 * - Bodies are fetched one by one with BODY.PEEK[] (no implicit \Seen),
 *   with their INTERNALDATE: the message's received time.
 * - Archive: UID STORE +FLAGS (\Seen), then UID MOVE if the server has the
 *   MOVE capability, else UID COPY + \Deleted + (UID) EXPUNGE, for a batch
 *   of handled UIDs at once (Dovecot spends ~5 ms on each command, more than
 *   a signature check): sent before the next scan, before waiting, on close
 *   and every 100 messages.
 * - Waiting: IDLE when the server has it, else a sleep of poll_ms.
 */
#ifndef ASHES_MAIL_IMAP_H
#define ASHES_MAIL_IMAP_H

#include <stddef.h>
#include <stdint.h>

/* Check a peer certificate chain (DER blobs, leaf first) for HOST: trusted
 * by the PEM CAs in ca_file (NULL: the system store) and issued to HOST (a
 * name or an IP address).  Returns 0, or -1 with a message in
 * error[error_size].  Only imap.c calls it in ashesd; exported so that
 * tests/mail/test_imap.c can try chains of its own without a handshake. */
int imap_tls_verify(const unsigned char *const *der, const size_t *der_len,
		    size_t n, const char *host, const char *ca_file,
		    char *error, size_t error_size);

/* An IMAP date-time (INTERNALDATE "01-Dec-2026 12:00:00 +0100") in epoch
 * seconds: day, month (1..12), year, hour, minute, second, and the zone
 * as libetpan reads it ("+0100" is 100, "-0230" is -230).  Returns 0, or
 * -1 for a field out of range (*epoch_r unchanged).  Only imap.c calls
 * it in ashesd; exported so that tests/mail/test_source_dir.c can check
 * zones and out-of-range fields without an IMAP server. */
int imap_date_time_epoch(int day, int month, int year, int hour, int min,
			 int sec, int zone, int64_t *epoch_r);

#endif
