/* loop_verify.c -- the mail loop's reading of a batch (loop_batch.c):
 * the mails copied from the mailbox read and verified -- several at once
 * --, and classified into what the service takes, in mailbox order.
 *
 * Verifying is most of what a mail costs (a gpg process per signature),
 * and gpg runs in a process of its own: two mails verified at once keep
 * two cores busy.  GPGME contexts serve one thread at a time, so each
 * worker has its own (pgp_ctx_sibling); the keyring is shared, and gpg
 * locks it.  What changes the keyring must still happen in mailbox order,
 * so a batch is read in two passes:
 *   1. every mail is read and verified against the keyring as it stood
 *      when the batch began (inbound_parse without import_keys), by up to
 *      loop_verify_workers() workers -- this thread and helper threads --
 *      that share nothing but the list of mails; nothing writes the
 *      keyring meanwhile;
 *   2. then, one mail at a time in mailbox order, on the loop's own
 *      context, what may change the keyring: a register mail's key
 *      imported and the mail read again, revocation certificates, keys
 *      offered for `key replace`.  A mail whose verdict a change made
 *      since pass 1 could alter is read again first.  So every mail sees
 *      the keyring exactly as if the batch had been read one mail after
 *      the other: a key mail k imported is there for mail k+1 (a
 *      registration, then a move signed by the new key, in one batch).
 * Which verdicts a change can alter: a key added (a registration, a key
 * offered) only turns "unknown key" into something else -- a signature
 * names the key that made it, and a new key is no other key -- so after
 * one, the later mails read as UNKNOWN_KEY are read again.  A known key
 * changed (a revocation, a new subkey, a new expiry) may alter any verdict
 * by that key; that is rare, so after one every later signed mail is read
 * again.  Re-reading costs time only in a batch that carries keys.
 */
#include <config.h>

#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "config/log.h"
#include "config/settings.h"
#include "daemon/daemon.h"
#include "daemon/guard.h"
#include "daemon/loop_private.h"
#include "daemon/test_hooks.h"
#include "daemon/timing.h"
#include "mail/inbound.h"
#include "mail/pgp.h"
#include "server/server.h"

/* Most mails verified at once: this thread and one helper per sibling
 * GPGME context. */
#define LOOP_VERIFY_MAX (PGP_SIBLINGS_MAX + 1)

/* How many mails to verify at once: ASHESD_VERIFY_WORKERS (1 to
 * LOOP_VERIFY_MAX; 1 reads them one after the other), else the
 * processors online, at least 2 (a verification is partly gpg starting
 * and waiting, which a second one overlaps) and at most LOOP_VERIFY_MAX. */
static unsigned int loop_verify_workers(void)
{
	const char *env = getenv("ASHESD_VERIFY_WORKERS");
	long n = 0;

	if (env != NULL && *env != '\0') {
		char *end;

		n = strtol(env, &end, 10);
		if (*end != '\0' || n < 1)
			n = 0;
	}
	if (n == 0) {
		n = sysconf(_SC_NPROCESSORS_ONLN);
		if (n < 2)
			n = 2;
	}
	return n > LOOP_VERIFY_MAX ? LOOP_VERIFY_MAX : (unsigned int)n;
}

void pending_free(struct pending *p)
{
	inbound_strs_free(&p->offered);
	inbound_strs_free(&p->own_offered);
	inbound_strs_free(&p->revoked);
	free(p->data);
	server_mail_facts_free(&p->facts);
	inbound_msg_free(&p->im);
	memset(p, 0, sizeof(*p));
}

/* Read and verify the mail in p (its bytes in p->data) into p->im with
 * the keyring as it stands, importing nothing: pass 1, in any worker, and
 * pass 2's reading again.  0, or -1 when the machinery failed (gpg,
 * memory; why in p->read_error, a copy: inbound_parse's words may live in
 * the worker thread's storage). */
