/* test_retention.c -- [retention]'s rules (server/retention.h) on a
 * store: each rule changes the rows older than its limit and leaves the
 * younger ones alone, keeps every row and its outcome, and 0 keeps for
 * ever; a finished game's mails reduced to their text and thread (no
 * header of the mail left), an active game's kept; a deleted player's
 * mails reduced where a game refers to them, dropped elsewhere; the
 * store's own guards (a duplicate, a dropped mail, a truncated one). */
#include "../store/store_fixture.h"

#include <stdarg.h>

#include "server/retention.h"
#include "store/store_outbox.h"
#include "store/store_prune.h"

#define DAY 86400
/* "now" of the tests: day 100. */
#define NOW (100 * DAY)

static const struct retention_limits limits = {
	.sent_mail = 30 * DAY, .refused_mail = 14 * DAY, .raw_mail = 90 * DAY,
};

static int64_t alice, bob, game_done, game_live;

static const char mail_text[] =
	"Return-Path: <alice@example.org>\r\n"
	"Received: from mx.example.org by club.example; Mon, 1 Jan 2024\r\n"
	"From: Alice <alice@example.org>\r\nTo: ashes@club.example\r\n"
	"Subject: Re: [ashes #%d] your move\r\n"
	"Message-ID: <m%u@example.org>\r\n"
	"In-Reply-To: <ashes.%d.1.2.0@club.example>\r\n"
	"References: <other@example.org> <ashes.%d.1.2.0@club.example>\r\n"
	"Date: Mon, 1 Jan 2024 10:00:00 +0000\r\n"
	"MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n"
	"\r\nmove %d 1 a1-b2\r\n\r\n-- \r\nAlice, 12 Long Road\r\n";

/* An inbound mail about game, received at `at`, with outcome. */
static int64_t mail(unsigned n, int game, int64_t at, const char *outcome,
		    int64_t player)
{
	struct store_inbound in = { 0 };
	char sha[65], raw[1024];
	int64_t id = 0;

	snprintf(raw, sizeof(raw), mail_text, game, n, game, game, game);
	test_sha(sha, n);
	in.sha256 = sha;
	in.raw = raw;
	in.raw_len = strlen(raw);
	in.received = at;
	in.outcome = (char *)outcome;
	in.player_id = player;
	ck_assert_int_eq(store_inbound_record(st, &in, &id, &err), 0);
	return id;
}

/* A reply with html, its board picture and an extra picture, sent at
 * `sent` (0: still queued). */
static int64_t reply(int64_t game, int64_t inbound, int64_t sent,
		     unsigned n)
{
	struct store_outbox_msg m = { 0 };
	struct store_outbox_part part = { "drop.png", STORE_OUTBOX_PNG,
					  "PNGDATA-PNGDATA", 15 };
	char mid[64];
	int64_t id = 0;

	snprintf(mid, sizeof(mid), "ashes.%lld.%u@club.example",
		 (long long)game, n);
	m.kind = STORE_OUTBOX_KIND_YOUR_MOVE;
	m.recipient = "bob@example.org";
	m.message_id = mid;
	m.subject = "your move";
	m.body = "Your move in game 1.";
	m.html = "<p>Your move in game 1.</p><img src=\"cid:board\">";
	m.image = "<svg>the board</svg>";
	m.image_len = strlen(m.image);
	m.image_type = STORE_OUTBOX_SVG;
	m.parts = &part;
	m.nparts = 1;
	m.game_id = game;
	m.inbound_id = inbound;
	ck_assert_int_eq(store_outbox_enqueue(st, &m, sent ? sent - 5 : NOW,
					      &id, &err), 0);
	if (sent != 0)
		ck_assert_int_eq(store_outbox_mark_sent(st, id, sent, &err), 0);
	return id;
}

static void finish(int64_t game, int64_t at)
{
	struct store_game g_row, *g = NULL;

	ck_assert_int_eq(store_game_load(st, game, &g, &err), 1);
	g_row = *g;
	g_row.status = STORE_GAME_FINISHED;
	g_row.result = "1-0";
	g_row.end_reason = "resignation";
	ck_assert_int_eq(store_game_update(st, &g_row, at, &err), 0);
	store_game_free(&g);
}

