/* test_settings.c -- the players' settings and the observers' daily
 * digest, against a real SQLite file: what the case files (0540-0547)
 * cannot show.  A digest run that fails at any store step leaves the
 * notes and the outbox as they were, and the next run sends exactly one
 * digest; a run inside the same day sends nothing twice; the settings a
 * mail sets are the store's; each reader's mail gets the move-list flag
 * they chose, whatever the installed legal-moves.txt makes of it (an
 * override shows the flags). */
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

#include "server_test.h"
#include "../check_run.h"

#define DAY 86400

/* How many observers have notes waiting (noted before `before`). */
static size_t notes_due(int64_t before)
{
	int64_t *ids = NULL;
	size_t n = 0;
	const char *error;

	ck_assert_int_eq(store_digest_due(st, before, &ids, &n, &error), 0);
	free(ids);
	return n;
}

/* carol observes a game of alice and bob with `digest on`; alice moves. */
static int64_t observed_game(void)
{
	struct outbox o;
	char body[64];
	int64_t g;

	register_three();
	g = start_game("size=3");
	snprintf(body, sizeof(body), "observe %" PRId64 "\nset digest on\n", g);
	ck_assert_int_eq(CAROL_SAYS(body).status, SERVER_OK);
	ALICE_GAME("move", g, "1 b2-a1");
	o = new_mail();
	ck_assert_ptr_null(mail_to(&o, CAROL, "observer"));
	ck_assert_uint_eq(count_to(&o, CAROL), 1); /* the reply to set */
	outbox_free(&o);
	return g;
}

START_TEST(test_digest_faults)
{
	const char *error = NULL;
	struct outbox o;
	int failures = 0, ret = -1;

	observed_game();
	now += DAY;
	ck_assert_uint_eq(notes_due(now), 1);
	/* Fail the n-th store step for every n until a run succeeds: each
	 * failure leaves the notes and queues nothing. */
	for (long n = 0; n < 400; n++) {
		store_debug_fail_after(st, n);
		ret = server_send_digests(srv, now, &error);
		store_debug_fail_after(st, -1);
		if (ret >= 0)
			break;
		ck_assert_ptr_nonnull(error);
		failures++;
		ck_assert_uint_eq(notes_due(now), 1);
		mail_count_is(0);
	}
	ck_assert_int_gt(failures, 3);
	ck_assert_int_eq(ret, 1);
	o = new_mail();
	ck_assert_uint_eq(o.n, 1);
	ck_assert_str_eq(o.m[0].recipient, CAROL);
	ck_assert_int_eq(o.m[0].kind, STORE_OUTBOX_KIND_DIGEST);
	ck_assert(!o.m[0].auto_reply);
	ck_assert_int_eq(o.m[0].game_id, 0);
	ck_assert_ptr_null(o.m[0].image);
	ck_assert_has(o.m[0].body, "Ply 1: b2-a1");
	outbox_free(&o);
	ck_assert_uint_eq(notes_due(now + DAY), 0);

	/* again, the same day and the next: nothing left to send */
	ck_assert_int_eq(server_send_digests(srv, now + 60, &error), 0);
	ck_assert_int_eq(server_send_digests(srv, now + DAY, &error), 0);
	mail_count_is(0);
}
END_TEST

/* The day is UTC: a note made at 23:59 goes out at 00:00, not before. */
START_TEST(test_digest_day_boundary)
{
	const char *error = NULL;
	struct outbox o;
	int64_t midnight;

	now = 1767484740 - 60 * 12; /* 2026-01-03 23:47 UTC; mails add 60s */
	observed_game();
	midnight = now - now % DAY + DAY;
	ck_assert_int_eq(server_send_digests(srv, midnight - 1, &error), 0);
	ck_assert_int_eq(server_send_digests(srv, midnight, &error), 1);
	o = new_mail();
	ck_assert_uint_eq(o.n, 1);
	ck_assert_has(o.m[0].subject, "2026-01-04");
	outbox_free(&o);
}
END_TEST

