/* test_server.c -- the game service against a real SQLite file: what the
 * case files (tests/server/cases, run by test_cases.c) cannot show.  The
 * cases state every command, refusal and flow as the exact mails queued;
 * here are the store behind those replies, the outbox rows' own fields,
 * faults and rollback, a locked database, batches, a forced pass, the
 * template check and the admin views of what the service wrote. */
#include <check.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/core.h"
#include "core/notation.h"
#include "core/record.h"
#include "core/record2.h"
#include "render/template.h"
#include "server/server.h"
#include "store/store.h"

#include "server_test.h"
#include "../check_run.h"

/* ---- the store behind registration ------------------------------------- */

/* Cases 0001 and 0002 show the replies, 0008 and 0009 the squatting and
 * the impossible From; here is what the store holds meanwhile: the key is
 * bound at once, the address only when its ten-character code comes
 * back; an address another key claimed first stays with the player who
 * confirmed it; a From that cannot be an address registers nobody.  (And
 * the welcome's outbox row: an automatic reply, In-Reply-To bare.) */
START_TEST(test_register_store)
{
	struct server_outcome out;
	struct outbox o;
	const struct store_outbox_msg *r;
	struct store_player *p = NULL;
	const char *error;
	char code[32], body[64], longaddr[400];

	out = ALICE_SAYS("register alice\n");
	ck_assert_int_eq(out.status, SERVER_OK);
	ck_assert_int_gt(out.player_id, 0);
	ck_assert_int_eq(store_player_by_fingerprint(st, ALICE_FP, &p, &error), 1);
	ck_assert_str_eq(p->name, "alice");
	ck_assert_uint_eq(p->n_addresses, 0);
	store_player_free(&p);
	o = new_mail();
	r = sent_to(&o, ALICE, "reply");
	ck_assert_str_eq(r->in_reply_to, "t1@client.test");
	ck_assert(r->auto_reply);
	ck_assert_int_eq(sscanf(strstr(r->body, "    confirm "), " confirm %31s",
				code), 1);
	ck_assert_uint_eq(strlen(code), 10);
	outbox_free(&o);
	snprintf(body, sizeof(body), "confirm %s\n", code);
	ck_assert_int_eq(ALICE_SAYS(body).status, SERVER_OK);
	ck_assert_int_eq(store_player_by_fingerprint(st, ALICE_FP, &p, &error), 1);
	ck_assert_uint_eq(p->n_addresses, 1);
	ck_assert_str_eq(p->addresses[0].address, ALICE);
	store_player_free(&p);

	/* eve claims bob's address before bob ever wrote; the code goes to
	 * bob, who registers and confirms the address himself */
	ck_assert_int_eq(send_as(EVE_FP, BOB, NULL, "register eve\n").status,
			 SERVER_OK);
	code_mailed_to(BOB, code);
	join(BOB_FP, BOB, "bob");
	snprintf(body, sizeof(body), "confirm %s\n", code);
	ck_assert_int_eq(send_as(EVE_FP, "eve@evil.example", NULL, body).status,
			 SERVER_REFUSED);
	ck_assert_int_eq(store_player_by_address(st, BOB, &p, &error), 1);
	ck_assert_str_eq(p->name, "bob");
	store_player_free(&p);

	/* the 330-character From of the outside test */
	memset(longaddr, 'x', 320);
	snprintf(longaddr + 320, sizeof(longaddr) - 320, "@example.org");
	out = send_as(CAROL_FP, longaddr, NULL, "register carol\n");
	ck_assert_int_eq(out.status, SERVER_REFUSED);
	ck_assert_int_eq(store_player_by_name(st, "carol", &p, &error), 0);
	mail_drop();
}
END_TEST

/* ---- failures and locks ------------------------------------------------ */