static void club_setup(void)
{
	setup();
	alice = add_player("alice", 1);
	bob = add_player("bob", 2);
	game_done = add_game("size=3", alice, bob, alice, STORE_GAME_ACTIVE, 1);
	game_live = add_game("size=3", alice, bob, alice, STORE_GAME_ACTIVE, 1);
}

/* The number a query gives, its text made as printf makes it. */
__attribute__((format(printf, 1, 2)))
static long long q(const char *fmt, ...)
{
	char sql[300];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(sql, sizeof(sql), fmt, ap);
	va_end(ap);
	return test_query_int(test_db, sql);
}

/* What is kept of mail id. */
static enum store_raw_kept kept(int64_t id)
{
	enum store_raw_kept k;

	ck_assert_int_eq(store_inbound_kept(st, id, &k, &err), 1);
	return k;
}

static struct retention_report run(const struct retention_limits *lim,
				   int64_t now)
{
	struct retention_report r = { 0 };
	struct retention_cursor c = { 0 };

	ck_assert_msg(retention_run(st, lim, now, 0, &c, &r, &err) == 0, "%s",
		      err);
	return r;
}

START_TEST(test_sent_mail)
{
	int64_t in = mail(1, 1, NOW - 40 * DAY, "ok: 1 command", alice);
	int64_t old = reply(game_live, in, NOW - 31 * DAY, 1);
	int64_t young = reply(game_live, in, NOW - 29 * DAY, 2);
	int64_t queued = reply(game_live, in, 0, 3);
	struct retention_report r = run(&limits, NOW);

	ck_assert_int_eq(r.sent_rows, 1);
	ck_assert_int_gt(r.sent_bytes, 40);
	ck_assert_int_eq(q("SELECT html IS NULL AND image IS NULL AND "
			   "image_type IS NULL FROM outbox WHERE id = %lld",
			   (long long)old), 1);
	ck_assert_int_eq(q("SELECT count(*) FROM outbox_parts WHERE "
			   "outbox_id = %lld", (long long)old), 0);
	/* the text, the envelope and the Message-ID stay */
	ck_assert_int_eq(q("SELECT body = 'Your move in game 1.' AND "
			   "message_id IS NOT NULL AND sent_at IS NOT NULL "
			   "FROM outbox WHERE id = %lld", (long long)old), 1);
	for (int i = 0; i < 2; i++) {
		int64_t id = i == 0 ? young : queued;

		ck_assert_int_eq(q("SELECT html IS NOT NULL AND image IS NOT "
				   "NULL FROM outbox WHERE id = %lld", (long long)id), 1);
		ck_assert_int_eq(q("SELECT count(*) FROM outbox_parts WHERE "
				   "outbox_id = %lld", (long long)id), 1);
	}
	ck_assert_int_eq(count("outbox"), 3);
	/* again: nothing left to do */
	r = run(&limits, NOW);
	ck_assert_int_eq(r.sent_rows, 0);
}
END_TEST

START_TEST(test_refused_mail)
{
	int64_t refused = mail(1, 1, NOW - 15 * DAY, "refused: unsigned", 0);
	int64_t ignored = mail(2, 1, NOW - 15 * DAY, "ignored: bounce (names "
			       "no mail of ours)", 0);
	int64_t young = mail(3, 1, NOW - 13 * DAY, "refused: bad_signature", 0);
	int64_t handled = mail(4, 1, NOW - 15 * DAY, "ok: 1 command", alice);
	struct store_inbound dup = { 0 };
	struct retention_report r;
	char sha[65];
	int64_t dup_id = 0;

	test_sha(sha, 4);
	dup.sha256 = sha;
	dup.received = NOW - 15 * DAY;
	dup.outcome = "duplicate of inbound 4";
	dup.duplicate_of = handled;
	ck_assert_int_eq(store_inbound_record(st, &dup, &dup_id, &err), 0);
	r = run(&limits, NOW);
	ck_assert_int_eq(r.refused_rows, 3);
	ck_assert_int_gt(r.refused_bytes, 600);
	ck_assert_int_eq(kept(refused), STORE_RAW_DROPPED);
	ck_assert_int_eq(kept(ignored), STORE_RAW_DROPPED);
	ck_assert_int_eq(kept(dup_id), STORE_RAW_DROPPED);
	ck_assert_int_eq(kept(young), STORE_RAW_AS_RECEIVED);
	ck_assert_int_eq(kept(handled), STORE_RAW_AS_RECEIVED);
	/* the rows, their outcomes and digests stay */
	ck_assert_int_eq(count("inbound"), 5);
	ck_assert_int_eq(q("SELECT length(raw) = 0 AND outcome = 'refused: "
			   "unsigned' AND length(sha256) = 64 AND reduced_at "
			   "= 8640000 FROM inbound WHERE id = %lld", (long long)refused), 1);
	ck_assert_int_gt(q("SELECT length(raw) FROM inbound WHERE id = %lld",
			   (long long)young), 400);
	/* a duplicate still finds the first reading */
	ck_assert_int_eq(store_inbound_seen(st, sha, &dup_id, &err), 1);
	ck_assert_int_eq(dup_id, handled);
}
END_TEST

