/* bot_thread.h -- the practice opponent ([bot] in ashesd.conf) on a thread
 * of its own, so that its thinking never holds up the mail loop.
 *
 * The bot is a player whose key is the daemon's signing key.  When a move
 * of it is due (its opponent moved [bot] delay ago), the thread thinks
 * ([bot] think_time), writes the move as a player would ("move 12 7
 * c3-e5"), signs the mail with the daemon's key (PGP/MIME), reads it back
 * through the mail layer, gpg verifying, and hands it to the game service
 * like any inbound mail: the move is recorded and archived with its
 * signature, and proven the way every move is.  The thread has its own
 * store connection (SQLite: one per thread), game service, templates and
 * gpg context; the service's transaction orders it against the mail
 * loop's.  A move the service refuses (the game changed meanwhile) is
 * not tried again until the game changes.  The hints players ask
 * (`hint GAME`) are thought about here too, and mailed, so that no
 * search ever runs on the thread that reads mail; and the analyses of
 * finished games asked (`analyse GAME`), one at a time whenever no move
 * is due.
 */
#ifndef ASHES_DAEMON_BOT_THREAD_H
#define ASHES_DAEMON_BOT_THREAD_H

struct config;
struct bot_thread;
struct outbox_thread;

/* Start the bot as cfg says: nothing (*bt_r NULL) when [bot] is not
 * enabled; else the bot player made or found (its key the signing key of
 * [gpg]), and the thread started.  After each move it wakes outbox (may
 * be NULL), so that the "your move" mail it queued goes out at once.
 * cfg, outbox and templates (the process's set) are borrowed until
 * bot_thread_stop(), which must come before the outbox's.  Signals are blocked in the thread.  0, or -1
 * with *error_r (static) and *bt_r NULL. */
struct template_set;
int bot_thread_start(const struct config *cfg, struct outbox_thread *outbox,
		     struct template_set *templates, struct bot_thread **bt_r,
		     const char **error_r);

/* A game may have changed (the loop handled mail): look again now.
 * NULL: nothing. */
void bot_thread_wake(struct bot_thread *bt);

/* Play every move due now, and wait until they are made: `ashesd
 * --once`.  NULL: nothing. */
void bot_thread_drain(struct bot_thread *bt);

/* Stop after the move in hand (at most one thinking time), join, close
 * and free; *btp becomes NULL. */
void bot_thread_stop(struct bot_thread **btp);

#endif
