/* outbox_thread.h -- the outbox sent by a thread of its own, so that
 * reading, verifying and committing mail never wait for SMTP.
 *
 * Two threads in fact, one per lane of the outbox (store.h): archives,
 * megabytes each, go out on a thread and an SMTP connection of their
 * own, so that a reply never waits behind one on a slow server; every
 * other mail on the loop's SMTP sender.  Each thread has its own store
 * connection (SQLite: one per thread; WAL lets it read while the mail
 * loop writes), its own gpg context (for signing replies and archives)
 * and its SMTP connection, which it keeps open across batches and closes
 * after [smtp] idle_close without a send.  It sleeps until the mail loop
 * wakes it (after a commit that may have queued mail), the next row falls
 * due (a retry's backoff) or the SMTP server's backoff ends.
 *
 * Stopping finishes the mail in hand (accepted and marked sent, or left
 * queued) and then joins the thread: no row is lost.  A row goes out
 * twice only if the process dies between the server's 250 and the mark
 * (one store write), as before (outbox.h).
 */
#ifndef ASHES_DAEMON_OUTBOX_THREAD_H
#define ASHES_DAEMON_OUTBOX_THREAD_H

struct config;
struct smtp_sender;
struct outbox_thread;

/* Open the thread's store and gpg context as cfg says, and start it on
 * sender.  cfg, sender and templates (the process's set, for an archive
 * mail's note) are borrowed: all must stay as they are, and the caller
 * must not use sender, until outbox_thread_stop().  Signals
 * are blocked in the thread: they go to the mail loop.  Returns 0, or -1
 * with *error_r (static). */
struct template_set;
int outbox_thread_start(const struct config *cfg, struct smtp_sender *sender,
			struct template_set *templates,
			struct outbox_thread **ot_r, const char **error_r);

/* Tell the threads to look at the outbox now; does not wait.  NULL: no
 * thread, nothing to do. */
void outbox_thread_wake(struct outbox_thread *ot);

/* Wake the thread and wait until it sent everything due that it can send
 * now (rows in backoff, or a server in backoff, are not waited for): for
 * `ashesd --once`.  NULL: no thread, nothing to do. */
void outbox_thread_drain(struct outbox_thread *ot);

/* Stop the thread after the mail in hand, join it, close what it opened
 * (the SMTP connection with QUIT) and free; *otp becomes NULL. */
void outbox_thread_stop(struct outbox_thread **otp);

#endif