START_TEST(test_raw_mail)
{
	int64_t done_old = mail(1, (int)game_done, NOW - 200 * DAY,
				"ok: 1 command", alice);
	int64_t live = mail(2, (int)game_live, NOW - 200 * DAY,
			    "ok: 1 command", alice);
	struct store_inbound *in = NULL;
	struct retention_report r;

	ck_assert_int_eq(store_move_append(st, game_done, 1, "a1-b2", alice,
					   NOW - 200 * DAY, done_old, &err), 0);
	ck_assert_int_eq(store_move_append(st, game_live, 1, "a1-b2", alice,
					   NOW - 200 * DAY, live, &err), 0);
	finish(game_done, NOW - 89 * DAY);
	/* ended 89 days ago: not yet */
	r = run(&limits, NOW);
	ck_assert_int_eq(r.reduced_rows, 0);
	ck_assert_int_eq(kept(done_old), STORE_RAW_AS_RECEIVED);
	/* two days on: reduced; the active game's mail kept whole */
	r = run(&limits, NOW + 2 * DAY);
	ck_assert_int_eq(r.reduced_rows, 1);
	ck_assert_int_gt(r.reduced_bytes, 200);
	ck_assert_int_eq(kept(done_old), STORE_RAW_REDUCED);
	ck_assert_int_eq(kept(live), STORE_RAW_AS_RECEIVED);
	ck_assert_int_eq(store_inbound_load(st, done_old, &in, &err), 1);
	/* the thread's own lines, the text as read; no header of the mail,
	 * nothing but the text (which the player wrote, with its
	 * signature block) */
	ck_assert_msg(strncmp(in->raw, "Subject: [ashes #1]\r\n"
			      "In-Reply-To: <ashes.1.1.2.0@club.example>\r\n"
			      "References: <ashes.1.1.2.0@club.example>\r\n"
			      "MIME-Version: 1.0\r\n", 125) == 0, "%s", in->raw);
	ck_assert_ptr_nonnull(strstr(in->raw, "\r\n\r\nmove 1 1 a1-b2\r\n"));
	ck_assert_ptr_null(strstr(in->raw, "alice"));
	ck_assert_ptr_null(strstr(in->raw, "Received"));
	ck_assert_str_eq(in->outcome, "ok: 1 command");
	store_inbound_free(&in);
	/* 0 keeps for ever */
	finish(game_live, NOW - 200 * DAY);
	r = run(&(struct retention_limits){ 0 }, NOW + 2 * DAY);
	ck_assert_int_eq(r.reduced_rows + r.sent_rows + r.refused_rows, 0);
	ck_assert_int_eq(kept(live), STORE_RAW_AS_RECEIVED);
}
END_TEST