static int loop_read_plain(struct pending *p, const struct inbound_options *opts,
			   struct pgp_ctx *pgp)
{
	struct inbound_options o = *opts;
	const char *e = NULL;

	test_hook_crash_on(p->data, p->size);
	o.pgp = pgp;
	o.import_keys = false;
	/* Signatures are judged by the real clock, gpg's: the test clock
	 * (timing.h) moves the game's time, not the signers'. */
	o.now = time(NULL);
	inbound_msg_free(&p->im);
	if (test_hook_fail_on(p->data, p->size))
		e = "test hook: failing on this mail";
	else if (inbound_parse(p->data, p->size, &o, &p->im, &e) == 0)
		return 0;
	snprintf(p->read_error, sizeof(p->read_error), "%s",
		 e != NULL ? e : "cannot read the mail");
	p->read_failed = true;
	return -1;
}

/* Pass 2's reading of p, on the loop's own context: read again when a
 * change of the keyring since pass 1 may alter its verdict (stale), then
 * the register path.  0, or -1 when the machinery failed (gpg, memory):
 * try again later. */
static int loop_read(struct loop *l, const struct inbound_options *opts,
		     struct pending *p, bool stale, const char **error_r)
{
	struct inbound_options o = *opts;

	if (stale && loop_read_plain(p, opts, l->pgp) < 0) {
		*error_r = p->read_error;
		return -1;
	}
	/* Signed by a key that has expired, with key material inside: its
	 * owner may have extended the expiry and sent the updated key with
	 * this very mail.  Take what the mail brings for keys we hold
	 * (pgp_import_known: never a new key, no certifications by others)
	 * before judging it, and read it again if a key changed.  Later
	 * mails are read again too (known_keys_changed), in mailbox order. */
	if (p->im->sig.status == PGP_SIG_KEY_EXPIRED && p->im->key_count > 0) {
		loop_import_revocations(l, p);
		if (p->known_keys_changed) {
			log_info("uid %u: a key the mail carries changed; "
				 "reading it again", p->uid);
			if (loop_read_plain(p, opts, l->pgp) < 0) {
				*error_r = p->read_error;
				return -1;
			}
		}
	}
	/* Signed by a key we do not know, with a key inside: the register
	 * path.  Import it and read the mail again; only then, so that the
	 * keyring grows only with keys that signed what they carry. */
	if (p->im->sig.status == PGP_SIG_UNKNOWN_KEY && p->im->key_count > 0) {
		inbound_msg_free(&p->im);
		o.pgp = l->pgp;
		o.now = time(NULL);
		o.import_keys = true;
		if (inbound_parse(p->data, p->size, &o, &p->im, error_r) < 0)
			return -1;
	}
	return 0;
}

/* Pass 2 for one mail read in pass 1: read again if stale, made into
 * p->si as the service takes it (server_inbound_from_mail), the keys it
 * carries taken.  0: ready for the server; -1: the machinery failed
 * (gpg, store), try it again later. */
