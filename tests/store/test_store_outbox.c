/* test_store_outbox.c -- the outbox queue and its envelope: queueing,
 * due and next-due times, the marks and the listings; every typed field
 * written (version 2) and read back, the picture's type (sql/007) too;
 * what enqueue refuses and what the schema refuses; and version-1 rows (a header block, as ashesd wrote
 * them before sql/003) upgraded in place and read into the same typed
 * fields a version-2 row of the same mail has. */
#include "store_fixture.h"

#include "store/store_private.h"

/* ---- the queue ------------------------------------------------------- */

static int64_t enqueue(const char *to, const char *msgid, int64_t now,
		       int64_t at)
{
	struct store_outbox_msg m = { 0 };
	int64_t id = 0;

	m.recipient = (char *)to;
	m.kind = STORE_OUTBOX_KIND_REPLY;
	m.message_id = (char *)msgid;
	m.subject = "[ashes #1] x";
	m.body = "body\r\n";
	m.next_attempt_at = at;
	ck_assert_int_eq(store_outbox_enqueue(st, &m, now, &id, &err), 0);
	return id;
}

START_TEST(test_outbox)
{
	struct store_outbox_msg *msgs = NULL, *one = NULL;
	size_t n = 0;
	int64_t m1, m2, m3, at = 0;

	ck_assert_int_eq(store_outbox_next_due(st, &at, &err), 0);
	m1 = enqueue("a@example.org", "r1@ashes", 100, 0);
	m2 = enqueue("b@example.org", "r2@ashes", 101, 0);
	m3 = enqueue("c@example.org", "r3@ashes", 102, 500);

	ck_assert_int_eq(store_outbox_next_due(st, &at, &err), 1);
	ck_assert_int_eq(at, 100);
	ck_assert_int_eq(store_outbox_due(st, 99, 0, &msgs, &n, &err), 0);
	ck_assert_uint_eq(n, 0);
	ck_assert_int_eq(store_outbox_due(st, 200, 0, &msgs, &n, &err), 0);
	ck_assert_uint_eq(n, 2);
	ck_assert_int_eq(msgs[0].id, m1);
	ck_assert_int_eq(msgs[0].version, 2);
	ck_assert_str_eq(msgs[0].recipient, "a@example.org");
	ck_assert_str_eq(msgs[0].message_id, "r1@ashes");
	ck_assert_str_eq(msgs[0].subject, "[ashes #1] x");
	ck_assert_str_eq(msgs[0].body, "body\r\n");
	ck_assert_int_eq(msgs[0].created, 100);
	ck_assert_int_eq(msgs[0].attempts, 0);
	ck_assert_int_eq(msgs[0].sent_at, 0);
	ck_assert(!msgs[0].failed);
	store_outbox_msgs_free(&msgs, n);
	ck_assert_ptr_null(msgs);
	ck_assert_int_eq(store_outbox_due(st, 200, 1, &msgs, &n, &err), 0);
	ck_assert_uint_eq(n, 1);
	store_outbox_msgs_free(&msgs, n);

	/* m1 sent; m2 temporary failure, retried later; m3 permanent */
	ck_assert_int_eq(store_outbox_mark_sent(st, m1, 201, &err), 0);
	ck_assert_int_eq(store_outbox_mark_retry(st, m2, 400, "421 busy",
						 &err), 0);
	ck_assert_int_eq(store_outbox_due(st, 300, 0, &msgs, &n, &err), 0);
	ck_assert_uint_eq(n, 0);
	ck_assert_int_eq(store_outbox_next_due(st, &at, &err), 1);
	ck_assert_int_eq(at, 400);
	ck_assert_int_eq(store_outbox_due(st, 600, 0, &msgs, &n, &err), 0);
	ck_assert_uint_eq(n, 2);
	ck_assert_int_eq(msgs[0].id, m2);
	ck_assert_int_eq(msgs[0].attempts, 1);
	ck_assert_str_eq(msgs[0].last_error, "421 busy");
	ck_assert_int_eq(msgs[1].id, m3);
	store_outbox_msgs_free(&msgs, n);
	ck_assert_int_eq(store_outbox_mark_failed(st, m3, 601, "550 no user",
						  &err), 0);

	/* a finished message cannot change state again */
	ck_assert_int_eq(store_outbox_mark_sent(st, m1, 700, &err), -1);
	ck_assert_int_eq(store_error_kind(st), STORE_ERROR_USAGE);
	ck_assert_int_eq(store_outbox_mark_retry(st, m3, 700, "x", &err), -1);
	ck_assert_int_eq(store_outbox_mark_failed(st, 999, 700, "x", &err),
			 -1);

	ck_assert_int_eq(store_outbox_list(st, STORE_OUTBOX_ALL, 0, 0, &msgs,
					   &n, &err), 0);
	ck_assert_uint_eq(n, 3);
	ck_assert_int_eq(msgs[0].sent_at, 201);
	ck_assert_int_eq(msgs[0].attempts, 1);
	ck_assert(msgs[2].failed);
	ck_assert_str_eq(msgs[2].last_error, "550 no user");
	store_outbox_msgs_free(&msgs, n);
	ck_assert_int_eq(store_outbox_list(st, STORE_OUTBOX_PENDING, 0, 0,
					   &msgs, &n, &err), 0);
	ck_assert_uint_eq(n, 1);
	ck_assert_int_eq(msgs[0].id, m2);
	store_outbox_msgs_free(&msgs, n);
	ck_assert_int_eq(store_outbox_list(st, STORE_OUTBOX_SENT, 0, 0, &msgs,
					   &n, &err), 0);
	ck_assert_uint_eq(n, 1);
	ck_assert_int_eq(msgs[0].id, m1);
	store_outbox_msgs_free(&msgs, n);
	ck_assert_int_eq(store_outbox_list(st, STORE_OUTBOX_FAILED, 0, 0,
					   &msgs, &n, &err), 0);
	ck_assert_uint_eq(n, 1);
	ck_assert_int_eq(msgs[0].id, m3);
	store_outbox_msgs_free(&msgs, n);
	ck_assert_int_eq(store_outbox_list(st, STORE_OUTBOX_ALL, m1, 1, &msgs,
					   &n, &err), 0);
	ck_assert_uint_eq(n, 1);
	ck_assert_int_eq(msgs[0].id, m2);
	store_outbox_msgs_free(&msgs, n);
	ck_assert_int_eq(store_outbox_list(st, (enum store_outbox_filter)9, 0,
					   0, &msgs, &n, &err), -1);

	ck_assert_int_eq(store_outbox_by_message_id(st, "r2@ashes", &one,
						    &err), 1);
	ck_assert_int_eq(one->id, m2);
	store_outbox_msgs_free(&one, 1);
	ck_assert_int_eq(store_outbox_by_message_id(st, "nope@ashes", &one,
						    &err), 0);
	ck_assert_ptr_null(one);
}
END_TEST

