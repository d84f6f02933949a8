/* server_test.h -- the harness the service's Check tests share: a real
 * SQLite file in a temp folder, the real templates, mails delivered as the
 * mail layer would hand them over, and the outbox read back. */
#ifndef ASHES_TESTS_SERVER_TEST_H
#define ASHES_TESTS_SERVER_TEST_H

#include <check.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "core/notation.h"
#include "core/record.h"
#include "render/template.h"
#include "server/server.h"
#include "store/store.h"

#include "digest_test.h"

#define ALICE_FP "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
#define BOB_FP "BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB"
#define CAROL_FP "CCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCC"
#define EVE_FP "EEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEE"
#define ALICE "alice@example.org"
#define BOB "bob@example.net"
#define CAROL "carol@example.com"
#define DOMAIN "ashes.test"

static char tmpdir[PATH_MAX];
static char dbpath[PATH_MAX + 16];
static struct store *st;
static struct template_set *ts;
static struct server *srv;
static int64_t now = 1767434400; /* 2026-01-03 10:00 UTC */
static int counter;
static int64_t last_outbox;

/* The service's configuration in these tests: the defaults, DOMAIN, and
 * the templates of `set`. */
static inline void test_config(struct server_config *cfg,
			       struct template_set *set)
{
	server_config_default(cfg);
	cfg->domain = DOMAIN;
	cfg->templates = set;
}

/* The service (srv) anew, on the same store, configured by cfg. */
static inline void server_restart(const struct server_config *cfg)
{
	const char *error = NULL;

	server_free(&srv);
	ck_assert_msg(server_new(st, cfg, &srv, &error) == 0, "%s", error);
}

/* The source tree's templates, under the override folder `over` (NULL:
 * none). */
static inline struct template_set *test_templates(const char *over)
{
	const char *src = getenv("ASHES_SRCDIR");
	char tdir[PATH_MAX];

	snprintf(tdir, sizeof(tdir), "%s/templates", src ? src : "..");
	return template_set_new(over, tdir);
}