static int loop_prepare(struct loop *l, const struct config *cfg,
			const struct inbound_options *opts, struct pending *p,
			int64_t now, bool stale, const char **error_r)
{
	struct server_inbound *si = &p->si;
	struct inbound_msg *im;

	/* gpg runs for it again: a crash now is this mail's alone. */
	if (stale || p->im->key_count > 0)
		guard_inflight_set(&l->guard, p->uidvalidity, &p->uid, 1);
	if (loop_read(l, opts, p, stale, error_r) < 0)
		return -1;
	im = p->im;
	server_inbound_from_mail(im, p->data, p->size,
				 (size_t)cfg->limits.max_message_size,
				 &p->facts, si);
	si->source = l->source_name;
	/* A move is charged at its receipt, never at the signature's time
	 * (the sender's to choose), nor later than now. */
	si->received = timing_received(p->received, now);
	if (p->facts.key_note[0] != '\0')
		log_info("uid %u: not read: %s", p->uid, p->facts.key_note);
	if (si->silent_outcome != NULL)
		return 0;
	if (im->verdict == CLASSIFY_NORMAL && im->problem == INBOUND_ENCRYPTED)
		/* the operator's half of the reply: why it stayed sealed */
		log_notice("uid %u: encrypted mail not read: %s", p->uid,
			   im->problem_detail ? im->problem_detail : "?");
	if (si->fingerprint != NULL) {
		/* Every mail we send is signed by our key: one that comes
		 * back so is a copy, and speaks for nobody. */
		si->own_signer = loop_own_key(l, im->sig.fpr);
		if (si->own_signer)
			log_warning("uid %u: signed by our own key %s: a copy "
				    "of a mail of ours, refused", p->uid,
				    im->sig.fpr);
	}
	if (im->sig.refused != PGP_REFUSED_NONE)
		log_notice("uid %u: signature refused: %s", p->uid, im->sig.why);
	if (im->key_count > 0)
		loop_import_revocations(l, p);
	if (si->fingerprint != NULL && !si->own_signer && im->key_count > 0)
		loop_import_offered(l, p);
	return 0;
}

/* Pass 1, shared by its workers: the batch, which mail comes next, and
 * the mails in hand, named in the in-flight file. */
struct verify_job {
	pthread_mutex_t lock;
	struct guard *guard;
	struct pending *batch;
	size_t n, next;
	const struct inbound_options *opts; /* pgp: each worker's own */
	uint32_t in_hand[LOOP_VERIFY_MAX]; /* by worker; 0: none */
};

struct verify_worker {
	struct verify_job *job;
	unsigned int slot;
	struct pgp_ctx *pgp;
	pthread_t thread;
};

/* The next mail for worker w, or NULL when none is left.  The in-flight
 * file then names every mail in hand, so that a crash in any worker
 * counts an attempt for each: which one crashed, nobody can tell. */
static struct pending *verify_claim(struct verify_worker *w)
{
	struct verify_job *job = w->job;
	struct pending *p = NULL;
	uint32_t uids[LOOP_VERIFY_MAX];
	size_t i, k = 0;

	pthread_mutex_lock(&job->lock);
	if (job->next < job->n)
		p = &job->batch[job->next++];
	job->in_hand[w->slot] = p != NULL ? p->uid : 0;
	for (i = 0; i < LOOP_VERIFY_MAX; i++)
		if (job->in_hand[i] != 0)
			uids[k++] = job->in_hand[i];
	if (k > 0)
		guard_inflight_set(job->guard, job->batch[0].uidvalidity, uids,
				   k);
	pthread_mutex_unlock(&job->lock);
	return p;
}

static void *verify_worker_main(void *arg)
{
	struct verify_worker *w = arg;
	struct pending *p;

	while ((p = verify_claim(w)) != NULL) {
		if (loop_read_plain(p, w->job->opts, w->pgp) == 0)
			continue;
		/* The batch stops at this mail: the ones behind it wait for
		 * the next round, read them no further. */
		pthread_mutex_lock(&w->job->lock);
		w->job->next = w->job->n;
		pthread_mutex_unlock(&w->job->lock);
	}
	return NULL;
}

/* Pass 1 over job's mails by up to `workers` at once: this thread on the
 * loop's context and a helper thread on a sibling context each (fewer
 * when one cannot be had).  Returns how many workers ran. */