/* ---- version 2: typed columns --------------------------------------- */

/* A game for rows to name (outbox.game_id is a foreign key). */
static int64_t a_game(struct store *s)
{
	struct store_game g = { 0 };
	int64_t a = 0, b = 0, id = 0;

	ck_assert_int_eq(store_player_add(s, "Alice", "alice@example.org",
					  NULL, 1, &a, &err), 0);
	ck_assert_int_eq(store_player_add(s, "Bob", "bob@example.org", NULL,
					  1, &b, &err), 0);
	g.variant = "size=5";
	g.challenger_id = a;
	g.white_id = a;
	g.black_id = b;
	g.status = STORE_GAME_ACTIVE;
	ck_assert_int_eq(store_game_create(s, &g, 2, &id, &err), 0);
	return id;
}

/* A picture with a NUL and high bytes: a blob, not a string. */
static const char image[] = "<svg>\0\xff\xfe</svg>";

/* An answer to a mail that held no command: text only, about no game. */
static struct store_outbox_msg answer(void)
{
	struct store_outbox_msg m = {
		.kind = STORE_OUTBOX_KIND_REPLY,
		.recipient = "eve@example.org",
		.message_id = "ashes.0.0.8.0.00aa@club.example",
		.subject = "Re: Hello",
		.auto_reply = true,
		.body = "held no command\n",
	};