START_TEST(test_failure_rolls_back)
{
	struct server_outcome out;
	char body[128];
	int64_t g;
	long steps;
	int failures = 0;

	register_three();
	g = start_game("");
	snprintf(body, sizeof(body), "move %" PRId64 " 1 e5-e7\n", g);
	/* Fail the n-th store step for every n until handling succeeds:
	 * each failure must leave nothing behind. */
	for (long n = 0; n < 400; n++) {
		struct mail m = { .fp = ALICE_FP, .from = ALICE, .body = body,
				  .msgid = "fault@client.test",
				  .raw = "fault raw", .signed_text = "fault" };
		int ret;
		store_debug_fail_after(st, n);
		ret = deliver(&m, &out);
		store_debug_fail_after(st, -1);
		if (ret == 0) {
			ck_assert_int_eq(out.status, SERVER_OK);
			break;
		}
		failures++;
		ck_assert_int_eq(ply_of(g), 0);
		mail_count_is(0);
	}
	steps = failures;
	ck_assert_int_gt(steps, 5);
	ck_assert_int_eq(ply_of(g), 1);
	mail_count_is(2);
}
END_TEST

START_TEST(test_locked_by_another_process)
{
	struct server_outcome out;
	char body[128];
	int64_t g;
	int fds[2], status;
	pid_t pid;
	char c;

	register_three();
	g = start_game("");
	ck_assert_int_eq(pipe(fds), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		struct store *other = NULL;
		const char *error;
		close(fds[0]);
		if (store_open(dbpath, NULL, &other, &error) < 0 ||
		    store_begin(other, &error) < 0)
			_exit(1);
		/* Hold the write lock for a second, then let go. */
		if (write(fds[1], "x", 1) != 1)
			_exit(1);
		sleep(1);
		store_commit(other, &error);
		store_close(&other);
		_exit(0);
	}
	close(fds[1]);
	ck_assert_int_eq(read(fds[0], &c, 1), 1);
	close(fds[0]);
	snprintf(body, sizeof(body), "move %" PRId64 " 1 e5-e7\n", g);
	out = ALICE_SAYS(body);
	ck_assert_int_eq(out.status, SERVER_OK);
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	ck_assert_int_eq(ply_of(g), 1);
	mail_count_is(2);
}
END_TEST


/* Several mails in one transaction: all handled, one commit; a failure
 * anywhere leaves nothing of the batch. */
START_TEST(test_batch)
{
	struct server_inbound in[3];
	struct server_outcome out[3];
	char shas[3][65], ssha[3][65];
	const char *bodies[3] = { "register alice\n", "register bob\n",
				  "register alice\n" };
	const char *fps[3] = { ALICE_FP, BOB_FP, ALICE_FP };
	const char *from[3] = { ALICE, BOB, ALICE };
	const char *ids[3] = { "b1@x", "b2@x", "b1@x" };
	const char *error;
	struct store_player *p = NULL;

	memset(in, 0, sizeof(in));
	for (int i = 0; i < 3; i++) {
		digest(ids[i], strlen(ids[i]), shas[i]);
		digest(bodies[i], strlen(bodies[i]), ssha[i]);
		in[i].fingerprint = fps[i];
		in[i].from_address = from[i];
		in[i].message_id = ids[i];
		in[i].raw_sha256 = shas[i];
		in[i].signed_sha256 = ssha[i];
		in[i].body = bodies[i];
		in[i].body_len = strlen(bodies[i]);
	}
	/* A fault at every step in turn: whichever message it hits,
	 * nothing of the batch stays (not even the first message's). */
	for (long n = 0;; n++) {
		int ret;
		ck_assert_int_lt(n, 1000);
		store_debug_fail_after(st, n);
		ret = server_handle_batch(srv, in, 3, now, out, &error);
		store_debug_fail_after(st, -1);
		if (ret == 0)
			break;
		ck_assert_int_eq(store_player_by_name(st, "alice", &p, &error), 0);
		ck_assert_int_eq(store_player_by_name(st, "bob", &p, &error), 0);
		mail_count_is(0);
		ck_assert_uint_eq(out[0].queued, 0);
	}
	ck_assert_int_eq(out[0].status, SERVER_OK);
	ck_assert_int_eq(out[1].status, SERVER_OK);
	/* The third repeats the first's Message-ID inside the batch. */
	ck_assert_int_eq(out[2].status, SERVER_DUPLICATE);
	ck_assert_int_eq(out[2].inbound_id, out[0].inbound_id);
	mail_count_is(2);
}
END_TEST

