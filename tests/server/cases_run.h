/* cases_run.h -- one run of a case file of the service's data-driven
 * tests (tests/server/test_cases.c): the state a case carries from
 * section to section, and what each part of the driver offers:
 *
 *   cases_input.c    a case's own text: personas, variables and capture
 *                    rules, {{...}} in mails, <mail>, <config>, <capture>
 *   cases_service.c  the service's side: a fresh store and server, the
 *                    stand-in mail layer, the outbox, the <setup> steps
 *   cases_expect.c   the steps (<mail>, <digests>, <tick>): what each
 *                    queued as <sent> text, compared with what the case
 *                    expects (or kept for the writer)
 *   cases_driver.c   the file format itself: sections, diff, rewrite
 *
 * Errors in a case are reported with run_fail() (the case stops) or
 * run_mismatch() (the service did not do what the case says; the case
 * goes on); functions that can meet one return -1 after reporting it.
 * Allocation failure aborts.
 */
#ifndef ASHES_TESTS_CASES_RUN_H
#define ASHES_TESTS_CASES_RUN_H

#include <limits.h>
#include <regex.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "render/template.h"
#include "server/server.h"
#include "store/store.h"
#include "util/buf.h"

#include "cases_driver.h"

#define CASES_DOMAIN "ashes.test"
#define CASES_START_TIME 1767434400 /* 2026-01-03 10:00 UTC */
/* Each mail comes this much later than the one before (plus its Time:). */
#define CASES_MAIL_STEP 60
#define CASES_MAX_VARS 32
#define CASES_MAX_RULES 8
#define CASES_MAX_LIST 8
/* <config> league = ...: leagues and members each */
#define CASES_MAX_LEAGUES 4
#define CASES_MAX_MEMBERS 8
/* <config> bot = ...: the bot's name, when the case names one */
#define CASES_BOT_NAME_MAX 25

/* A sender a case names by name: a key (NULL: none) and an address. */
struct persona {
	const char *name, *fingerprint, *address;
};

struct var {
	char name[40];
	char *value;
};

struct rule {
	char name[32];
	regex_t re;
};

struct run {
	const char *path;
	struct cases_file file;
	char tmpdir[PATH_MAX];
	struct store *st;
	struct template_set *ts;
	struct server *srv;
	struct server_config cfg;
	char our_address[256];
	char bot_clock[64];
	/* <config> default_clock: cfg.clock.default_clock points here */
	char default_clock[256];
	/* <config> league = ...: cfg.leagues points here; the names and
	 * the clock point into league_text (one line's copy each) */
	struct server_league leagues[CASES_MAX_LEAGUES];
	char *league_text[CASES_MAX_LEAGUES];
	const char *league_members[CASES_MAX_LEAGUES][CASES_MAX_MEMBERS];
	/* <config> tournament = ...: cfg.tournaments points here, as the
	 * leagues' */
	struct server_tournament tournaments[CASES_MAX_LEAGUES];
	char *tournament_text[CASES_MAX_LEAGUES];
	const char *tournament_members[CASES_MAX_LEAGUES][CASES_MAX_MEMBERS];
	char bot_name[CASES_BOT_NAME_MAX];
	int64_t now;
	int counter;           /* mails delivered, setup included */
	int nmail;             /* <mail> sections delivered */
	int ndigests;          /* <digests> sections run */
	int nticks;            /* <tick> sections run */
	int64_t last_outbox;   /* the newest outbox row read */
	int64_t setup_outbox;  /* the newest outbox row of the setup */
	char **mail_ids;       /* Message-IDs of the case's mails (bare) */
	size_t nmail_ids;
	char **sent_ids;       /* Message-IDs of the mails shown, in order */
	size_t nsent;
	struct var vars[CASES_MAX_VARS];
	size_t nvars;
	struct rule rules[CASES_MAX_RULES];
	size_t nrules;
	/* setup: who is to move in each game, by the last "your move" */
	struct { int64_t game; char *address; } to_move[32];
	size_t nto_move;
	int failures;          /* mismatches and errors */
	bool fatal;            /* an error: the case cannot go on */
	bool write;
	bool dump;
};