	return m;
}

/* A your-move mail in a game's thread, with html and picture. */
static struct store_outbox_msg your_move(int64_t game)
{
	struct store_outbox_msg m = { 0 };

	m.kind = STORE_OUTBOX_KIND_YOUR_MOVE;
	m.recipient = "bob@example.org";
	m.message_id = "ashes.1.3.7.0.00ff@club.example";
	m.subject = "[ashes #1] alice vs bob \xe2\x80\x94 your move";
	m.in_reply_to = "ashes.1.0.5.0@club.example";
	m.references = "<ashes.1.0.5.0@club.example>";
	m.auto_reply = false;
	m.game_id = game;
	m.ply = 3;
	m.body = "bob, it is your move.\n";
	m.html = "<!DOCTYPE html><p><img src=\"cid:board."
		 "ashes.1.3.7.0.00ff@club.example\"></p>";
	m.image = (char *)image;
	m.image_len = sizeof(image) - 1;
	return m;
}

/* The lanes: archives apart from everything else, each lane's due rows
 * and next due time its own. */
START_TEST(test_outbox_lanes)
{
	struct store_outbox_msg m = { 0 }, *msgs = NULL;
	size_t n = 0;
	int64_t reply, archive, at = 0;

	reply = enqueue("a@example.org", "r1@ashes", 100, 0);
	m.recipient = "b@example.org";
	m.kind = STORE_OUTBOX_KIND_ARCHIVE;
	m.message_id = "a1@ashes";
	m.subject = "[ashes #1] the archive";
	m.body = "attached\r\n";
	m.next_attempt_at = 90;
	ck_assert_int_eq(store_outbox_enqueue(st, &m, 90, &archive, &err), 0);

	ck_assert_int_eq(store_outbox_due_lane(st, 200, 0,
					       STORE_OUTBOX_LANE_SMALL, &msgs,
					       &n, &err), 0);
	ck_assert_uint_eq(n, 1);
	ck_assert_int_eq(msgs[0].id, reply);
	store_outbox_msgs_free(&msgs, n);
	ck_assert_int_eq(store_outbox_due_lane(st, 200, 0,
					       STORE_OUTBOX_LANE_LARGE, &msgs,
					       &n, &err), 0);
	ck_assert_uint_eq(n, 1);
	ck_assert_int_eq(msgs[0].id, archive);
	store_outbox_msgs_free(&msgs, n);
	ck_assert_int_eq(store_outbox_due(st, 200, 0, &msgs, &n, &err), 0);
	ck_assert_uint_eq(n, 2);
	store_outbox_msgs_free(&msgs, n);

	ck_assert_int_eq(store_outbox_next_due_lane(st, STORE_OUTBOX_LANE_SMALL,
						    &at, &err), 1);
	ck_assert_int_eq(at, 100);
	ck_assert_int_eq(store_outbox_next_due_lane(st, STORE_OUTBOX_LANE_LARGE,
						    &at, &err), 1);
	ck_assert_int_eq(at, 90);
	ck_assert_int_eq(store_outbox_mark_sent(st, archive, 201, &err), 0);
	ck_assert_int_eq(store_outbox_next_due_lane(st, STORE_OUTBOX_LANE_LARGE,
						    &at, &err), 0);
	ck_assert_int_eq(store_outbox_next_due(st, &at, &err), 1);
	ck_assert_int_eq(at, 100);
}
END_TEST