/* ---- the admin views --------------------------------------------------- */

static char *run_ashes(const char *args)
{
	char cmd[PATH_MAX * 3], *text;
	const char *build = getenv("ASHES_BUILDDIR");
	const char *src = getenv("ASHES_SRCDIR");
	FILE *f;
	size_t n;

	snprintf(cmd, sizeof(cmd), "'%s/ashes' --templates '%s/templates' %s "
		 "--db '%s' 2>&1", build ? build : ".", src ? src : "..", args,
		 dbpath);
	f = popen(cmd, "r");
	ck_assert_ptr_nonnull(f);
	text = calloc(1, 65536);
	n = fread(text, 1, 65535, f);
	text[n] = '\0';
	pclose(f);
	return text;
}

/* alice's and bob's game (the three registered) after alice's first
 * move, e5-e7. */
static int64_t game_after_e5_e7(void)
{
	int64_t g;

	register_three();
	g = start_game("");
	ALICE_GAME("move", g, "1 e5-e7");
	return g;
}

/* `ashes games`, `ashes game show`, `ashes outbox list` on what the
 * service wrote. */
START_TEST(test_admin_views)
{
	char args[64], *text;
	int64_t g;

	g = game_after_e5_e7();
	mail_drop();
	text = run_ashes("games");
	ck_assert_has(text, "active");
	ck_assert_has(text, "alice");
	ck_assert_has(text, "bob");
	free(text);
	snprintf(args, sizeof(args), "game show %" PRId64, g);
	text = run_ashes(args);
	ck_assert_has(text, "White: alice");
	ck_assert_has(text, "1. e5-e7  by alice");
	ck_assert_has(text, "W2");
	/* one heading over the plies; times as UTC dates */
	ck_assert_ptr_eq(strstr(strstr(text, "Plies:\n") + 1, "Plies:"), NULL);
	ck_assert_has(text, " UTC");
	free(text);
	text = run_ashes("outbox list --status pending");
	ck_assert_has(text, BOB);
	ck_assert_has(text, "[ashes #");
	ck_assert_has(text, "pending");
	free(text);
	/* a mail read twice: both readings listed, the second naming the
	 * first */
	{
		struct mail m = { .fp = ALICE_FP, .from = ALICE,
				  .body = "games\n", .raw = "read twice" };
		struct server_outcome out;
		char line[96];

		ck_assert_int_eq(deliver(&m, &out), 0);
		deliver_is(&m, &out, SERVER_DUPLICATE);
		text = run_ashes("inbound list");
		snprintf(line, sizeof(line), "%" PRId64 "  ", out.inbound_id + 1);
		ck_assert_has(text, line);
		snprintf(line, sizeof(line), "duplicate of inbound %" PRId64,
			 out.inbound_id);
		ck_assert_has(text, line);
		snprintf(line, sizeof(line), "  duplicate of %" PRId64 "\n",
			 out.inbound_id);
		ck_assert_has(text, line);
		free(text);
	}
}
END_TEST

/* ---- the outbox rows' own fields --------------------------------------- */

/* What a <sent> section does not show of a queued mail.  The picture for
 * the text/html part is rendered when the mail is queued: the board at
 * the mail's ply, shown by the html through its Content-ID (sending never
 * asks the service again).  A reply answers a mail (auto_reply), a notice
 * does not; a notice threads into its game: In-Reply-To the bare id of
 * the game's first mail, References it in <>. */