/* `set` by mail is what the store holds. */
START_TEST(test_set_stores)
{
	struct store_player *p = NULL;
	struct store_settings s;
	const char *error;

	register_three();
	ck_assert_int_eq(ALICE_SAYS("set confirm off\nset pictures svg\n"
				    "set moves none\n").status, SERVER_OK);
	ck_assert_int_eq(store_player_by_name(st, "alice", &p, &error), 1);
	ck_assert_int_eq(store_settings_get(st, p->id, &s, &error), 0);
	ck_assert(!s.confirm);
	ck_assert_int_eq(s.picture, STORE_PICTURE_SVG);
	ck_assert_int_eq(s.moves, STORE_MOVES_NONE);
	ck_assert(!s.digest);
	/* a refused value changes nothing, the lines before it stay */
	ck_assert_int_eq(ALICE_SAYS("set digest on\nset moves lots\n").status,
			 SERVER_REFUSED);
	ck_assert_int_eq(store_settings_get(st, p->id, &s, &error), 0);
	ck_assert(s.digest);
	ck_assert_int_eq(s.moves, STORE_MOVES_NONE);
	store_player_free(&p);
}
END_TEST

/* The club's language must be one the templates have: the service
 * refuses to start with another; English and a translation's folder
 * start. */
START_TEST(test_club_language)
{
	struct server_config cfg;
	struct server *other = NULL;
	const char *error = NULL;

	test_config(&cfg, ts);
	cfg.language = "xq";
	ck_assert_int_eq(server_new(st, &cfg, &other, &error), -1);
	ck_assert_ptr_nonnull(strstr(error, "[templates] language"));
	ck_assert_ptr_null(other);
	cfg.language = "en";
	ck_assert_int_eq(server_new(st, &cfg, &other, &error), 0);
	server_free(&other);
	cfg.language = NULL;
	ck_assert_int_eq(server_new(st, &cfg, &other, &error), 0);
	server_free(&other);
	/* every language's templates parse, with their English fallbacks */
	ck_assert_int_eq(server_check_templates(srv, &error), 0);
}
END_TEST

/* An override folder whose mail/legal-moves.txt prints the flag set. */
static struct server *flag_server(struct template_set **ts_r)
{
	char dir[PATH_MAX + 32], tdir[2 * PATH_MAX + 64];
	struct server_config cfg;
	const char *error = NULL;
	struct server *s2 = NULL;
	FILE *f;

	snprintf(dir, sizeof(dir), "%s/over/mail", tmpdir);
	snprintf(tdir, sizeof(tdir), "mkdir -p '%s'", dir);
	ck_assert_int_eq(system(tdir), 0);
	snprintf(tdir, sizeof(tdir), "%s/legal-moves.txt", dir);
	f = fopen(tdir, "w");
	ck_assert_ptr_nonnull(f);
	fputs("list:{{#moves_full}}full{{/moves_full}}"
	      "{{#moves_short}}short{{/moves_short}}"
	      "{{#moves_none}}none{{/moves_none}}.\n", f);
	fclose(f);
	snprintf(dir, sizeof(dir), "%s/over", tmpdir);
	*ts_r = test_templates(dir);
	test_config(&cfg, *ts_r);
	ck_assert_int_eq(server_new(st, &cfg, &s2, &error), 0);
	return s2;
}

START_TEST(test_moves_flags)
{
	struct template_set *ts2 = NULL;
	struct server *plain = srv;
	const struct store_outbox_msg *m;
	struct outbox o;
	int64_t g;

	register_three();
	g = start_game("size=3");
	ck_assert_int_eq(BOB_SAYS("set moves none\n").status, SERVER_OK);
	ck_assert_int_eq(ALICE_SAYS("set moves full\n").status, SERVER_OK);
	mail_drop();
	srv = flag_server(&ts2);
	ALICE_GAME("move", g, "1 b2-a1");
	o = new_mail();
	m = sent_to(&o, BOB, "your-move");
	ck_assert_has(m->body, "list:none.");
	outbox_free(&o);
	BOB_GAME("move", g, "2 b2-a2");
	o = new_mail();
	m = sent_to(&o, ALICE, "your-move");
	ck_assert_has(m->body, "list:full.");
	outbox_free(&o);
	/* back to the default */
	ck_assert_int_eq(BOB_SAYS("set moves short\n").status, SERVER_OK);
	ALICE_GAME("move", g, "3 a1-b1");
	o = new_mail();
	m = sent_to(&o, BOB, "your-move");
	ck_assert_has(m->body, "list:short.");
	outbox_free(&o);
	server_free(&srv);
	template_set_free(&ts2);
	srv = plain;
}
END_TEST

TEST_MAIN("settings", "settings", setup, teardown, 120, test_digest_faults,
	  test_digest_day_boundary, test_set_stores, test_moves_flags,
	  test_club_language)