START_TEST(test_envelope_v2)
{
	struct store_outbox_msg m = your_move(a_game(st)), *r = NULL;
	int64_t id = 0;

	m.version = 7;    /* ignored: the store writes its own */
	m.attempts = 5;   /* ignored too */
	ck_assert_int_eq(store_outbox_enqueue(st, &m, 10, &id, &err), 0);
	ck_assert_int_eq(store_outbox_by_message_id(st, m.message_id, &r,
						    &err), 1);
	ck_assert_int_eq(r->id, id);
	ck_assert_int_eq(r->version, 2);
	ck_assert_int_eq(r->kind, STORE_OUTBOX_KIND_YOUR_MOVE);
	ck_assert_str_eq(r->recipient, m.recipient);
	ck_assert_str_eq(r->message_id, m.message_id);
	ck_assert_str_eq(r->subject, m.subject);
	ck_assert_str_eq(r->in_reply_to, m.in_reply_to);
	ck_assert_str_eq(r->references, m.references);
	ck_assert(!r->auto_reply);
	ck_assert_int_eq(r->game_id, m.game_id);
	ck_assert_int_eq(r->ply, 3);
	ck_assert_int_eq(r->inbound_id, 0);
	ck_assert_str_eq(r->body, m.body);
	ck_assert_str_eq(r->html, m.html);
	ck_assert_uint_eq(r->image_len, sizeof(image) - 1);
	ck_assert_int_eq(memcmp(r->image, image, sizeof(image) - 1), 0);
	/* queued without a type, as before sql/007: SVG */
	ck_assert_str_eq(r->image_type, STORE_OUTBOX_SVG);
	ck_assert_int_eq(r->created, 10);
	ck_assert_int_eq(r->next_attempt_at, 10);
	ck_assert_int_eq(r->attempts, 0);
	store_outbox_msgs_free(&r, 1);
	ck_assert_int_eq(test_query_int(test_db, "SELECT count(*) FROM outbox "
					"WHERE headers IS NULL AND version = 2 "
					"AND typeof(image) = 'blob'"), 1);

	/* an answer to a mail, text only, about no game */
	m = answer();
	ck_assert_int_eq(store_outbox_enqueue(st, &m, 11, NULL, &err), 0);
	ck_assert_int_eq(store_outbox_by_message_id(st, m.message_id, &r,
						    &err), 1);
	ck_assert(r->auto_reply);
	ck_assert_ptr_null(r->in_reply_to);
	ck_assert_ptr_null(r->references);
	ck_assert_ptr_null(r->html);
	ck_assert_ptr_null(r->image);
	ck_assert_uint_eq(r->image_len, 0);
	ck_assert_ptr_null(r->image_type);
	ck_assert_int_eq(r->game_id, 0);
	store_outbox_msgs_free(&r, 1);
}
END_TEST

/* The picture's type (sql/007): PNG and SVG as queued. */
START_TEST(test_envelope_image_type)
{
	static const char *const types[] = { STORE_OUTBOX_PNG, STORE_OUTBOX_SVG };
	struct store_outbox_msg m = your_move(a_game(st)), *r = NULL;
	char id[64];

	for (size_t i = 0; i < 2; i++) {
		snprintf(id, sizeof(id), "ashes.1.3.7.%zu.00ff@club.example", i);
		m.message_id = id;
		m.image_type = (char *)types[i];
		ck_assert_int_eq(store_outbox_enqueue(st, &m, 10, NULL, &err), 0);
		ck_assert_int_eq(store_outbox_by_message_id(st, id, &r, &err), 1);
		ck_assert_str_eq(r->image_type, types[i]);
		ck_assert_uint_eq(r->image_len, sizeof(image) - 1);
		ck_assert_int_eq(memcmp(r->image, image, sizeof(image) - 1), 0);
		store_outbox_msgs_free(&r, 1);
	}
	ck_assert_int_eq(test_query_int(test_db, "SELECT count(*) FROM outbox "
					"WHERE image_type = 'image/png'"), 1);
}
END_TEST

/* What enqueue refuses, and what the schema refuses if SQL from
 * elsewhere tried. */
