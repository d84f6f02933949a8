/* pgp_fixture.h -- the fixtures of the OpenPGP tests: one Check program
 * built from test_pgp.c (mails through inbound_parse, signing; it makes
 * the fixtures and runs the suite), test_pgp_keys.c (key imports,
 * revocations, the keyring's state) and test_pgp_limits.c; and
 * test_crypt (encrypted mail, crypt-helper.sh's fixtures).  Each program's
 * main file defines fixdir; pgp_fixture.c reads the fixtures in it. */
#ifndef ASHES_TESTS_PGP_FIXTURE_H
#define ASHES_TESTS_PGP_FIXTURE_H

#include <check.h>
#include <stdbool.h>
#include <stddef.h>

#include "mail/pgp.h"

#include "../check_run.h"

/* The temp dir gpg-helper.sh fills, made by main. */
extern char fixdir[];

/* The fixture file name, whole (caller frees); *len_r its length. */
char *slurp(const char *name, size_t *len_r);
/* The fingerprint of the fixtures' key (caller frees). */
char *fpr_of(const char *key);
/* A private copy of the daemon's keyring at home, for tests that import. */
void fresh_home(const char *home);
/* A context on the fixtures' keyring sub (verifier, signer, stranger). */
struct pgp_ctx *open_home(const char *sub);
/* CLOCK_MONOTONIC in seconds, for the tests that time a bound. */
double now_s(void);

/* The body of an OpenPGP test program's main: makes fixdir, has
 * tests/mail/HELPER (given the source tree before fixdir when with_src)
 * make the fixtures in it, runs s, stops the gpg agents, and removes
 * fixdir unless a test failed (prog names the program on stderr).
 * Returns main's exit status. */
int pgp_fixture_run(Suite *s, const char *prog, const char *helper,
		    bool with_src);

/* Reduce the fixture mail name (pgp_reduce_mail, the thread lines
 * thread first, may be NULL) and check what a reduction must keep: read
 * with ctx as the mail is read it gives the same signature status,
 * signer, text and signed digest; no header of the mail is left (From,
 * To, Date, Received, Message-ID...); reducing it again gives it again.
 * Returns its kind. */
enum pgp_reduced_kind reduce_check(struct pgp_ctx *ctx, const char *name,
				   const char *thread);

/* Add test_pgp_keys.c's tests to tc. */
void pgp_keys_add_tests(TCase *tc);
/* Add test_pgp_limits.c's tests (pre-scan, budget, digests) to tc. */
void pgp_limits_add_tests(TCase *tc);

#endif