static inline void setup(void)
{
	struct server_config cfg;
	const char *error = NULL;

	snprintf(tmpdir, sizeof(tmpdir), "/tmp/ashes-server-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(tmpdir));
	snprintf(dbpath, sizeof(dbpath), "%s/ashes.db", tmpdir);
	ck_assert_msg(store_open(dbpath, NULL, &st, &error) == 0, "%s", error);
	ts = test_templates(NULL);
	test_config(&cfg, ts);
	server_restart(&cfg);
	counter = 0;
	last_outbox = 0;
}

static inline void teardown(void)
{
	char cmd[PATH_MAX + 16];

	server_free(&srv);
	template_set_free(&ts);
	store_close(&st);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	ck_assert_int_eq(system(cmd), 0);
}

/* One mail; msgid/raw/signed NULL: made unique from a counter. */
struct mail {
	const char *fp, *from, *subject, *refs, *body;
	const char *msgid, *raw, *signed_text;
	bool unsigned_ignored;
	/* what the mail layer would add (tests of intake.c) */
	const char *refusal, *silent, *rate_key;
	const char *const *bounce_ids;
	size_t nbounce;
	const char *const *revoked;
	size_t nrevoked;
	const char *const *offered;
	size_t noffered;
	/* handed over by the bot thread, not read from the mailbox */
	bool in_process;
};

static inline int deliver(const struct mail *m, struct server_outcome *out)
{
	struct server_inbound in;
	char msgid[64], raw[8192], sha[65], ssha[65];
	const char *error = NULL;
	int ret;

	counter++;
	now += 60;
	memset(&in, 0, sizeof(in));
	in.fingerprint = m->fp;
	in.from_address = m->from;
	in.weak_identity = m->fp == NULL;
	snprintf(msgid, sizeof(msgid), "t%d@client.test", counter);
	in.message_id = m->msgid ? m->msgid : msgid;
	if (m->raw != NULL)
		snprintf(raw, sizeof(raw), "%s", m->raw);
	else
		snprintf(raw, sizeof(raw), "Message-ID: <%s>\nSubject: %s\n\n%s",
			 in.message_id, m->subject ? m->subject : "", m->body);
	in.raw = raw;
	in.raw_len = strlen(raw);
	digest(raw, strlen(raw), sha);
	in.raw_sha256 = sha;
	if (m->fp != NULL) {
		char s[8192];
		if (m->signed_text != NULL)
			snprintf(s, sizeof(s), "%s", m->signed_text);
		else
			snprintf(s, sizeof(s), "%d\n%s", counter, m->body);
		digest(s, strlen(s), ssha);
		in.signed_sha256 = ssha;
		in.signature_time = now - 5;
	}
	in.subject = m->subject;
	in.references = m->refs;
	in.body = m->body;
	in.body_len = strlen(m->body);
	in.unsigned_text_ignored = m->unsigned_ignored;
	in.mail_refusal = m->refusal;
	in.silent_outcome = m->silent;
	in.bounce_ids = m->bounce_ids;
	in.bounce_id_count = m->nbounce;
	in.revoked_fprs = m->revoked;
	in.revoked_count = m->nrevoked;
	in.offered_fprs = m->offered;
	in.offered_count = m->noffered;
	in.in_process = m->in_process;
	if (m->refusal != NULL) {
		/* the mail layer drops the signer of a refused mail */
		in.fingerprint = NULL;
		in.signed_sha256 = NULL;
	}
	ret = server_handle(srv, &in, now, out, &error);
	if (ret < 0 && store_error_kind(st) != STORE_ERROR_FAULT)
		fprintf(stderr, "server_handle: %s\n", error);
	return ret;
}

/* Deliver m, which the service answers with `status`; its outcome into
 * *out. */
static inline void deliver_is(const struct mail *m,
			      struct server_outcome *out,
			      enum server_status status)
{
	ck_assert_int_eq(deliver(m, out), 0);
	ck_assert_int_eq(out->status, status);
}

static inline struct server_outcome send_as(const char *fp, const char *from,
				     const char *subject, const char *body)
{
	struct mail m = { .fp = fp, .from = from, .subject = subject,
			  .body = body };
	struct server_outcome out;
	ck_assert_int_eq(deliver(&m, &out), 0);
	return out;
}

#define ALICE_SAYS(body) send_as(ALICE_FP, ALICE, NULL, body)
#define BOB_SAYS(body) send_as(BOB_FP, BOB, NULL, body)
#define CAROL_SAYS(body) send_as(CAROL_FP, CAROL, NULL, body)

/* The outbox rows queued since the last call. */
struct outbox {
	struct store_outbox_msg *m;
	size_t n;
};

static inline struct outbox new_mail(void)
{
	struct outbox o = { NULL, 0 };
	const char *error;
	ck_assert_int_eq(store_outbox_list(st, STORE_OUTBOX_ALL, last_outbox, 0,
					   &o.m, &o.n, &error), 0);
	if (o.n > 0)
		last_outbox = o.m[o.n - 1].id;
	/* ASHES_TEST_DUMP=1 prints every queued mail, to read them. */
	for (size_t i = 0; getenv("ASHES_TEST_DUMP") != NULL && i < o.n; i++)
		printf("==== to %s (%s, game %" PRId64 " ply %d)\n"
		       "Subject: %s\n\n%s\n", o.m[i].recipient,
		       store_outbox_kind_name(o.m[i].kind),
		       o.m[i].game_id, o.m[i].ply, o.m[i].subject, o.m[i].body);
	return o;
}

static inline void outbox_free(struct outbox *o)
{
	store_outbox_msgs_free(&o->m, o->n);
}

/* The mails queued since the last look, thrown away. */
static inline void mail_drop(void)
{
	struct outbox o = new_mail();

	outbox_free(&o);
}

/* Exactly n mails were queued since the last look. */
static inline void mail_count_is(size_t n)
{
	struct outbox o = new_mail();

	ck_assert_uint_eq(o.n, n);
	outbox_free(&o);
}

/* The mail to `to` of kind `kind`, or NULL. */
static inline const struct store_outbox_msg *mail_to(const struct outbox *o,
					      const char *to, const char *kind)
{
	for (size_t i = 0; i < o->n; i++)
		if (strcmp(o->m[i].recipient, to) == 0 &&
		    o->m[i].kind == store_outbox_kind_of(kind))
			return &o->m[i];
	return NULL;
}

/* The mail to `to` of kind `kind`, which must be there. */
static inline const struct store_outbox_msg *sent_to(const struct outbox *o,
					      const char *to, const char *kind)
{
	const struct store_outbox_msg *m = mail_to(o, to, kind);

	ck_assert_msg(m != NULL, "no %s mail to %s", kind, to);
	return m;
}

static inline size_t count_to(const struct outbox *o, const char *to)
{
	size_t n = 0;
	for (size_t i = 0; i < o->n; i++)
		n += strcmp(o->m[i].recipient, to) == 0;
	return n;
}

#define ck_assert_has(hay, needle) \
	ck_assert_msg(strstr((hay), (needle)) != NULL, \
		      "expected \"%s\" in:\n%s", (needle), (hay))
#define ck_assert_lacks(hay, needle) \
	ck_assert_msg(strstr((hay), (needle)) == NULL, \
		      "did not expect \"%s\" in:\n%s", (needle), (hay))

/* The code in the newest reply to `to` ("confirm CODE"), into code. */
static inline void code_mailed_to(const char *to, char code[32])
{
	struct outbox o = new_mail();
	const struct store_outbox_msg *r = mail_to(&o, to, "reply");
	const char *p;

	ck_assert_ptr_nonnull(r);
	p = strstr(r->body, "    confirm ");
	ck_assert_msg(p != NULL, "no code in:\n%s", r->body);
	ck_assert_int_eq(sscanf(p, " confirm %31s", code), 1);
	outbox_free(&o);
}

/* register NAME, then confirm the address with the code mailed there. */
static inline void join(const char *fp, const char *from, const char *name)
{
	char body[96], code[32];

	snprintf(body, sizeof(body), "register %s\n", name);
	ck_assert_int_eq(send_as(fp, from, NULL, body).status, SERVER_OK);
	code_mailed_to(from, code);
	snprintf(body, sizeof(body), "confirm %s\n", code);
	ck_assert_int_eq(send_as(fp, from, NULL, body).status, SERVER_OK);
}

static inline void register_three(void)
{
	join(ALICE_FP, ALICE, "alice");
	join(BOB_FP, BOB, "bob");
	join(CAROL_FP, CAROL, "carol");
	mail_drop();
}

/* The game a queued mail is about. */
static inline int64_t game_of(const struct store_outbox_msg *m)
{
	ck_assert_ptr_nonnull(m);
	ck_assert_int_gt(m->game_id, 0);
	return m->game_id;
}

/* The player of fp and address `from` sends "WORD GAME REST" (REST may
 * be empty), which the service takes (SERVER_OK). */
static inline void game_says(const char *fp, const char *from,
			     const char *word, int64_t game, const char *rest)
{
	char body[256];

	snprintf(body, sizeof(body), "%s %" PRId64 "%s%s\n", word, game,
		 rest[0] != '\0' ? " " : "", rest);
	ck_assert_int_eq(send_as(fp, from, NULL, body).status, SERVER_OK);
}

#define ALICE_GAME(word, game, rest) \
	game_says(ALICE_FP, ALICE, word, game, rest)
#define BOB_GAME(word, game, rest) \
	game_says(BOB_FP, BOB, word, game, rest)
#define CAROL_GAME(word, game, rest) \
	game_says(CAROL_FP, CAROL, word, game, rest)

/* alice sends `line` (a challenge): the game her reply names. */
static inline int64_t alice_challenges(const char *line)
{
	struct outbox o;
	int64_t g;

	ck_assert_int_eq(ALICE_SAYS(line).status, SERVER_OK);
	o = new_mail();
	g = game_of(mail_to(&o, ALICE, "reply"));
	outbox_free(&o);
	return g;
}

/* alice challenges bob (with options), bob accepts: the game id. */
static inline int64_t start_game(const char *options)
{
	char body[128];
	int64_t g;

	snprintf(body, sizeof(body), "challenge bob %s\n", options);
	g = alice_challenges(body);
	BOB_GAME("accept", g, "");
	mail_drop();
	return g;
}

/* The position of game g, replayed from the store. */
static inline void position_of(int64_t g, struct core_record *rec)
{
	struct store_game *row = NULL;
	struct core_variant v;
	enum core_error err;
	char **moves = NULL;
	size_t n = 0;
	const char *error;
	const char *p;

	ck_assert_int_eq(store_game_load(st, g, &row, &error), 1);
	core_variant_default(&v);
	for (p = row->variant; *p;) {
		char word[32];
		size_t k = strcspn(p, " ");
		snprintf(word, sizeof(word), "%.*s", (int)k, p);
		if (strncmp(word, "draw=", 5) != 0)
			ck_assert_int_eq(notation_parse_variant_option(&v, word,
								       &err), 0);
		p += k;
		while (*p == ' ')
			p++;
	}
	ck_assert_int_eq(record_init(rec, &v, &err), 0);
	ck_assert_int_eq(store_game_moves(st, g, &moves, &n, &error), 0);
	for (size_t i = 0; i < n; i++)
		if (i >= rec->nplies)
			ck_assert_int_eq(record_play_text(rec, moves[i],
							  strlen(moves[i]),
							  NULL, &err), 0);
	store_strings_free(&moves);
	store_game_free(&row);
}

/* The first legal move of game g, as text. */
static inline void first_legal(int64_t g, char *text)
{
	struct core_record rec;
	struct core_move moves[1024];
	size_t n;

	position_of(g, &rec);
	n = core_legal_moves(&rec.pos, moves, 1024);
	ck_assert_uint_gt(n, 0);
	notation_format_move(rec.pos.geom, &moves[0], text);
	record_free(&rec);
}

static inline int ply_of(int64_t g)
{
	struct store_game *row = NULL;
	const char *error;
	int ply;
	ck_assert_int_eq(store_game_load(st, g, &row, &error), 1);
	ply = row->ply;
	store_game_free(&row);
	return ply;
}

static inline enum store_game_status status_of(int64_t g)
{
	struct store_game *row = NULL;
	const char *error;
	enum store_game_status s;
	ck_assert_int_eq(store_game_load(st, g, &row, &error), 1);
	s = row->status;
	store_game_free(&row);
	return s;
}

#endif