START_TEST(test_envelope_refused)
{
	struct store_outbox_msg m = your_move(a_game(st));
	static const char *const bad_sql[] = {
		/* a version-2 row with a header block */
		"INSERT INTO outbox (version, kind, recipient, message_id, "
		"subject, auto_reply, headers, body, created, next_attempt_at) "
		"VALUES (2, 'reply', 'a@b', 'x@y', 's', 1, 'To: a@b\n', 'b', 1, 1)",
		/* a version-2 row without a subject */
		"INSERT INTO outbox (version, kind, recipient, message_id, "
		"auto_reply, body, created, next_attempt_at) "
		"VALUES (2, 'reply', 'a@b', 'x@y', 1, 'b', 1, 1)",
		/* a version-1 row without its header block */
		"INSERT INTO outbox (recipient, body, created, next_attempt_at) "
		"VALUES ('a@b', 'b', 1, 1)",
		/* a version nobody wrote */
		"INSERT INTO outbox (version, kind, recipient, message_id, "
		"subject, auto_reply, body, created, next_attempt_at) "
		"VALUES (3, 'reply', 'a@b', 'x@y', 's', 1, 'b', 1, 1)",
		/* a picture without the html showing it */
		"INSERT INTO outbox (version, kind, recipient, message_id, "
		"subject, auto_reply, body, image, created, next_attempt_at) "
		"VALUES (2, 'reply', 'a@b', 'x@y', 's', 1, 'b', x'00', 1, 1)",
		/* a picture's type is one of two (sql/007) */
		"INSERT INTO outbox (version, kind, recipient, message_id, "
		"subject, auto_reply, body, html, image, image_type, created, "
		"next_attempt_at) VALUES (2, 'reply', 'a@b', 'x@y', 's', 1, 'b', "
		"'h', x'00', 'image/gif', 1, 1)",
		/* a picture has a type */
		"INSERT INTO outbox (version, kind, recipient, message_id, "
		"subject, auto_reply, body, html, image, created, "
		"next_attempt_at) VALUES (2, 'reply', 'a@b', 'x@y', 's', 1, 'b', "
		"'h', x'00', 1, 1)",
		/* and a type a picture */
		"INSERT INTO outbox (version, kind, recipient, message_id, "
		"subject, auto_reply, body, html, image_type, created, "
		"next_attempt_at) VALUES (2, 'reply', 'a@b', 'x@y', 's', 1, 'b', "
		"'h', 'image/png', 1, 1)",
		/* auto_reply is 0 or 1 */
		"INSERT INTO outbox (version, kind, recipient, message_id, "
		"subject, auto_reply, body, created, next_attempt_at) "
		"VALUES (2, 'reply', 'a@b', 'x@y', 's', 2, 'b', 1, 1)",
	};
	const char **field[] = { (const char **)&m.recipient,
				 (const char **)&m.message_id,
				 (const char **)&m.subject,
				 (const char **)&m.body };
	size_t i;

	for (i = 0; i < sizeof(field) / sizeof(field[0]); i++) {
		const char *keep = *field[i];

		*field[i] = NULL;
		ck_assert_int_eq(store_outbox_enqueue(st, &m, 1, NULL, &err), -1);
		ck_assert_int_eq(store_error_kind(st), STORE_ERROR_USAGE);
		*field[i] = keep;
	}
	/* a kind the store has no word for */
	m.kind = STORE_OUTBOX_KIND_NONE;
	ck_assert_int_eq(store_outbox_enqueue(st, &m, 1, NULL, &err), -1);
	ck_assert_int_eq(store_error_kind(st), STORE_ERROR_USAGE);
	m.kind = STORE_OUTBOX_KIND_OTHER;
	ck_assert_int_eq(store_outbox_enqueue(st, &m, 1, NULL, &err), -1);
	ck_assert_int_eq(store_error_kind(st), STORE_ERROR_USAGE);
	m.kind = STORE_OUTBOX_KIND_TOURNAMENT + 1;
	ck_assert_int_eq(store_outbox_enqueue(st, &m, 1, NULL, &err), -1);
	ck_assert_int_eq(store_error_kind(st), STORE_ERROR_USAGE);
	m.kind = STORE_OUTBOX_KIND_REPLY;
	m.message_id = "<x@y>";
	ck_assert_int_eq(store_outbox_enqueue(st, &m, 1, NULL, &err), -1);
	ck_assert_msg(strstr(err, "without <>") != NULL, "%s", err);
	m.message_id = "x@y";
	m.in_reply_to = "<a@b>";
	ck_assert_int_eq(store_outbox_enqueue(st, &m, 1, NULL, &err), -1);
	m.in_reply_to = NULL;
	m.html = NULL;
	ck_assert_int_eq(store_outbox_enqueue(st, &m, 1, NULL, &err), -1);
	ck_assert_int_eq(store_error_kind(st), STORE_ERROR_USAGE);
	m.html = "<p>x</p>";
	/* a picture is PNG or SVG; a type needs a picture */
	m.image_type = "image/gif";
	ck_assert_int_eq(store_outbox_enqueue(st, &m, 1, NULL, &err), -1);
	ck_assert_int_eq(store_error_kind(st), STORE_ERROR_USAGE);
	m.image_type = STORE_OUTBOX_PNG;
	m.image = NULL;
	m.image_len = 0;
	ck_assert_int_eq(store_outbox_enqueue(st, &m, 1, NULL, &err), -1);
	ck_assert_int_eq(store_error_kind(st), STORE_ERROR_USAGE);
	ck_assert_int_eq(count("outbox"), 0);

	for (i = 0; i < sizeof(bad_sql) / sizeof(bad_sql[0]); i++) {
		sqlite3 *db;

		ck_assert_int_eq(sqlite3_open(test_db, &db), SQLITE_OK);
		ck_assert_msg(sqlite3_exec(db, bad_sql[i], NULL, NULL, NULL) ==
			      SQLITE_CONSTRAINT, "accepted: %s", bad_sql[i]);
		sqlite3_close(db);
	}
	ck_assert_int_eq(count("outbox"), 0);
}
END_TEST