START_TEST(test_outbox_fields)
{
	const struct store_outbox_msg *m;
	struct outbox o;
	char body[128], cid[300], *first;
	int64_t g;

	g = game_after_e5_e7();
	o = new_mail();
	m = sent_to(&o, BOB, "your-move");
	ck_assert_int_eq(m->ply, 1);
	ck_assert(!m->auto_reply);
	ck_assert_int_eq(strncmp(m->in_reply_to, "ashes.", 6), 0);
	ck_assert_int_eq(strncmp(m->references, "<ashes.", 7), 0);
	ck_assert_ptr_nonnull(m->image);
	ck_assert_has(m->image, "<svg");
	snprintf(cid, sizeof(cid), "cid:board.%s", m->message_id);
	ck_assert_has(m->html, cid);
	first = strndup(m->image, m->image_len);
	/* the reply to alice shows the same board */
	m = sent_to(&o, ALICE, "reply");
	ck_assert_int_eq(m->ply, 1);
	ck_assert(m->auto_reply);
	ck_assert_ptr_nonnull(m->image);
	ck_assert(m->image_len == strlen(first) &&
		  memcmp(m->image, first, m->image_len) == 0);
	outbox_free(&o);
	/* after ply 2 there is a stack on e3: another picture */
	snprintf(body, sizeof(body), "move %" PRId64 " 2 e5-e3\n", g);
	BOB_SAYS(body);
	o = new_mail();
	m = sent_to(&o, ALICE, "your-move");
	ck_assert_int_eq(m->ply, 2);
	ck_assert_ptr_nonnull(m->image);
	ck_assert(m->image_len != strlen(first) ||
		  memcmp(m->image, first, m->image_len) != 0);
	outbox_free(&o);
	free(first);
}
END_TEST

/* The new mail of kind to `to` carries no picture, neither attached nor
 * in an HTML part. */
static void no_picture_to(const char *to, const char *kind)
{
	struct outbox o = new_mail();
	const struct store_outbox_msg *m = sent_to(&o, to, kind);

	ck_assert_ptr_null(m->image);
	ck_assert_ptr_null(m->html);
	outbox_free(&o);
}

/* Which mails carry the picture, and as what: a mail that shows a changed
 * position does (as the PNG most readers' mail programs show, queued as
 * its drawing for the outbox to rasterise; or as SVG, or not at all, as
 * the reader set); one that changes no position does not. */
START_TEST(test_picture_choice)
{
	const struct store_outbox_msg *m;
	struct store_player *bob = NULL;
	struct store_settings s;
	struct outbox o;
	const char *error;
	char body[128];
	int64_t g;

	g = game_after_e5_e7();
	o = new_mail();
	m = sent_to(&o, BOB, "your-move");
	ck_assert_str_eq(m->image_type, STORE_OUTBOX_PNG);
	ck_assert_int_eq(m->image[0], '<'); /* the drawing, rasterised later */
	outbox_free(&o);
	/* a preview and a draw offer change no position: no picture */
	snprintf(body, sizeof(body), "preview %" PRId64 " e5-e3\n", g);
	BOB_SAYS(body);
	no_picture_to(BOB, "reply");
	snprintf(body, sizeof(body), "draw offer %" PRId64 "\n", g);
	BOB_SAYS(body);
	o = new_mail();
	for (size_t i = 0; i < o.n; i++)
		ck_assert_ptr_null(o.m[i].image);
	outbox_free(&o);
	/* bob takes SVG, then nothing */
	ck_assert_int_eq(store_player_by_name(st, "bob", &bob, &error), 1);
	ck_assert_int_eq(store_settings_get(st, bob->id, &s, &error), 0);
	s.picture = STORE_PICTURE_SVG;
	ck_assert_int_eq(store_settings_set(st, bob->id, &s, now, &error), 0);
	snprintf(body, sizeof(body), "move %" PRId64 " 2 e5-e3\n", g);
	BOB_SAYS(body);
	o = new_mail();
	m = sent_to(&o, BOB, "reply");
	ck_assert_str_eq(m->image_type, STORE_OUTBOX_SVG);
	m = mail_to(&o, ALICE, "your-move");
	ck_assert_str_eq(m->image_type, STORE_OUTBOX_PNG);
	outbox_free(&o);
	s.picture = STORE_PICTURE_NONE;
	ck_assert_int_eq(store_settings_set(st, bob->id, &s, now, &error), 0);
	snprintf(body, sizeof(body), "move %" PRId64 " 3 e7-e6\n", g);
	ALICE_SAYS(body);
	no_picture_to(BOB, "your-move");
	store_player_free(&bob);
}
END_TEST