static unsigned int loop_verify_pass1(struct loop *l, struct verify_job *job,
				      unsigned int workers)
{
	struct verify_worker w[LOOP_VERIFY_MAX];
	sigset_t async, old;
	unsigned int i, started = 1;
	const char *e;
	int rc;

	memset(w, 0, sizeof(w));
	for (i = 0; i < LOOP_VERIFY_MAX; i++) {
		w[i].job = job;
		w[i].slot = i;
	}
	w[0].pgp = l->pgp;
	/* The daemon's signals are this thread's (daemon.c wakes its wait):
	 * helpers block them.  Not the faults: a crash in a helper must
	 * still kill the daemon, for the guard to count it. */
	sigfillset(&async);
	sigdelset(&async, SIGSEGV);
	sigdelset(&async, SIGBUS);
	sigdelset(&async, SIGFPE);
	sigdelset(&async, SIGILL);
	sigdelset(&async, SIGABRT);
	sigdelset(&async, SIGTRAP);
	sigdelset(&async, SIGSYS);
	if (workers > 1)
		pthread_sigmask(SIG_BLOCK, &async, &old);
	for (i = 1; i < workers; i++) {
		if (pgp_ctx_sibling(l->pgp, i - 1, &w[i].pgp, &e) < 0) {
			log_warning("verifying %u mails at once only: %s", i, e);
			break;
		}
		rc = pthread_create(&w[i].thread, NULL, verify_worker_main, &w[i]);
		if (rc != 0) {
			log_warning("verifying %u mails at once only: %s", i,
				    strerror(rc));
			break;
		}
		started++;
	}
	if (workers > 1)
		pthread_sigmask(SIG_SETMASK, &old, NULL);
	verify_worker_main(&w[0]);
	for (i = 1; i < started; i++)
		pthread_join(w[i].thread, NULL);
	return started;
}

/* Pass 1, then pass 2 (see the top of this file; loop_private.h says
 * what it returns). */
size_t loop_verify(struct loop *l, const struct config *cfg,
		   struct pending *batch, size_t n, int64_t now, bool careful,
		   bool *cut_r)
{
	struct verify_job job;
	struct inbound_options opts;
	struct timespec t0, t1;
	const char *our[2], *e = NULL;
	unsigned int workers = 1, ran;
	bool new_keys = false, known_changed = false;
	size_t i, k;

	settings_inbound(cfg, our, &opts);
	memset(&job, 0, sizeof(job));
	pthread_mutex_init(&job.lock, NULL);
	job.guard = &l->guard;
	job.batch = batch;
	job.n = n;
	job.opts = &opts;
	/* One mail is read without a thread; so is a batch without a
	 * keyring (parsing alone is cheap).  A batch holding a mail that
	 * failed or crashed before is read one mail at a time, each named
	 * alone in the in-flight file: two in hand at a crash are both
	 * counted, and the one that did not crash goes through when it is
	 * next read alone, while the other is counted on to the limit. */
	if (!careful && n > 1 && l->pgp != NULL)
		workers = loop_verify_workers();
	if (workers > n)
		workers = (unsigned int)n;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	ran = loop_verify_pass1(l, &job, workers);
	pthread_mutex_destroy(&job.lock);
	for (i = 0; i < n; i++) {
		struct pending *p = &batch[i];
		enum pgp_sig_status st;

		if (p->read_failed) {
			e = p->read_error;
			break;
		}
		st = p->im->sig.status;
		if (loop_prepare(l, cfg, &opts, p, now,
				 st != PGP_SIG_NONE &&
				 (known_changed ||
				  (new_keys && st == PGP_SIG_UNKNOWN_KEY)),
				 &e) < 0)
			break;
		new_keys |= p->im->imported_fprs.count > 0 ||
			    p->offered.count > 0;
		known_changed |= p->known_keys_changed;
	}
	if (i < n) {
		/* Counted: a mail that makes gpg fail every time must not
		 * hold up the mail behind it for ever. */
		log_error("uid %u: cannot read the mail now: %s", batch[i].uid,
			  e != NULL ? e : "?");
		guard_count_failure(&l->guard, batch[i].uidvalidity,
				    batch[i].uid, e, now);
		for (k = i; k < n; k++)
			pending_free(&batch[k]);
		*cut_r = true;
	}
	guard_inflight_clear(&l->guard);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	log_debug("verified %zu mails in %.3f s, %u at once", n,
		  (double)(t1.tv_sec - t0.tv_sec) +
		  (double)(t1.tv_nsec - t0.tv_nsec) / 1e9, ran);
	return i;
}