/* ---- version 1: header blocks from before sql/003 -------------------- */

/* Every typed field of a and b the same. */
static void assert_same_envelope(const struct store_outbox_msg *a,
				 const struct store_outbox_msg *b)
{
#define SAME_STR(f) do { \
		if (a->f == NULL || b->f == NULL) \
			ck_assert_msg(a->f == b->f, #f ": %s vs %s", \
				      a->f ? a->f : "NULL", b->f ? b->f : "NULL"); \
		else \
			ck_assert_str_eq(a->f, b->f); \
	} while (0)
	ck_assert_int_eq(a->kind, b->kind);
	SAME_STR(recipient);
	SAME_STR(message_id);
	SAME_STR(subject);
	SAME_STR(in_reply_to);
	SAME_STR(references);
	SAME_STR(body);
#undef SAME_STR
	ck_assert_int_eq(a->auto_reply, b->auto_reply);
	ck_assert_int_eq(a->game_id, b->game_id);
	ck_assert_int_eq(a->ply, b->ply);
	ck_assert_int_eq(a->inbound_id, b->inbound_id);
}

/* Pending rows as the ashesd before sql/003 queued them (its server.c
 * wrote these header lines), in a database of schema version 2 that is
 * then upgraded by opening it. */
START_TEST(test_envelope_v1)
{
	struct store_options o = test_options();
	char path[400], sql[4096];
	struct store *old;
	struct store_outbox_msg *v1 = NULL, *v2 = NULL, m;
	size_t n1 = 0, n2 = 0;
	int64_t game;

	snprintf(path, sizeof(path), "%s/v2.db", test_dir);
	test_db_at_version(path, 2);
	/* the game as version 2 holds it (store_game_create writes the
	 * columns of the latest schema) */
	test_exec(path, "INSERT INTO players (id, name, created) VALUES "
		  "(1, 'Alice', 1), (2, 'Bob', 1); INSERT INTO games (id, "
		  "variant, challenger_id, white_id, black_id, status, created, "
		  "updated) VALUES (1, 'size=5', 1, 1, 2, 'active', 2, 2)");
	game = 1;
	snprintf(sql, sizeof(sql),
		/* 1: a your-move notice in the game's thread */
		"INSERT INTO outbox (id, recipient, message_id, headers, body, "
		"game_id, created, next_attempt_at) VALUES (1, 'bob@example.org', "
		"'ashes.%1$lld.3.7.0.00ff@club.example', "
		"'To: bob@example.org\n"
		"Subject: [ashes #%1$lld] alice vs bob \xe2\x80\x94 your move\n"
		"Message-ID: <ashes.%1$lld.3.7.0.00ff@club.example>\n"
		"In-Reply-To: <ashes.%1$lld.0.5.0@club.example>\n"
		"References: <ashes.%1$lld.0.5.0@club.example>\n"
		"Auto-Submitted: auto-generated\n"
		"X-Ashes-Game: %1$lld\nX-Ashes-Ply: 3\nX-Ashes-Kind: your-move\n', "
		"'bob, it is your move.\n', %1$lld, 5, 5);"
		/* 2: an answer, about no game; CRLF, blanks, a repeated
		 * Subject (the last counts), a name in another case, an
		 * unknown line */
		"INSERT INTO outbox (id, recipient, message_id, headers, body, "
		"created, next_attempt_at) VALUES (2, 'eve@example.org', "
		"'ashes.0.0.8.0.00aa@club.example', "
		"'To: eve@example.org\r\nSubject: first\r\n"
		"subject:  \tRe: Hello\r\nMESSAGE-ID: <ashes.0.0.8.0.00aa@club.example>\r\n"
		"In-Reply-To: <t1@client.test>\r\n"
		"References: <t0@client.test> <t1@client.test>\r\n"
		"X-Other: x\r\nAuto-Submitted: auto-replied\r\nX-Ashes-Kind: reply', "
		"'held no command\n', 6, 6);"
		/* 3: no Auto-Submitted and no kind: an answer (as the old
		 * outbox had it); no Message-ID column: the header's */
		"INSERT INTO outbox (id, recipient, headers, body, created, "
		"next_attempt_at) VALUES (3, 'c@example.org', "
		"'Subject: s\nMessage-ID: <m3@club.example>\n', 'b', 7, 7);"
		/* 4: no Auto-Submitted, a notice kind; no Subject */
		"INSERT INTO outbox (id, recipient, message_id, headers, body, "
		"created, next_attempt_at) VALUES (4, 'd@example.org', 'm4@x', "
		"'X-Ashes-Kind: observer\nX-Ashes-Game: 99999\nX-Ashes-Ply: x\n', "
		"'b', 8, 8);"
		/* 5: sent before the upgrade: kept for `outbox list` */
		"INSERT INTO outbox (id, recipient, message_id, headers, body, "
		"created, next_attempt_at, sent_at, attempts) VALUES (5, "
		"'e@example.org', 'm5@x', 'Subject: gone\n', 'b', 1, 1, 2, 1);",
		(long long)game);
	test_exec(path, sql);

	/* opening it migrates it; nothing is lost or changed */
	o.no_migrate = false;
	old = test_open_at(path, &o);
	ck_assert_int_eq(test_query_int(path, "SELECT count(*) FROM outbox "
					"WHERE version = 1 AND headers IS NOT NULL "
					"AND kind IS NULL"), 5);
	ck_assert_int_eq(store_outbox_list(old, STORE_OUTBOX_ALL, 0, 0, &v1,
					   &n1, &err), 0);
	ck_assert_uint_eq(n1, 5);
	for (size_t i = 0; i < n1; i++)
		ck_assert_int_eq(v1[i].version, 1);

	/* the same mails queued now, as version 2 (game has the same id in
	 * both databases) */
	ck_assert_int_eq(a_game(st), game);
	m = your_move(game);
	m.html = NULL;
	m.image = NULL;
	m.image_len = 0;
	m.subject = "[ashes #1] alice vs bob \xe2\x80\x94 your move";
	ck_assert_int_eq(store_outbox_enqueue(st, &m, 5, NULL, &err), 0);
	m = answer();
	m.in_reply_to = "t1@client.test";
	m.references = "<t0@client.test> <t1@client.test>";
	ck_assert_int_eq(store_outbox_enqueue(st, &m, 6, NULL, &err), 0);
	ck_assert_int_eq(store_outbox_list(st, STORE_OUTBOX_ALL, 0, 0, &v2,
					   &n2, &err), 0);
	ck_assert_uint_eq(n2, 2);
	assert_same_envelope(&v1[0], &v2[0]);
	assert_same_envelope(&v1[1], &v2[1]);
	ck_assert_ptr_null(v1[0].html);
	ck_assert_ptr_null(v1[0].image);

	ck_assert_int_eq(v1[2].kind, STORE_OUTBOX_KIND_NONE);
	ck_assert(v1[2].auto_reply);
	ck_assert_str_eq(v1[2].message_id, "m3@club.example");
	ck_assert_str_eq(v1[2].subject, "s");
	ck_assert_int_eq(v1[3].kind, STORE_OUTBOX_KIND_OBSERVER);
	ck_assert(!v1[3].auto_reply);
	ck_assert_ptr_null(v1[3].subject);
	ck_assert_int_eq(v1[3].game_id, 99999);
	ck_assert_int_eq(v1[3].ply, 0);
	ck_assert_str_eq(v1[4].subject, "gone");
	ck_assert_int_eq(v1[4].sent_at, 2);

	/* the marks work on them as on any row */
	ck_assert_int_eq(store_outbox_mark_sent(old, 1, 9, &err), 0);
	store_outbox_msgs_free(&v1, n1);
	store_outbox_msgs_free(&v2, n2);
	store_close(&old);
}
END_TEST