/* ---- the record `history` mails ---------------------------------------- */

/* Player fp/from asks for game g's history: the record of the reply, read
 * back with record2_parse() into *rec (the caller frees it) and replayed
 * by record2_replay() without a fault. */
static void history_record(int64_t g, const char *fp, const char *from,
			   struct record2 *rec)
{
	char body[64];
	struct outbox o;
	const struct store_outbox_msg *m;
	const char *text;
	struct record2_fault f;
	struct core_record out;
	int line = 0;
	enum record2_error e = RECORD2_OK;

	snprintf(body, sizeof(body), "history %" PRId64 "\n", g);
	ck_assert_int_eq(send_as(fp, from, NULL, body).status, SERVER_OK);
	o = new_mail();
	m = sent_to(&o, from, "reply");
	text = strstr(m->body, "Record:\n");
	ck_assert_ptr_nonnull(text);
	text += strlen("Record:\n");
	ck_assert_int_eq(strncmp(text, RECORD2_MAGIC "\n",
				 strlen(RECORD2_MAGIC) + 1), 0);
	ck_assert_msg(record2_parse(text, strlen(text), rec, &line, &e) == 0,
		      "line %d: %s\n%s", line, record2_error_name(e), text);
	memset(&f, 0, sizeof(f));
	ck_assert_msg(record2_replay(rec, &out, &f) == 0, "ply %zu: %s\n%s",
		      f.ply, record2_error_name(f.error), text);
	record_free(&out);
	outbox_free(&o);
}

/* How many comments of a kind a record holds. */
static size_t comments_of(const struct record2 *rec,
			  enum record2_comment_kind kind)
{
	size_t n = 0;

	for (size_t i = 0; i < rec->ncomments; i++)
		n += rec->comments[i].kind == kind;
	return n;
}

/* ---- a forced pass, the templates -------------------------------------- */

/* A game with a forced pass: found by random play in the rules core, then
 * played through the service to its end; the stored plies (passes
 * recorded with no player), result and reason equal the core's record,
 * and the game still loads. */