START_TEST(test_player_deleted)
{
	int64_t in_game = mail(1, (int)game_live, NOW - DAY, "ok: 1 command",
			       alice);
	int64_t help = mail(2, 0, NOW - DAY, "ok: 1 command", alice);
	/* refused, so bound to nobody: found by alice's address */
	int64_t refused = mail(3, 0, NOW - DAY, "refused: unsigned", 0);
	int64_t bobs = mail(4, (int)game_live, NOW - DAY, "ok: 1 command", bob);
	struct retention_report r = { 0 };

	ck_assert_int_eq(store_inbound_set_outcome(st, refused,
						   "refused: unsigned", &err),
			 0);
	ck_assert_int_eq(exec_rc("UPDATE inbound SET sender_address = "
				 "'ALICE@example.org' WHERE id = 3"), 0);
	ck_assert_int_eq(store_move_append(st, game_live, 1, "a1-b2", alice,
					   NOW - DAY, in_game, &err), 0);
	ck_assert_int_eq(store_begin(st, &err), 0);
	ck_assert_int_eq(retention_reduce_player(st, alice, NOW, &r, &err), 0);
	ck_assert_int_eq(store_commit(st, &err), 0);
	ck_assert_int_eq(r.reduced_rows, 1);
	ck_assert_int_eq(r.dropped_rows, 2);
	ck_assert_int_eq(kept(in_game), STORE_RAW_REDUCED);
	ck_assert_int_eq(kept(help), STORE_RAW_DROPPED);
	ck_assert_int_eq(kept(refused), STORE_RAW_DROPPED);
	ck_assert_int_eq(kept(bobs), STORE_RAW_AS_RECEIVED);
	ck_assert_int_eq(q("SELECT instr(raw, 'alice') FROM inbound WHERE id "
			   "= %lld", (long long)in_game), 0);
	/* again: nothing left of hers */
	memset(&r, 0, sizeof(r));
	ck_assert_int_eq(retention_reduce_player(st, alice, NOW, &r, &err), 0);
	ck_assert_int_eq(r.reduced_rows + r.dropped_rows, 0);
}
END_TEST

START_TEST(test_store_guards)
{
	int64_t a = mail(1, 1, NOW, "ok", alice);
	struct store_inbound dup = { 0 }, big = { 0 };
	char sha[65];
	int64_t dup_id = 0, big_id = 0;

	test_sha(sha, 1);
	dup.sha256 = sha;
	dup.received = NOW;
	dup.duplicate_of = a;
	ck_assert_int_eq(store_inbound_record(st, &dup, &dup_id, &err), 0);
	test_sha(sha, 9);
	big.sha256 = sha;
	big.raw = "From: a\r\n";
	big.raw_len = 9;
	big.raw_truncated = true;
	big.received = NOW;
	ck_assert_int_eq(store_inbound_record(st, &big, &big_id, &err), 0);
	/* a duplicate and a truncated mail have no form to reduce to */
	ck_assert_int_eq(store_inbound_reduce(st, dup_id, "x", 1, NOW, &err), 1);
	ck_assert_int_eq(store_inbound_reduce(st, big_id, "x", 1, NOW, &err), 1);
	ck_assert_int_eq(store_inbound_reduce(st, 999, "x", 1, NOW, &err), 1);
	ck_assert_int_eq(store_inbound_reduce(st, a, "xy", 2, NOW, &err), 0);
	ck_assert_int_eq(kept(a), STORE_RAW_REDUCED);
	/* dropped is for good: no reduction brings bytes back */
	ck_assert_int_eq(store_inbound_drop_raw(st, a, NOW, &err), 0);
	ck_assert_int_eq(store_inbound_drop_raw(st, a, NOW, &err), 1);
	ck_assert_int_eq(store_inbound_reduce(st, a, "xy", 2, NOW, &err), 1);
	ck_assert_int_eq(kept(a), STORE_RAW_DROPPED);
	/* the schema: reduced and reduced_at go together */
	ck_schema_refuses("UPDATE inbound SET reduced = 'signed', "
			  "reduced_at = NULL WHERE id = 2");
	ck_schema_refuses("UPDATE inbound SET reduced = 'gone', "
			  "reduced_at = 1 WHERE id = 2");
}
END_TEST

static Suite *retention_suite(void)
{
	Suite *s = suite_create("retention");
	TCase *tc = tcase_create("rules");

	tcase_add_checked_fixture(tc, club_setup, teardown);
	tcase_add_test(tc, test_sent_mail);
	tcase_add_test(tc, test_refused_mail);
	tcase_add_test(tc, test_raw_mail);
	tcase_add_test(tc, test_player_deleted);
	tcase_add_test(tc, test_store_guards);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return test_run(retention_suite());
}