/* A picture queued before sql/007 (SVG, as every picture was then) reads
 * as SVG after the upgrade; a row without one has no type. */
START_TEST(test_envelope_image_type_upgrade)
{
	struct store_options o = test_options();
	struct store_outbox_msg *rows = NULL;
	char path[400], sql[1024];
	struct store *old;
	size_t n = 0;

	snprintf(path, sizeof(path), "%s/v6.db", test_dir);
	test_db_at_version(path, 6);
	snprintf(sql, sizeof(sql),
		 "INSERT INTO outbox (version, kind, recipient, message_id, "
		 "subject, auto_reply, body, html, image, created, "
		 "next_attempt_at) VALUES (2, 'your-move', 'b@x', 'm1@x', 's', "
		 "0, 'b', '<p>h</p>', CAST('<svg/>' AS BLOB), 1, 1), "
		 "(2, 'reply', 'b@x', 'm2@x', 's', 1, 'b', NULL, NULL, 1, 1)");
	test_exec(path, sql);

	o.no_migrate = false;
	old = test_open_at(path, &o);
	ck_assert_int_eq(store_outbox_list(old, STORE_OUTBOX_ALL, 0, 0, &rows,
					   &n, &err), 0);
	ck_assert_uint_eq(n, 2);
	ck_assert_str_eq(rows[0].image_type, STORE_OUTBOX_SVG);
	ck_assert_uint_eq(rows[0].image_len, 6);
	ck_assert_ptr_null(rows[1].image_type);
	store_outbox_msgs_free(&rows, n);
	store_close(&old);
}
END_TEST

TEST_MAIN("store_outbox", "outbox", setup, teardown, 0, test_outbox,
	  test_envelope_v2, test_outbox_lanes, test_envelope_refused,
	  test_envelope_v1, test_envelope_image_type,
	  test_envelope_image_type_upgrade)