START_TEST(test_forced_pass)
{
	struct core_variant v;
	struct core_record rec;
	struct core_move moves[1024];
	enum core_error err;
	uint64_t seed = 12345;
	bool found = false;
	char subject[128], body[64], text[CORE_MOVE_TEXT_MAX];
	int64_t g, alice_id;
	struct store_player *alice = NULL;
	struct store_move *stored = NULL;
	size_t nstored = 0;
	const char *error;

	core_variant_default(&v);
	/* Forced passes are rare in random play: about 1 game in 300 on
	 * size 5. */
	for (int tries = 0; tries < 5000 && !found; tries++) {
		record_init(&rec, &v, &err);
		while (rec.pos.result == CORE_ONGOING) {
			size_t n = core_legal_moves(&rec.pos, moves, 1024);
			ck_assert_uint_gt(n, 0);
			seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
			ck_assert_int_eq(record_play(&rec, &moves[(seed >> 33) % (n < 1024 ? n : 1024)],
						     &err), 0);
		}
		for (size_t i = 0; i < rec.nplies; i++)
			if (rec.plies[i].kind == CORE_MOVE_PASS)
				found = true;
		if (!found)
			record_free(&rec);
	}
	ck_assert_msg(found, "no game with a forced pass found");

	register_three();
	ck_assert_int_eq(store_player_by_name(st, "alice", &alice, &error), 1);
	alice_id = alice->id;
	store_player_free(&alice);
	g = start_game("");
	snprintf(subject, sizeof(subject), "Re: [ashes #%" PRId64 "] alice vs bob", g);
	for (size_t i = 0; i < rec.nplies; i++) {
		struct core_record now_rec;
		struct store_game *row = NULL;
		int64_t who;
		struct server_outcome out;

		if (rec.plies[i].kind == CORE_MOVE_PASS)
			continue; /* the service records it by itself */
		position_of(g, &now_rec);
		ck_assert_int_eq(now_rec.pos.ply, (int)i);
		ck_assert_int_eq(store_game_load(st, g, &row, &error), 1);
		who = now_rec.pos.to_move == CORE_WHITE ? row->white_id : row->black_id;
		store_game_free(&row);
		record_free(&now_rec);
		snprintf(body, sizeof(body), "%s\n\n> your move in game %" PRId64
			 ".\n",
			 notation_format_move(rec.pos.geom, &rec.plies[i], text), g);
		out = send_as(who == alice_id ? ALICE_FP : BOB_FP,
			      who == alice_id ? ALICE : BOB, subject, body);
		ck_assert_msg(out.status == SERVER_OK, "ply %zu: %s", i + 1, out.outcome);
		mail_drop();
	}
	ck_assert_int_eq(status_of(g), STORE_GAME_FINISHED);
	/* the stored result and reason are the rules core's */
	{
		struct store_game *row = NULL;
		ck_assert_int_eq(store_game_load(st, g, &row, &error), 1);
		ck_assert_str_eq(row->end_reason,
				 core_end_reason_name(rec.pos.end_reason));
		ck_assert_str_eq(row->result,
				 rec.pos.result == CORE_RESULT_WHITE ? "1-0" :
				 rec.pos.result == CORE_RESULT_BLACK ? "0-1" :
				 "1/2-1/2");
		store_game_free(&row);
	}
	ck_assert_int_eq(store_game_move_records(st, g, &stored, &nstored, &error), 0);
	ck_assert_uint_eq(nstored, rec.nplies);
	for (size_t i = 0; i < nstored; i++) {
		notation_format_move(rec.pos.geom, &rec.plies[i], text);
		ck_assert_str_eq(stored[i].text, text);
		if (rec.plies[i].kind == CORE_MOVE_PASS)
			ck_assert_int_eq(stored[i].player_id, 0);
		else
			ck_assert_int_ne(stored[i].player_id, 0);
	}
	store_rows_free(&stored, nstored, sizeof(*stored), store_move_clear);
	{
		struct outbox o;
		struct record2 r2;
		CAROL_GAME("history", g, "");
		o = new_mail();
		ck_assert_has(o.m[0].body, "pass");
		outbox_free(&o);
		/* The v2 record of a finished game with a forced pass reads
		 * back and replays to the same end. */
		history_record(g, CAROL_FP, CAROL, &r2);
		ck_assert_uint_eq(r2.nplies, rec.nplies);
		ck_assert_ptr_nonnull(record2_tag_get(&r2, "EndDate"));
		record2_free(&r2);
	}
	record_free(&rec);
}
END_TEST

/* A game with the swap and a note: the record names both players by the
 * seats they hold at the end with the keys that signed their plies (the
 * replay checks each ply's key=, so the swap must be right), each ply its
 * receipt and sha256; the note is a comment for a player, not for carol,
 * who does not play. */