/* One mail as a case states it; what is left NULL/0 gets a default. */
struct inmail {
	const char *fingerprint;  /* NULL: unsigned */
	const char *from;
	const char *message_id;   /* NULL: made from the counter */
	bool no_message_id;
	const char *subject, *references, *body;
	const char *raw, *signed_text;
	bool weak, strong, key_offered, unsigned_text_ignored, raw_truncated;
	bool crlf;
	/* own-key: the mail layer found the signer is one of our own keys;
	 * from-mailbox: a mail From: bot came through the mailbox (else the
	 * bot's are the bot thread's own, in process) */
	bool own_key, from_mailbox;
	const char *own_offered[CASES_MAX_LIST];
	size_t nown_offered, offered_outside;
	const char *refusal, *signer, *problem;
	size_t size, size_limit;
	bool signature_time_set;
	int64_t signature_offset;
	/* Received: the mailbox's receipt, from the mail's time (unset: 0,
	 * unknown) */
	bool received_set;
	int64_t received_offset;
	const char *silent;
	const char *bounce[CASES_MAX_LIST], *revoked[CASES_MAX_LIST],
		*offered[CASES_MAX_LIST];
	size_t nbounce, nrevoked, noffered;
	int64_t delay;            /* seconds more than CASES_MAIL_STEP */
	bool setup;
};

/* Strings an inmail points to, freed after delivery. */
struct strings {
	char *s[64];
	size_t n;
};

/* One queued mail: what a case states of it. */
struct sent_mail {
	int64_t id;
	int64_t game_id;
	char *kind, *to, *subject, *in_reply_to, *references, *message_id;
	char *body;
};

/* ---- reporting (test_cases.c) ------------------------------------------ */

/* An error in the case or its setup: the case stops. */
void run_fail(struct run *r, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* The service did not do what the case expects: the case goes on. */
void run_mismatch(struct run *r, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* ---- a case's own text (cases_input.c) --------------------------------- */

/* The persona of that name, or of that address; NULL: none. */
const struct persona *persona_find(const char *name);
const struct persona *persona_by_address(const char *address);

/* A variable's value, NULL when unbound. */
const char *var_get(const struct run *r, const char *name);
/* Bind NAME to value; binding it to a new value keeps the old one as
 * NAME_prev. */
void var_capture(struct run *r, const char *name, const char *value);
/* A capture rule: NAME is bound to what the regex's one group matches. */
int rule_add(struct run *r, const char *name, const char *regex, int line);

/* Expand {{NAME}}, {{NAME|lower}}, {{sent N}}, {{mail N}} and
 * {{game N}} in text of an input mail, onto out. */
int expand(struct run *r, const char *text, struct buf *out, int line);
/* "+90", "+2h", "-40d": seconds. */
int parse_offset(const char *s, int64_t *secs_r);
/* "2026-03-29T01:00Z": 0 and the instant, or -1. */
int parse_instant(const char *s, int64_t *t_r);

/* A <mail> section into m; the strings m points to are kept in k (free
 * them with strings_free() once the mail is delivered). */
int mail_read(struct run *r, const struct cases_section *s,
	      struct inmail *m, struct strings *k);
void strings_free(struct strings *k);

/* <config> into r->cfg, <capture> into r->rules. */
int config_read(struct run *r, const struct cases_section *s);
int capture_read(struct run *r, const struct cases_section *s);

/* ---- the service's side (cases_service.c) ------------------------------ */

/* A fresh store in a temp folder, the real templates, the default
 * config; run_close() frees everything of the run. */
void run_open(struct run *r);
void run_close(struct run *r);
/* The service made (anew, after a <config>: a reload) from r->cfg; with
 * a bot (<config> bot = on ...), the persona "bot" is made the bot, as
 * the daemon's bot thread does with its signing key. */
void run_server_new(struct run *r);

/* Hand one mail to the service the way the mail layer would: the
 * result of server_handle(). */
int deliver(struct run *r, const struct inmail *m,
	    struct server_outcome *out, const char **error_r);

/* The mails queued since the last call, oldest first. */
int outbox_take(struct run *r, struct sent_mail **mails_r, size_t *count_r);
void sent_mails_free(struct sent_mail **mails, size_t n);

/* Run a <setup> section: every mail of it must succeed. */
int setup_read(struct run *r, const struct cases_section *s);

/* ---- what a case shows (cases_expect.c) -------------------------------- */

/* Bind every capture rule's group found in text. */
void capture(struct run *r, const char *text);

/* Run the step section s (cases_section_step()): a <mail> delivered,
 * the daily <digests> (server_send_digests) or the clocks' timer <tick>
 * (server_clock_tick), the clock moving on as for a mail; and compare
 * what it queued with the <sent> and <outcome> sections from index
 * *next on (advanced past them).  What it queued, as those sections, is
 * appended to generated. */
void run_step(struct run *r, const struct cases_section *s, size_t *next,
	      struct buf *generated);

#endif
