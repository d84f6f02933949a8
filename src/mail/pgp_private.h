/* pgp_private.h -- the GPGME context, error and output helpers shared by
 * pgp.c (context, verification), pgp_decrypt.c (decryption), pgp_keys.c
 * (import, forget, key state) and pgp_sign.c (signing).  Not an interface: nothing outside those files
 * includes it; the mail layer's callers use pgp.h. */
#ifndef ASHES_MAIL_PGP_PRIVATE_H
#define ASHES_MAIL_PGP_PRIVATE_H

#include <gpgme.h>
#include <limits.h>
#include <pthread.h>
#include <stdbool.h>
#include <sys/types.h>
#include <time.h>

#include "mail/pgp.h"

/* Signing (sub)key -> primary key fingerprints already looked up: the
 * lookup runs gpg once more, and a subkey's primary never changes (gpg
 * requires a signing subkey's back-signature). */
#define PGP_PRIMARY_CACHE 64

struct pgp_primary {
	char signing[PGP_FPR_MAX + 1];
	char primary[PGP_FPR_MAX + 1];
};

struct pgp_ctx {
	gpgme_ctx_t gpg;
	char *home;	/* GNUPGHOME as given (NULL: gpg's default) */
	char error[256];
	struct pgp_primary primary[PGP_PRIMARY_CACHE];
	unsigned int primary_next;
	/* Contexts on the same home for other threads (pgp_ctx_sibling),
	 * owned by this one. */
	struct pgp_ctx *siblings[PGP_SIBLINGS_MAX];
	/* pgp_ctx_set_limits (pgp.h): the budget of one gpg operation on a
	 * stranger's bytes in ms (0: none), SHA-1 allowed, the shape
	 * pre-scan on. */
	unsigned int budget_ms;
	bool allow_sha1;
	bool scan;
	/* home as gpg's command line spells it under a budget, unique to
	 * this context (pgp_budget.c); "" when there is none */
	char tag_home[PATH_MAX];
};

/* One budgeted operation (pgp_budget.c).  pgp_budget_begin() before the
 * GPGME call(s), pgp_budget_end() after, which returns true when the
 * budget ran out and gpg was killed: the operation's result is then a
 * failure to report with pgp_budget_fail()'s words. */
struct pgp_budget {
	struct pgp_ctx *ctx;
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	struct timespec deadline;	/* CLOCK_MONOTONIC */
	bool watching, done, fired;
};

void pgp_budget_begin(struct pgp_ctx *ctx, struct pgp_budget *b);
bool pgp_budget_end(struct pgp_budget *b);
const char *pgp_budget_fail(struct pgp_ctx *ctx);
/* Give ctx its own spelling of its home (once, when it is made). */
void pgp_budget_tag_home(struct pgp_ctx *ctx);


/* Write "what: gpgme's words for err" (just what when err is 0) into
 * ctx->error and return it, for *error_r. */
const char *pgp_fail(struct pgp_ctx *ctx, const char *what, gpgme_error_t err);

/* The verify result of the last operation on ctx (a verify, or a
 * decrypt-and-verify) into *sig_r: the first signature, its signer's
 * primary fingerprint, a weak digest refused (pgp.c).  Returns 0. */
int pgp_fill_result(struct pgp_ctx *ctx, struct pgp_sig *sig_r,
		    const char **error_r);

struct buf;

/* gpg's output into a buffer, bounded: a write that would take out past
 * max fails with EFBIG and sets over, and so the operation fails.  Give
 * pgp_sink_write (pgp.c) as the write callback of a gpgme_data_new_from_cbs
 * with a struct pgp_sink as its handle. */
struct pgp_sink {
	struct buf *out;
	size_t max;
	bool over;
};
ssize_t pgp_sink_write(void *handle, const void *buffer, size_t size);

/* Errors of a GPGME operation that come from the data (a hostile or
 * broken mail) rather than from gpg itself. */
bool pgp_data_error(gpgme_error_t err);

/* ---- a mail without its headers: pgp_public.c, pgp_reduce.c ---- */

/* The body of a single part: its Content-Transfer-Encoding header, a
 * blank line, then s as it is when it can go so (8bit when eight_bit,
 * else 7bit: CRLF lines, no NUL, no bare CR, short lines), else in
 * base64.  Appended to *out. */
void pgp_public_body(const char *s, size_t len, bool eight_bit,
		     struct buf *out);
/* A multipart boundary ("=_ashes-signed-N") found in neither a nor b. */
void pgp_public_boundary(const struct buf *a, const struct buf *b,
			 char *out, size_t len);

#endif