START_TEST(test_history_record)
{
	struct record2 rec;
	char body[128], move[CORE_MOVE_TEXT_MAX];
	int64_t g;

	register_three();
	g = start_game("size=3 swap");
	for (int i = 0; i < 5; i++) {
		bool alice_moves;
		struct store_game *row = NULL;
		struct core_record r;
		const char *error;

		position_of(g, &r);
		ck_assert_int_eq(store_game_load(st, g, &row, &error), 1);
		alice_moves = (r.pos.to_move == CORE_WHITE ? row->white_id :
			       row->black_id) == row->challenger_id;
		store_game_free(&row);
		record_free(&r);
		if (i == 1)
			snprintf(move, sizeof(move), "swap");
		else
			first_legal(g, move);
		snprintf(body, sizeof(body), "move %" PRId64 " %d %s\n%s", g,
			 i + 1, move, i == 2 ? "message 1 have fun\n" : "");
		ck_assert_int_eq(send_as(alice_moves ? ALICE_FP : BOB_FP,
					 alice_moves ? ALICE : BOB, NULL,
					 body).status, SERVER_OK);
		mail_drop();
	}
	ck_assert_int_eq(ply_of(g), 5);

	history_record(g, ALICE_FP, ALICE, &rec);
	ck_assert_uint_eq(rec.nplies, 5);
	ck_assert_str_eq(rec.plies[1].move, "swap");
	/* bob took White by the swap */
	ck_assert_str_eq(record2_tag_get(&rec, "White"), "bob");
	ck_assert_str_eq(record2_tag_get(&rec, "WhiteKey"), BOB_FP);
	ck_assert_str_eq(record2_tag_get(&rec, "BlackKey"), ALICE_FP);
	ck_assert_str_eq(record2_tag_get(&rec, "Site"), DOMAIN);
	ck_assert_str_eq(record2_tag_get(&rec, "Event"), "casual");
	for (size_t i = 0; i < rec.nplies; i++) {
		unsigned want = RECORD2_F_KEY | RECORD2_F_AT | RECORD2_F_SHA256;
		ck_assert_uint_eq(rec.plies[i].annot.fields & want, want);
	}
	ck_assert_uint_eq(comments_of(&rec, RECORD2_COMMENT_MESSAGE), 1);
	ck_assert_str_eq(rec.comments[0].text, "have fun");
	ck_assert_uint_eq(rec.comments[0].after, 3);
	record2_free(&rec);

	history_record(g, CAROL_FP, CAROL, &rec);
	ck_assert_uint_eq(rec.nplies, 5);
	ck_assert_uint_eq(comments_of(&rec, RECORD2_COMMENT_MESSAGE), 0);
	record2_free(&rec);
}
END_TEST

/* The help text comes from the templates; the daemon checks them at
 * start-up: all there by default; an override folder with a broken one is
 * refused, naming it. */
START_TEST(test_check_templates)
{
	char over[PATH_MAX + 8], file[PATH_MAX + 32];
	const char *error = NULL;
	struct template_set *bad;
	struct server *s2 = NULL;
	struct server_config cfg;
	FILE *f;

	ck_assert_msg(server_check_templates(srv, &error) == 0, "%s", error);
	snprintf(over, sizeof(over), "%s/over", tmpdir);
	ck_assert_int_eq(mkdir(over, 0700), 0);
	snprintf(file, sizeof(file), "%s/mail", over);
	ck_assert_int_eq(mkdir(file, 0700), 0);
	snprintf(file, sizeof(file), "%s/mail/your-move.txt", over);
	f = fopen(file, "w");
	ck_assert_ptr_nonnull(f);
	fputs("{{#board}}unclosed\n", f);
	fclose(f);
	bad = test_templates(over);
	test_config(&cfg, bad);
	ck_assert_int_eq(server_new(st, &cfg, &s2, &error), 0);
	ck_assert_int_eq(server_check_templates(s2, &error), -1);
	ck_assert_has(error, "your-move.txt");
	server_free(&s2);
	template_set_free(&bad);
}
END_TEST

TEST_MAIN("server", "service", setup, teardown, 60, test_register_store,
	  test_failure_rolls_back, test_locked_by_another_process, test_batch,
	  test_admin_views, test_outbox_fields, test_picture_choice,
	  test_forced_pass, test_history_record, test_check_templates)
