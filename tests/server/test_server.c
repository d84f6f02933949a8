/* test_server.c -- the game service against a real SQLite file: every
 * command and refusal, idempotence, replay, stale plies, threads,
 * observers, draws, whole games, the outbox, and a locked database. */
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
#include "render/template.h"
#include "server/server.h"
#include "store/store.h"

#include "server_test.h"

/* ---- register ---------------------------------------------------------- */

START_TEST(test_register)
{
	struct server_outcome out;
	struct outbox o;
	const struct store_outbox_msg *r;
	struct store_player *p = NULL;
	const char *error;
	char code[32], body[64];

	out = ALICE_SAYS("register alice\n");
	ck_assert_int_eq(out.status, SERVER_OK);
	ck_assert_int_gt(out.player_id, 0);
	ck_assert_int_eq(store_player_by_fingerprint(st, ALICE_FP, &p, &error), 1);
	ck_assert_str_eq(p->name, "alice");
	/* the key is bound; the address only once its code comes back */
	ck_assert_uint_eq(p->n_addresses, 0);
	store_player_free(&p);
	o = new_mail();
	ck_assert_uint_eq(o.n, 1);
	r = mail_to(&o, ALICE, "reply");
	ck_assert_ptr_nonnull(r);
	ck_assert_has(r->body, "Welcome, alice");
	ck_assert_has(r->body, ALICE_FP);
	ck_assert_has(r->body, "    confirm ");
	ck_assert_has(r->headers, "In-Reply-To: <t1@client.test>");
	ck_assert_has(r->headers, "Auto-Submitted: auto-replied");
	ck_assert_int_eq(sscanf(strstr(r->body, "    confirm "), " confirm %31s",
				code), 1);
	ck_assert_uint_eq(strlen(code), 10);
	outbox_free(&o);

	/* Pending: nothing but confirm (or help, or register), and the
	 * claimed address gets nothing but its code: refusals are recorded,
	 * not mailed (a squatter must not fill the owner's inbox). */
	out = ALICE_SAYS("games\n");
	ck_assert_int_eq(out.status, SERVER_REFUSED);
	ck_assert_has(out.outcome, "not_confirmed");
	o = new_mail();
	ck_assert_uint_eq(o.n, 0);
	outbox_free(&o);
	/* A wrong code, then the right one (in any case). */
	out = ALICE_SAYS("confirm ABCDEFGHJK\n");
	ck_assert_int_eq(out.status, SERVER_REFUSED);
	ck_assert_has(out.outcome, "bad_code");
	o = new_mail();
	ck_assert_uint_eq(o.n, 0);
	outbox_free(&o);
	/* register again: a fresh code, mailed; the old one is void */
	{
		char fresh[32];
		out = ALICE_SAYS("register alice\n");
		ck_assert_int_eq(out.status, SERVER_OK);
		code_mailed_to(ALICE, fresh);
		ck_assert_str_ne(fresh, code);
		snprintf(body, sizeof(body), "confirm %s\n", code);
		ck_assert_int_eq(ALICE_SAYS(body).status, SERVER_REFUSED);
		snprintf(code, sizeof(code), "%s", fresh);
	}
	for (char *c = code; *c; c++)
		*c = (char)(*c >= 'A' && *c <= 'Z' ? *c - 'A' + 'a' : *c);
	snprintf(body, sizeof(body), "confirm %s\n", code);
	out = ALICE_SAYS(body);
	ck_assert_int_eq(out.status, SERVER_OK);
	o = new_mail();
	ck_assert_has(o.m[0].body, "is confirmed");
	outbox_free(&o);
	ck_assert_int_eq(store_player_by_fingerprint(st, ALICE_FP, &p, &error), 1);
	ck_assert_uint_eq(p->n_addresses, 1);
	ck_assert_str_eq(p->addresses[0].address, ALICE);
	store_player_free(&p);
	out = ALICE_SAYS(body);
	ck_assert_int_eq(out.status, SERVER_REFUSED);
	o = new_mail();
	ck_assert_has(o.m[0].body, "no address waiting for confirmation");
	outbox_free(&o);

	/* The same key again. */
	out = ALICE_SAYS("register alice2\n");
	ck_assert_int_eq(out.status, SERVER_REFUSED);
	o = new_mail();
	ck_assert_has(o.m[0].body, "already registered, as player alice");
	outbox_free(&o);
	/* A taken name, case-insensitively, by a new key. */
	out = send_as(BOB_FP, BOB, NULL, "register ALICE\n");
	ck_assert_int_eq(out.status, SERVER_REFUSED);
	o = new_mail();
	ck_assert_str_eq(o.m[0].recipient, BOB);
	ck_assert_has(o.m[0].body, "name ALICE is taken");
	outbox_free(&o);
	/* A bad name. */
	out = send_as(BOB_FP, BOB, NULL, "register 9bob\n");
	ck_assert_int_eq(out.status, SERVER_REFUSED);
	ck_assert_int_eq(out.failed_line, 1);
	o = new_mail();
	ck_assert_has(o.m[0].body, "\"9bob\" cannot be a player name");
	outbox_free(&o);
}
END_TEST

/* The squatting the outside test found: a new key registering with
 * someone else's address takes nothing from its owner. */
START_TEST(test_register_cannot_squat)
{
	struct server_outcome out;
	struct outbox o;
	struct store_player *p = NULL;
	const char *error;
	char code[32], body[64];

	/* eve claims bob's address before bob ever wrote */
	out = send_as(EVE_FP, BOB, NULL, "register eve\n");
	ck_assert_int_eq(out.status, SERVER_OK);
	code_mailed_to(BOB, code); /* the code goes to bob, not to eve */
	/* bob registers and confirms his own address all the same */
	join(BOB_FP, BOB, "bob");
	o = new_mail();
	outbox_free(&o);
	ck_assert_int_eq(store_player_by_address(st, BOB, &p, &error), 1);
	ck_assert_str_eq(p->name, "bob");
	store_player_free(&p);
	/* eve guessing can only fail; and even with bob's own code her claim
	 * could not take the address from him */
	out = send_as(EVE_FP, "eve@evil.example", NULL, "confirm 2345ABCDEF\n");
	ck_assert_int_eq(out.status, SERVER_REFUSED);
	snprintf(body, sizeof(body), "confirm %s\n", code);
	out = send_as(EVE_FP, "eve@evil.example", NULL, body);
	ck_assert_int_eq(out.status, SERVER_REFUSED);
	ck_assert_has(out.outcome, "address_taken");
	/* eve has no address and can do nothing */
	out = send_as(EVE_FP, "eve@evil.example", NULL, "challenge bob\n");
	ck_assert_int_eq(out.status, SERVER_REFUSED);
	ck_assert_has(out.outcome, "not_confirmed");
	/* and none of it reached bob, nor eve's From */
	o = new_mail();
	ck_assert_uint_eq(o.n, 0);
	outbox_free(&o);
	/* even eve registering again (a fresh code) mails bob nothing: he
	 * confirmed the address himself */
	out = send_as(EVE_FP, "eve@evil.example", NULL, "register eve\n");
	o = new_mail();
	ck_assert_uint_eq(count_to(&o, BOB), 0);
	outbox_free(&o);
	/* A From no address can be (the 330-character one of the outside
	 * test) is refused by the service, not by the store's rules. */
	{
		char longaddr[400];
		memset(longaddr, 'x', 320);
		snprintf(longaddr + 320, sizeof(longaddr) - 320, "@example.org");
		out = send_as(CAROL_FP, longaddr, NULL, "register carol\n");
		ck_assert_int_eq(out.status, SERVER_REFUSED);
		ck_assert_int_eq(store_player_by_name(st, "carol", &p, &error), 0);
		o = new_mail();
		ck_assert_uint_eq(o.n, 0); /* nowhere to write */
		outbox_free(&o);
	}
}
END_TEST

START_TEST(test_unknown_key_may_only_register)
{
	struct server_outcome out;
	struct outbox o;

	join(ALICE_FP, ALICE, "alice");
	o = new_mail();
	outbox_free(&o);
	out = send_as(EVE_FP, "eve@evil.example", NULL,
		      "challenge alice\nregister eve\n");
	ck_assert_int_eq(out.status, SERVER_REFUSED);
	ck_assert_int_eq(out.commands_run, 0);
	o = new_mail();
	ck_assert_uint_eq(o.n, 1);
	ck_assert_str_eq(o.m[0].recipient, "eve@evil.example");
	ck_assert_has(o.m[0].body, "not a registered player");
	ck_assert_has(o.m[0].body, "Refused (line 1)");
	ck_assert_has(o.m[0].body, "were not run");
	outbox_free(&o);
	/* help is fine for anyone. */
	out = send_as(EVE_FP, "eve@evil.example", NULL, "help\n");
	ck_assert_int_eq(out.status, SERVER_OK);
	o = new_mail();
	ck_assert_has(o.m[0].body, "challenge PLAYER [OPTIONS]");
	outbox_free(&o);
}
END_TEST

START_TEST(test_reply_goes_to_registered_address)
{
	struct outbox o;

	join(ALICE_FP, ALICE, "alice");
	o = new_mail();
	outbox_free(&o);
	/* Alice's key, but a From of someone else: the reply goes to the
	 * address alice registered, never to From. */
	send_as(ALICE_FP, "victim@example.org", NULL, "games\n");
	o = new_mail();
	ck_assert_uint_eq(o.n, 1);
	ck_assert_str_eq(o.m[0].recipient, ALICE);
	ck_assert_has(o.m[0].headers, "To: " ALICE "\n");
	outbox_free(&o);
}
END_TEST

START_TEST(test_unsigned_is_weak)
{
	struct server_outcome out;
	struct outbox o;

	/* An unsigned club: the code still proves the address. */
	join(NULL, "dave@example.org", "dave");
	out = send_as(NULL, "dave@example.org", NULL, "games\n");
	ck_assert_int_eq(out.status, SERVER_OK);
	ck_assert_int_gt(out.player_id, 0);
	o = new_mail();
	ck_assert_has(o.m[1].body, "which anyone can forge");
	outbox_free(&o);
}
END_TEST

/* ---- challenges -------------------------------------------------------- */

START_TEST(test_challenge_accept)
{
	struct outbox o;
	const struct store_outbox_msg *m;
	int64_t g;
	struct store_game *row = NULL;
	const char *error;

	register_three();
	ck_assert_int_eq(ALICE_SAYS("Challenge Bob size=4 swap tax=lost\n").status,
			 SERVER_OK);
	o = new_mail();
	ck_assert_uint_eq(o.n, 2);
	m = mail_to(&o, BOB, "challenge");
	ck_assert_ptr_nonnull(m);
	g = game_of(m);
	ck_assert_has(m->body, "alice challenges you");
	ck_assert_has(m->body, "size=4");
	ck_assert_has(m->body, "accept ");
	m = mail_to(&o, ALICE, "reply");
	ck_assert_ptr_nonnull(m);
	ck_assert_has(m->body, "created");
	ck_assert_has(m->headers, "Subject: [ashes #");
	outbox_free(&o);
	ck_assert_int_eq(store_game_load(st, g, &row, &error), 1);
	ck_assert_int_eq(row->status, STORE_GAME_CHALLENGE);
	ck_assert_has(row->variant, "size=4");
	ck_assert_has(row->variant, "swap");
	ck_assert_has(row->variant, "tax=lost");
	store_game_free(&row);

	{
		char body[64];
		snprintf(body, sizeof(body), "accept #%" PRId64 "\n", g);
		/* carol is not the one challenged. */
		ck_assert_int_eq(CAROL_SAYS(body).status, SERVER_REFUSED);
		o = new_mail();
		ck_assert_has(o.m[0].body, "not addressed to you");
		outbox_free(&o);
		/* alice cannot accept her own. */
		ck_assert_int_eq(ALICE_SAYS(body).status, SERVER_REFUSED);
		o = new_mail();
		ck_assert_has(o.m[0].body, "your own challenge");
		outbox_free(&o);
		ck_assert_int_eq(BOB_SAYS(body).status, SERVER_OK);
		o = new_mail();
		/* Bob's reply, and alice (White) gets "your move". */
		m = mail_to(&o, ALICE, "your-move");
		ck_assert_ptr_nonnull(m);
		ck_assert_has(m->body, "move ");
		ck_assert_has(m->body, " 1 MOVE");
		ck_assert_has(m->body, "Legal moves (162)");
		ck_assert_ptr_nonnull(mail_to(&o, BOB, "reply"));
		outbox_free(&o);
		ck_assert_int_eq(status_of(g), STORE_GAME_ACTIVE);
		/* Accepting again: the game is active now. */
		ck_assert_int_eq(BOB_SAYS(body).status, SERVER_REFUSED);
		o = new_mail();
		ck_assert_has(o.m[0].body, "is active");
		outbox_free(&o);
	}
}
END_TEST

START_TEST(test_challenge_refusals)
{
	struct server_outcome out;
	struct outbox o;

	register_three();
	out = ALICE_SAYS("challenge nobody\n");
	ck_assert_int_eq(out.status, SERVER_REFUSED);
	o = new_mail();
	ck_assert_has(o.m[0].body, "no player called nobody");
	outbox_free(&o);
	ALICE_SAYS("challenge alice\n");
	o = new_mail();
	ck_assert_has(o.m[0].body, "cannot challenge yourself");
	outbox_free(&o);
	ALICE_SAYS("challenge bob clock=3d\n");
	o = new_mail();
	ck_assert_has(o.m[0].body, "no option \"clock\"");
	outbox_free(&o);
	ALICE_SAYS("challenge bob size=20\n");
	o = new_mail();
	ck_assert_has(o.m[0].body, "option size=20");
	outbox_free(&o);
	ALICE_SAYS("accept 999\n");
	o = new_mail();
	ck_assert_has(o.m[0].body, "there is no game 999");
	outbox_free(&o);
}
END_TEST

START_TEST(test_decline_withdraw_open)
{
	struct outbox o;
	int64_t g1, g2, g3;
	char body[64];

	register_three();
	ALICE_SAYS("challenge bob\n");
	o = new_mail();
	g1 = game_of(mail_to(&o, BOB, "challenge"));
	outbox_free(&o);
	snprintf(body, sizeof(body), "decline %" PRId64 "\n", g1);
	ck_assert_int_eq(CAROL_SAYS(body).status, SERVER_REFUSED);
	o = new_mail();
	outbox_free(&o);
	ck_assert_int_eq(BOB_SAYS(body).status, SERVER_OK);
	ck_assert_int_eq(status_of(g1), STORE_GAME_DECLINED);
	o = new_mail();
	ck_assert_has(mail_to(&o, ALICE, "challenge")->body, "bob declined");
	outbox_free(&o);

	ALICE_SAYS("challenge bob\n");
	o = new_mail();
	g2 = game_of(mail_to(&o, BOB, "challenge"));
	outbox_free(&o);
	snprintf(body, sizeof(body), "withdraw %" PRId64 "\n", g2);
	ck_assert_int_eq(BOB_SAYS(body).status, SERVER_REFUSED);
	o = new_mail();
	ck_assert_has(o.m[0].body, "only the player who made the challenge");
	outbox_free(&o);
	ck_assert_int_eq(ALICE_SAYS(body).status, SERVER_OK);
	ck_assert_int_eq(status_of(g2), STORE_GAME_WITHDRAWN);
	o = new_mail();
	ck_assert_has(mail_to(&o, BOB, "challenge")->body, "withdrew");
	outbox_free(&o);

	/* An open challenge: anyone but alice may accept it. */
	ALICE_SAYS("challenge any size=3\n");
	o = new_mail();
	ck_assert_uint_eq(o.n, 1);
	g3 = game_of(mail_to(&o, ALICE, "reply"));
	ck_assert_has(o.m[0].body, "open challenge");
	outbox_free(&o);
	ck_assert_int_eq(status_of(g3), STORE_GAME_OPEN);
	BOB_SAYS("games\n");
	o = new_mail();
	snprintf(body, sizeof(body), "#%" PRId64 "  by alice", g3);
	ck_assert_has(o.m[0].body, body);
	outbox_free(&o);
	snprintf(body, sizeof(body), "decline %" PRId64 "\n", g3);
	ck_assert_int_eq(CAROL_SAYS(body).status, SERVER_REFUSED);
	o = new_mail();
	outbox_free(&o);
	snprintf(body, sizeof(body), "accept %" PRId64 "\n", g3);
	ck_assert_int_eq(CAROL_SAYS(body).status, SERVER_OK);
	ck_assert_int_eq(status_of(g3), STORE_GAME_ACTIVE);
	o = new_mail();
	ck_assert_ptr_nonnull(mail_to(&o, ALICE, "your-move"));
	outbox_free(&o);
}
END_TEST

/* ---- moves ----------------------------------------------------------- */

START_TEST(test_moves_stale_turn_illegal)
{
	struct server_outcome out;
	struct outbox o;
	const struct store_outbox_msg *m;
	char body[128], expect[128];
	int64_t g;

	register_three();
	g = start_game("");
	snprintf(body, sizeof(body), "move %" PRId64 " 1 E5-E7\n", g);
	out = ALICE_SAYS(body);
	ck_assert_int_eq(out.status, SERVER_OK);
	ck_assert_int_eq(ply_of(g), 1);
	o = new_mail();
	m = mail_to(&o, ALICE, "reply");
	snprintf(expect, sizeof(expect), "Taken: move %" PRId64 " 1 e5-e7", g);
	ck_assert_has(m->body, expect);
	m = mail_to(&o, BOB, "your-move");
	ck_assert_ptr_nonnull(m);
	snprintf(expect, sizeof(expect), "    move %" PRId64 " 2 MOVE", g);
	ck_assert_has(m->body, expect);
	ck_assert_has(m->body, "White grew a 2-stack on e7 from e5");
	ck_assert_has(m->body, "Legal moves (");
	outbox_free(&o);

	/* The same move sent again: stale, whatever its bytes. */
	out = ALICE_SAYS(body);
	ck_assert_int_eq(out.status, SERVER_REFUSED);
	ck_assert_int_eq(ply_of(g), 1);
	o = new_mail();
	ck_assert_uint_eq(o.n, 1);
	snprintf(expect, sizeof(expect),
		 "game %" PRId64 " is at ply 2; your move was for ply 1", g);
	ck_assert_has(o.m[0].body, expect);
	outbox_free(&o);

	/* Not alice's turn. */
	snprintf(body, sizeof(body), "move %" PRId64 " 2 e5-e3\n", g);
	ck_assert_int_eq(ALICE_SAYS(body).status, SERVER_REFUSED);
	o = new_mail();
	ck_assert_has(o.m[0].body, "bob is to move");
	outbox_free(&o);

	/* carol does not play. */
	ck_assert_int_eq(CAROL_SAYS(body).status, SERVER_REFUSED);
	o = new_mail();
	ck_assert_has(o.m[0].body, "do not play in game");
	outbox_free(&o);

	/* An illegal move: the rule is named, with core's explanation. */
	snprintf(body, sizeof(body), "move %" PRId64 " 2 e7-e9\n", g);
	ck_assert_int_eq(BOB_SAYS(body).status, SERVER_REFUSED);
	o = new_mail();
	ck_assert_has(o.m[0].body, "e7-e9 is not legal in game");
	ck_assert_has(o.m[0].body,
		      core_error_string(CORE_ERR_NOT_YOUR_STACK));
	outbox_free(&o);
	/* "pass" is never typed. */
	snprintf(body, sizeof(body), "move %" PRId64 " 2 pass\n", g);
	ck_assert_int_eq(BOB_SAYS(body).status, SERVER_REFUSED);
	o = new_mail();
	ck_assert_has(o.m[0].body,
		      core_error_string(CORE_ERR_PASS_NOT_FORCED));
	outbox_free(&o);
	/* A cell off the board. */
	snprintf(body, sizeof(body), "move %" PRId64 " 2 a1-m13\n", g);
	ck_assert_int_eq(BOB_SAYS(body).status, SERVER_REFUSED);
	o = new_mail();
	ck_assert_has(o.m[0].body, core_error_string(CORE_ERR_UNKNOWN_CELL));
	outbox_free(&o);
	ck_assert_int_eq(ply_of(g), 1);
}
END_TEST

START_TEST(test_commands_stop_at_first_refusal)
{
	struct server_outcome out;
	struct outbox o;
	char body[256];
	int64_t g;

	register_three();
	g = start_game("");
	snprintf(body, sizeof(body),
		 "board %" PRId64 "\nmove %" PRId64 " 1 e5-e9x\n"
		 "resign %" PRId64 "\n",
		 g, g, g);
	out = ALICE_SAYS(body);
	ck_assert_int_eq(out.status, SERVER_REFUSED);
	ck_assert_int_eq(out.commands_run, 1);
	ck_assert_int_eq(out.failed_line, 2);
	ck_assert_int_eq(status_of(g), STORE_GAME_ACTIVE);
	o = new_mail();
	ck_assert_uint_eq(o.n, 1);
	ck_assert_has(o.m[0].body, "Refused (line 2)");
	ck_assert_has(o.m[0].body, "not run");
	ck_assert_lacks(o.m[0].body, "You resigned");
	outbox_free(&o);
}
END_TEST

START_TEST(test_bare_move_in_thread)
{
	struct server_outcome out;
	struct outbox o;
	const struct store_outbox_msg *m;
	char subject[256], refs[256], expect[128], *p;
	int64_t g;

	register_three();
	g = start_game("");
	/* Alice answers her "your move" mail with only a move. */
	ALICE_SAYS("games\n");
	o = new_mail();
	ck_assert_has(o.m[0].body, "YOUR MOVE");
	outbox_free(&o);

	snprintf(subject, sizeof(subject), "Re: [ashes #%" PRId64 "] alice vs bob",
		 g);
	{
		const char *body =
			"e5-e7\n\nOn Sat, 3 Jan 2026 at 10:00, Ashes <ashes@ashes.test> wrote:\n"
			"> move 1 1 MOVE\n";
		out = send_as(ALICE_FP, ALICE, subject, body);
	}
	ck_assert_int_eq(out.status, SERVER_OK);
	ck_assert_int_eq(ply_of(g), 1);
	o = new_mail();
	m = mail_to(&o, ALICE, "reply");
	snprintf(expect, sizeof(expect), "Taken: move %" PRId64 " 1 e5-e7", g);
	ck_assert_has(m->body, expect);
	/* Bob's notice is in the game's thread. */
	m = mail_to(&o, BOB, "your-move");
	ck_assert_ptr_nonnull(m);
	snprintf(expect, sizeof(expect), "Subject: [ashes #%" PRId64 "] ", g);
	ck_assert_has(m->headers, expect);
	ck_assert_has(m->headers, "In-Reply-To: <ashes.");
	ck_assert_has(m->headers, "References: <ashes.");
	ck_assert_has(m->headers, "Auto-Submitted: auto-generated");
	/* Bob replies by References only (a client that mangled the
	 * subject). */
	p = strstr(m->headers, "Message-ID: ");
	ck_assert_ptr_nonnull(p);
	snprintf(refs, sizeof(refs), "%.*s", (int)strcspn(p + 12, "\n"), p + 12);
	outbox_free(&o);
	{
		char quoted[256];
		struct mail mm = { .fp = BOB_FP, .from = BOB,
				   .subject = "Re: my move", .refs = refs,
				   .body = "e5-e1\n" };

		/* Only the unsigned References name the game: refused. */
		ck_assert_int_eq(deliver(&mm, &out), 0);
		ck_assert_int_eq(out.status, SERVER_REFUSED);
		o = new_mail();
		ck_assert_has(o.m[0].body, "only the mail's headers");
		outbox_free(&o);
		ck_assert_int_eq(ply_of(g), 1);
		/* The quoted text names another game: refused too. */
		snprintf(quoted, sizeof(quoted), "e5-e1\n\n> bob, it is your "
			 "move in game %" PRId64 ".\n", g + 1);
		mm.body = quoted;
		ck_assert_int_eq(deliver(&mm, &out), 0);
		ck_assert_int_eq(out.status, SERVER_REFUSED);
		o = new_mail();
		outbox_free(&o);
		/* The quote confirms it. */
		snprintf(quoted, sizeof(quoted), "E3-E5\n\n> bob, it is your "
			 "move in game %" PRId64 ".\n", g);
		mm.body = quoted;
		/* e3 is empty: a growth inward is illegal, named as such. */
		ck_assert_int_eq(deliver(&mm, &out), 0);
		ck_assert_int_eq(out.status, SERVER_REFUSED);
		o = new_mail();
		ck_assert_has(o.m[0].body,
			      core_error_string(CORE_ERR_GROWTH_NOT_OUTWARD));
		outbox_free(&o);
		snprintf(quoted, sizeof(quoted), "e5-e1\n\n> bob, it is your "
			 "move in game %" PRId64 ".\n", g);
		mm.body = quoted;
		ck_assert_int_eq(deliver(&mm, &out), 0);
		ck_assert_int_eq(out.status, SERVER_OK);
		ck_assert_int_eq(ply_of(g), 2);
		o = new_mail();
		outbox_free(&o);
	}
	/* Outside a thread a bare move has no game. */
	out = ALICE_SAYS("e5-e3\n");
	ck_assert_int_eq(out.status, SERVER_REFUSED);
	o = new_mail();
	ck_assert_has(o.m[0].body, "needs a game");
	outbox_free(&o);
}
END_TEST

START_TEST(test_quote_styles)
{
	struct outbox o;
	char subject[128], body[1024];
	int64_t g;

	register_three();
	g = start_game("");
	snprintf(subject, sizeof(subject), "Re: [ashes #%" PRId64 "] alice vs bob", g);
	/* mutt: attribution, quoted move (must not run), then a command. */
	snprintf(body, sizeof(body),
		 "* Ashes <ashes@ashes.test> [2026-01-03 10:00]:\n"
		 "> move %" PRId64 " 1 e5-e9\n\nboard\n\n-- \nmove %" PRId64 " 1 e5-e9\n",
		 g, g);
	ck_assert_int_eq(send_as(ALICE_FP, ALICE, subject, body).status, SERVER_OK);
	ck_assert_int_eq(ply_of(g), 0);
	/* Outlook: everything after the original-message line is dropped. */
	snprintf(body, sizeof(body),
		 "moves\r\n\r\n-----Original Message-----\r\nFrom: Ashes\r\n\r\n"
		 "move %" PRId64 " 1 e5-e9\r\n", g);
	ck_assert_int_eq(send_as(ALICE_FP, ALICE, subject, body).status, SERVER_OK);
	ck_assert_int_eq(ply_of(g), 0);
	o = new_mail();
	ck_assert_uint_eq(o.n, 2);
	ck_assert_has(o.m[1].body, "384 legal moves");
	ck_assert_has(o.m[1].body, "was\nignored");
	outbox_free(&o);
}
END_TEST

/* ---- idempotence and replay -------------------------------------------- */

START_TEST(test_idempotence)
{
	struct mail m = { .fp = NULL, .from = "mallory@evil.example",
			  .body = "help\n", .msgid = "same@client.test" };
	struct server_outcome out, first;
	struct outbox o;
	char body[128], code[32];
	int64_t g;

	/* An unsigned mail takes the Message-ID of alice's next mail first
	 * (the outside test's pre-emption): alice's own mail is still hers. */
	ck_assert_int_eq(deliver(&m, &first), 0);
	o = new_mail();
	outbox_free(&o);
	m.fp = ALICE_FP;
	m.from = ALICE;
	m.body = "register alice\n";
	m.msgid = "<same@client.test>";
	ck_assert_int_eq(deliver(&m, &out), 0);
	ck_assert_int_eq(out.status, SERVER_OK);
	ck_assert_int_ne(out.inbound_id, first.inbound_id);
	ck_assert_uint_eq(out.queued, 1);
	o = new_mail();
	ck_assert_has(o.m[0].body, "Welcome, alice");
	ck_assert_int_eq(sscanf(strstr(o.m[0].body, "    confirm "),
				" confirm %31s", code), 1);
	outbox_free(&o);

	/* Same raw bytes, new Message-ID (and a move in them). */
	snprintf(body, sizeof(body), "confirm %s\n", code);
	ALICE_SAYS(body);
	join(BOB_FP, BOB, "bob");
	o = new_mail();
	outbox_free(&o);
	g = start_game("");
	snprintf(body, sizeof(body), "move %" PRId64 " 1 e5-e7\n", g);
	{
		struct mail mv = { .fp = ALICE_FP, .from = ALICE, .body = body,
				   .raw = "the same raw bytes" };
		ck_assert_int_eq(deliver(&mv, &out), 0);
		ck_assert_int_eq(out.status, SERVER_OK);
		o = new_mail();
		outbox_free(&o);
		ck_assert_int_eq(deliver(&mv, &out), 0);
		ck_assert_int_eq(out.status, SERVER_DUPLICATE);
		o = new_mail();
		ck_assert_uint_eq(o.n, 0);
		outbox_free(&o);
	}
	ck_assert_int_eq(ply_of(g), 1);
}
END_TEST

START_TEST(test_signature_replay)
{
	struct server_outcome out;
	struct outbox o;
	char body[128];
	int64_t g, first_in;
	struct store_inbound *in = NULL;
	const char *error;

	register_three();
	g = start_game("");
	snprintf(body, sizeof(body), "move %" PRId64 " 1 e5-e7\n", g);
	{
		struct mail m = { .fp = ALICE_FP, .from = ALICE, .body = body,
				  .signed_text = "signed: move 1 e5-e7" };
		ck_assert_int_eq(deliver(&m, &out), 0);
		ck_assert_int_eq(out.status, SERVER_OK);
		first_in = out.inbound_id;
		o = new_mail();
		outbox_free(&o);
		/* The same signed text in a new mail (new Message-ID, new
		 * bytes around it): refused once, nothing applied. */
		m.body = "move 1 1 e5-e7\nresign 1\n";
		ck_assert_int_eq(deliver(&m, &out), 0);
		ck_assert_int_eq(out.status, SERVER_REPLAY);
		ck_assert_int_ne(out.inbound_id, first_in);
		o = new_mail();
		ck_assert_uint_eq(o.n, 1);
		ck_assert_str_eq(o.m[0].recipient, ALICE);
		ck_assert_has(o.m[0].body, "used in an earlier mail");
		outbox_free(&o);
	}
	ck_assert_int_eq(status_of(g), STORE_GAME_ACTIVE);
	ck_assert_int_eq(ply_of(g), 1);
	ck_assert_int_eq(store_inbound_load(st, out.inbound_id, &in, &error), 1);
	ck_assert_has(in->outcome, "replay");
	store_inbound_free(&in);
}
END_TEST

/* ---- games between the same players, observers, draws ------------------ */

START_TEST(test_concurrent_games)
{
	struct outbox o;
	char body[256];
	int64_t g1, g2;

	register_three();
	g1 = start_game("");
	g2 = start_game("size=4");
	ck_assert_int_ne(g1, g2);
	/* Both moves in one mail, in two games. */
	snprintf(body, sizeof(body),
		 "move %" PRId64 " 1 e5-e7\nmove %" PRId64 " 1 d4-d7\n", g1, g2);
	ck_assert_int_eq(ALICE_SAYS(body).status, SERVER_OK);
	ck_assert_int_eq(ply_of(g1), 1);
	ck_assert_int_eq(ply_of(g2), 1);
	o = new_mail();
	/* One reply, one notice to bob per game. */
	ck_assert_uint_eq(count_to(&o, ALICE), 1);
	ck_assert_uint_eq(count_to(&o, BOB), 2);
	outbox_free(&o);
	snprintf(body, sizeof(body), "move %" PRId64 " 2 d4-h8\n", g2);
	ck_assert_int_eq(BOB_SAYS(body).status, SERVER_REFUSED); /* no h8 on size 4 */
	o = new_mail();
	ck_assert_has(o.m[0].body, core_error_string(CORE_ERR_UNKNOWN_CELL));
	outbox_free(&o);
	snprintf(body, sizeof(body), "move %" PRId64 " 2 e5-e3\n", g1);
	ck_assert_int_eq(BOB_SAYS(body).status, SERVER_OK);
	ck_assert_int_eq(ply_of(g1), 2);
	ck_assert_int_eq(ply_of(g2), 1);
	o = new_mail();
	outbox_free(&o);
	BOB_SAYS("games\n");
	o = new_mail();
	{
		const struct store_outbox_msg *r = mail_to(&o, BOB, "reply");
		char line[64];
		snprintf(line, sizeof(line), "#%" PRId64 "  vs alice  active, ply 2  YOUR MOVE", g2);
		ck_assert_has(r->body, line);
		snprintf(line, sizeof(line), "#%" PRId64 "  vs alice  active, ply 3  (", g1);
		ck_assert_has(r->body, line);
	}
	outbox_free(&o);
}
END_TEST

START_TEST(test_observers)
{
	struct outbox o;
	char body[128];
	int64_t g;

	register_three();
	g = start_game("");
	snprintf(body, sizeof(body), "observe %" PRId64 "\n", g);
	ck_assert_int_eq(CAROL_SAYS(body).status, SERVER_OK);
	o = new_mail();
	ck_assert_has(o.m[0].body, "You now observe game");
	outbox_free(&o);
	ck_assert_int_eq(ALICE_SAYS(body).status, SERVER_REFUSED);
	o = new_mail();
	ck_assert_has(o.m[0].body, "you play in game");
	outbox_free(&o);

	snprintf(body, sizeof(body), "move %" PRId64 " 1 e5-e7\n", g);
	ALICE_SAYS(body);
	o = new_mail();
	ck_assert_uint_eq(o.n, 3);
	ck_assert_ptr_nonnull(mail_to(&o, CAROL, "observer"));
	ck_assert_has(mail_to(&o, CAROL, "observer")->body, "unobserve");
	ck_assert_has(mail_to(&o, CAROL, "observer")->body, "e5-e7");
	outbox_free(&o);

	snprintf(body, sizeof(body), "unobserve #%" PRId64 "\n", g);
	ck_assert_int_eq(CAROL_SAYS(body).status, SERVER_OK);
	o = new_mail();
	ck_assert_has(o.m[0].body, "no longer observe");
	outbox_free(&o);
	snprintf(body, sizeof(body), "move %" PRId64 " 2 e5-e3\n", g);
	ck_assert_int_eq(BOB_SAYS(body).status, SERVER_OK);
	o = new_mail();
	ck_assert_uint_eq(o.n, 2);
	ck_assert_uint_eq(count_to(&o, CAROL), 0);
	outbox_free(&o);
}
END_TEST

START_TEST(test_draw_and_resign)
{
	struct outbox o;
	char body[128];
	int64_t g, g2;
	struct store_game *row = NULL;
	const char *error;

	register_three();
	g = start_game("");
	snprintf(body, sizeof(body), "draw accept %" PRId64 "\n", g);
	ck_assert_int_eq(BOB_SAYS(body).status, SERVER_REFUSED);
	o = new_mail();
	ck_assert_has(o.m[0].body, "has not offered a draw");
	outbox_free(&o);
	snprintf(body, sizeof(body), "draw offer %" PRId64 "\n", g);
	ck_assert_int_eq(ALICE_SAYS(body).status, SERVER_OK);
	o = new_mail();
	ck_assert_has(mail_to(&o, BOB, "draw")->body, "alice offers a draw");
	outbox_free(&o);
	ck_assert_int_eq(ALICE_SAYS(body).status, SERVER_REFUSED);
	o = new_mail();
	ck_assert_has(o.m[0].body, "already offered");
	outbox_free(&o);
	snprintf(body, sizeof(body), "draw decline %" PRId64 "\n", g);
	ck_assert_int_eq(BOB_SAYS(body).status, SERVER_OK);
	o = new_mail();
	ck_assert_has(mail_to(&o, ALICE, "draw")->body, "declined your draw");
	outbox_free(&o);
	snprintf(body, sizeof(body), "draw offer %" PRId64 "\n", g);
	ck_assert_int_eq(BOB_SAYS(body).status, SERVER_OK);
	o = new_mail();
	outbox_free(&o);
	snprintf(body, sizeof(body), "draw accept %" PRId64 "\n", g);
	ck_assert_int_eq(ALICE_SAYS(body).status, SERVER_OK);
	o = new_mail();
	ck_assert_ptr_nonnull(mail_to(&o, ALICE, "result"));
	ck_assert_ptr_nonnull(mail_to(&o, BOB, "result"));
	ck_assert_has(mail_to(&o, BOB, "result")->body, "1/2-1/2");
	outbox_free(&o);
	ck_assert_int_eq(store_game_load(st, g, &row, &error), 1);
	ck_assert_int_eq(row->status, STORE_GAME_FINISHED);
	ck_assert_str_eq(row->result, "1/2-1/2");
	store_game_free(&row);
	/* A finished game takes no more moves, and shows its end. */
	snprintf(body, sizeof(body), "move %" PRId64 " 1 e5-e7\n", g);
	ck_assert_int_eq(ALICE_SAYS(body).status, SERVER_REFUSED);
	o = new_mail();
	ck_assert_has(o.m[0].body, "is finished");
	outbox_free(&o);
	snprintf(body, sizeof(body), "board %" PRId64 "\n", g);
	ck_assert_int_eq(CAROL_SAYS(body).status, SERVER_OK);
	o = new_mail();
	ck_assert_has(o.m[0].body, "The game is over");
	outbox_free(&o);

	/* draw=no games refuse offers; resign ends them. */
	g2 = start_game("draw=no");
	snprintf(body, sizeof(body), "draw offer %" PRId64 "\n", g2);
	ck_assert_int_eq(ALICE_SAYS(body).status, SERVER_REFUSED);
	o = new_mail();
	ck_assert_has(o.m[0].body, "without draw offers");
	outbox_free(&o);
	snprintf(body, sizeof(body), "resign %" PRId64 "\n", g2);
	ck_assert_int_eq(BOB_SAYS(body).status, SERVER_OK);
	o = new_mail();
	ck_assert_has(mail_to(&o, BOB, "reply")->body, "You resigned");
	ck_assert_has(mail_to(&o, ALICE, "result")->body, "1-0");
	outbox_free(&o);
	ck_assert_int_eq(store_game_load(st, g2, &row, &error), 1);
	ck_assert_str_eq(row->result, "1-0");
	ck_assert_str_eq(row->end_reason,
			 core_end_reason_name(CORE_END_RESIGNATION));
	store_game_free(&row);
}
END_TEST

START_TEST(test_views)
{
	struct outbox o;
	char body[256];
	int64_t g;

	register_three();
	g = start_game("");
	snprintf(body, sizeof(body),
		 "move %" PRId64 " 1 e5-e7\npreview %" PRId64 " e5-e3\n"
		 "moves %" PRId64 "\nhistory %" PRId64 "\n", g, g, g, g);
	ck_assert_int_eq(ALICE_SAYS(body).status, SERVER_OK);
	o = new_mail();
	{
		const char *r = mail_to(&o, ALICE, "reply")->body;
		ck_assert_has(r, "Preview only");
		ck_assert_has(r, "Black grew a 2-stack on e3 from e5");
		ck_assert_has(r, "Record:");
		ck_assert_has(r, "e5-e7");
	}
	outbox_free(&o);
	ck_assert_int_eq(ply_of(g), 1);
}
END_TEST

/* A whole game on the smallest board, played by replies in the thread
 * until the rules end it. */
START_TEST(test_whole_game)
{
	struct outbox o;
	struct server_outcome out;
	char subject[128], mv[CORE_MOVE_TEXT_MAX], body[64];
	int64_t g, alice_id;
	int plies = 0;
	struct store_player *alice = NULL;
	const char *err0;

	register_three();
	ck_assert_int_eq(store_player_by_name(st, "alice", &alice, &err0), 1);
	alice_id = alice->id;
	store_player_free(&alice);
	g = start_game("size=3");
	snprintf(subject, sizeof(subject), "Re: [ashes #%" PRId64 "] alice vs bob", g);
	while (status_of(g) == STORE_GAME_ACTIVE && plies < 400) {
		struct core_record rec;
		int64_t who;
		struct store_game *row = NULL;
		const char *error;

		position_of(g, &rec);
		ck_assert_int_eq(store_game_load(st, g, &row, &error), 1);
		who = rec.pos.to_move == CORE_WHITE ? row->white_id : row->black_id;
		store_game_free(&row);
		record_free(&rec);
		first_legal(g, mv);
		/* a reply quotes the mail it answers, which names the game */
		snprintf(body, sizeof(body), "%s\n\n> your move in game %" PRId64
			 ".\n", mv, g);
		out = send_as(who == alice_id ? ALICE_FP : BOB_FP,
			      who == alice_id ? ALICE : BOB,
			      subject, body);
		ck_assert_msg(out.status == SERVER_OK, "%s", out.outcome);
		o = new_mail();
		outbox_free(&o);
		plies++;
	}
	ck_assert_int_eq(status_of(g), STORE_GAME_FINISHED);
	{
		struct store_game *row = NULL;
		const char *error;
		struct core_record rec;
		ck_assert_int_eq(store_game_load(st, g, &row, &error), 1);
		position_of(g, &rec);
		ck_assert_int_ne(rec.pos.result, CORE_ONGOING);
		ck_assert_str_eq(row->end_reason,
				 core_end_reason_name(rec.pos.end_reason));
		ck_assert_str_eq(row->result,
				 rec.pos.result == CORE_RESULT_WHITE ? "1-0" :
				 rec.pos.result == CORE_RESULT_BLACK ? "0-1" :
				 "1/2-1/2");
		record_free(&rec);
		store_game_free(&row);
	}
}
END_TEST

/* ---- failures and locks ---------------------------------------------- */

START_TEST(test_failure_rolls_back)
{
	struct outbox o;
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
		o = new_mail();
		ck_assert_uint_eq(o.n, 0);
		outbox_free(&o);
	}
	steps = failures;
	ck_assert_int_gt(steps, 5);
	ck_assert_int_eq(ply_of(g), 1);
	o = new_mail();
	ck_assert_uint_eq(o.n, 2);
	outbox_free(&o);
}
END_TEST

START_TEST(test_locked_by_another_process)
{
	struct server_outcome out;
	struct outbox o;
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
	o = new_mail();
	ck_assert_uint_eq(o.n, 2);
	outbox_free(&o);
}
END_TEST

START_TEST(test_help_and_no_commands)
{
	struct outbox o;
	char body[64];
	struct buf b = BUF_INIT;
	const char *error;

	ck_assert_int_eq(server_help_text(srv, &b, &error), 0);
	ck_assert_has(buf_str(&b), "move GAME PLY MOVE");
	buf_free(&b);
	ck_assert_int_eq(send_as(EVE_FP, "eve@x.example", "Hello", "\n> quoted\n").status,
			 SERVER_NO_COMMANDS);
	o = new_mail();
	ck_assert_has(o.m[0].body, "held no command");
	ck_assert_has(o.m[0].headers, "Subject: Re: Hello\n");
	outbox_free(&o);
	/* The Subject carries no command (nobody signs it), and the reply
	 * says so -- the outside test's "resign 2" in the Subject. */
	ck_assert_int_eq(send_as(EVE_FP, "eve@x.example", "help", "").status,
			 SERVER_NO_COMMANDS);
	o = new_mail();
	ck_assert_lacks(o.m[0].body, "register NAME");
	ck_assert_has(o.m[0].body, "Subject of your mail reads like a command");
	outbox_free(&o);
	register_three();
	{
		int64_t g = start_game("");
		char subject[64];

		snprintf(subject, sizeof(subject), "resign %" PRId64, g);
		snprintf(body, sizeof(body), "board %" PRId64 "\n", g);
		ck_assert_int_eq(send_as(ALICE_FP, ALICE, subject, body).status,
				 SERVER_OK);
		ck_assert_int_eq(status_of(g), STORE_GAME_ACTIVE);
		o = new_mail();
		ck_assert_has(o.m[0].body, "Subject of your mail reads like");
		outbox_free(&o);
	}
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
	struct outbox o;
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
		o = new_mail();
		ck_assert_uint_eq(o.n, 0);
		outbox_free(&o);
		ck_assert_uint_eq(out[0].queued, 0);
	}
	ck_assert_int_eq(out[0].status, SERVER_OK);
	ck_assert_int_eq(out[1].status, SERVER_OK);
	/* The third repeats the first's Message-ID inside the batch. */
	ck_assert_int_eq(out[2].status, SERVER_DUPLICATE);
	ck_assert_int_eq(out[2].inbound_id, out[0].inbound_id);
	o = new_mail();
	ck_assert_uint_eq(o.n, 2);
	outbox_free(&o);
}
END_TEST

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

/* `ashes games`, `ashes game show`, `ashes outbox list` on what the
 * service wrote. */
START_TEST(test_admin_views)
{
	struct outbox o;
	char body[128], args[64], *text;
	int64_t g;

	register_three();
	g = start_game("");
	snprintf(body, sizeof(body), "move %" PRId64 " 1 e5-e7\n", g);
	ALICE_SAYS(body);
	o = new_mail();
	outbox_free(&o);
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
}
END_TEST

/* A swap game: Black's swap at ply 2 exchanges the seats, and the first
 * mover (now Black) moves next. */
START_TEST(test_swap)
{
	struct outbox o;
	char body[128], expect[128];
	int64_t g;
	struct store_game *row = NULL;
	const char *error;
	int64_t alice_id, bob_id;

	register_three();
	g = start_game("swap");
	snprintf(body, sizeof(body), "move %" PRId64 " 1 e5-e7\n", g);
	ck_assert_int_eq(ALICE_SAYS(body).status, SERVER_OK);
	o = new_mail();
	ck_assert_has(mail_to(&o, BOB, "your-move")->body, "swap");
	outbox_free(&o);
	ck_assert_int_eq(store_game_load(st, g, &row, &error), 1);
	alice_id = row->white_id;
	bob_id = row->black_id;
	store_game_free(&row);
	snprintf(body, sizeof(body), "move %" PRId64 " 2 SWAP\n", g);
	ck_assert_int_eq(BOB_SAYS(body).status, SERVER_OK);
	ck_assert_int_eq(store_game_load(st, g, &row, &error), 1);
	ck_assert(row->swapped);
	ck_assert_int_eq(row->white_id, bob_id);
	ck_assert_int_eq(row->black_id, alice_id);
	store_game_free(&row);
	o = new_mail();
	/* alice, now Black, is to play ply 3. */
	snprintf(expect, sizeof(expect), "move %" PRId64 " 3 MOVE", g);
	ck_assert_has(mail_to(&o, ALICE, "your-move")->body, expect);
	ck_assert_has(mail_to(&o, ALICE, "your-move")->body,
		      "bob White, alice Black");
	outbox_free(&o);
	ALICE_SAYS("games\n");
	o = new_mail();
	ck_assert_has(o.m[0].body, "YOUR MOVE");
	outbox_free(&o);
	/* A swap at ply 4 is refused by the rules. */
	snprintf(body, sizeof(body), "move %" PRId64 " 3 e5-e3\n", g);
	ck_assert_int_eq(ALICE_SAYS(body).status, SERVER_OK);
	o = new_mail();
	outbox_free(&o);
	snprintf(body, sizeof(body), "move %" PRId64 " 4 swap\n", g);
	ck_assert_int_eq(BOB_SAYS(body).status, SERVER_REFUSED);
	o = new_mail();
	ck_assert_has(o.m[0].body,
		      core_error_string(CORE_ERR_SWAP_NOT_ALLOWED));
	outbox_free(&o);
}
END_TEST

/* A draw offer lapses when the opponent moves instead of answering. */
START_TEST(test_draw_lapses_on_move)
{
	struct outbox o;
	char body[128];
	int64_t g;

	register_three();
	g = start_game("");
	snprintf(body, sizeof(body), "draw offer %" PRId64 "\nmove %" PRId64
		 " 1 e5-e7\n", g, g);
	ck_assert_int_eq(ALICE_SAYS(body).status, SERVER_OK);
	o = new_mail();
	ck_assert_has(mail_to(&o, BOB, "your-move")->body, "alice has offered a draw");
	outbox_free(&o);
	snprintf(body, sizeof(body), "move %" PRId64 " 2 e5-e3\n", g);
	ck_assert_int_eq(BOB_SAYS(body).status, SERVER_OK);
	o = new_mail();
	outbox_free(&o);
	snprintf(body, sizeof(body), "draw accept %" PRId64 "\n", g);
	ck_assert_int_eq(BOB_SAYS(body).status, SERVER_REFUSED);
	o = new_mail();
	ck_assert_has(o.m[0].body, "has not offered a draw");
	outbox_free(&o);
}
END_TEST

/* The reply says when text outside the signature was ignored; the
 * operator's limits on listed moves and commands per mail. */
START_TEST(test_notes_and_limits)
{
	struct mail m = { .fp = ALICE_FP, .from = ALICE,
			  .body = "register alice\n", .unsigned_ignored = true };
	struct server_outcome out;
	struct server_config cfg;
	struct outbox o;
	const char *error;
	char body[128];
	int64_t g;

	ck_assert_int_eq(deliver(&m, &out), 0);
	{
		char code[32];
		struct outbox c = new_mail();
		ck_assert_has(c.m[0].body, "outside the signed part");
		ck_assert_int_eq(sscanf(strstr(c.m[0].body, "    confirm "),
					" confirm %31s", code), 1);
		outbox_free(&c);
		snprintf(body, sizeof(body), "confirm %s\n", code);
		ALICE_SAYS(body);
	}
	join(BOB_FP, BOB, "bob");
	o = new_mail();
	outbox_free(&o);

	server_free(&srv);
	server_config_default(&cfg);
	cfg.domain = DOMAIN;
	cfg.templates = ts;
	cfg.max_listed_moves = 100;
	cfg.max_commands = 2;
	ck_assert_int_eq(server_new(st, &cfg, &srv, &error), 0);
	g = start_game("");
	snprintf(body, sizeof(body), "move %" PRId64 " 1 e5-e7\n", g);
	ALICE_SAYS(body);
	o = new_mail();
	snprintf(body, sizeof(body), "send \"moves %" PRId64 "\"", g);
	ck_assert_has(mail_to(&o, BOB, "your-move")->body, body);
	ck_assert_lacks(mail_to(&o, BOB, "your-move")->body, "Growth from");
	outbox_free(&o);
	out = ALICE_SAYS("games\ngames\ngames\n");
	ck_assert_int_eq(out.status, SERVER_REFUSED);
	ck_assert_int_eq(out.commands_run, 2);
	ck_assert_int_eq(out.failed_line, 3);
	o = new_mail();
	ck_assert_has(o.m[0].body, "too many commands");
	outbox_free(&o);
}
END_TEST

/* The picture for the text/html part: the board at the mail's ply. */
START_TEST(test_board_svg)
{
	struct outbox o;
	struct buf b = BUF_INIT;
	const char *error;
	char body[128];
	int64_t g;

	register_three();
	g = start_game("");
	snprintf(body, sizeof(body), "move %" PRId64 " 1 e5-e7\n", g);
	ALICE_SAYS(body);
	o = new_mail();
	ck_assert_has(mail_to(&o, BOB, "your-move")->headers, "X-Ashes-Ply: 1\n");
	outbox_free(&o);
	snprintf(body, sizeof(body), "move %" PRId64 " 2 e5-e3\n", g);
	BOB_SAYS(body);
	o = new_mail();
	outbox_free(&o);
	ck_assert_int_eq(server_board_svg(srv, g, 1, &b, &error), 0);
	ck_assert_has(buf_str(&b), "<svg");
	/* After ply 1 there is no stack on e3 yet; after ply 2 there is:
	 * the pictures differ. */
	{
		struct buf b2 = BUF_INIT;
		ck_assert_int_eq(server_board_svg(srv, g, 2, &b2, &error), 0);
		ck_assert_str_ne(buf_str(&b), buf_str(&b2));
		buf_free(&b2);
	}
	buf_reset(&b);
	ck_assert_int_eq(server_board_svg(srv, g, 3, &b, &error), -1);
	ck_assert_has(error, "no ply 3");
	ck_assert_int_eq(server_board_svg(srv, 999, 0, &b, &error), -1);
	buf_free(&b);
}
END_TEST

/* A game with a forced pass: found by random play in the rules core, then
 * played through the service; the stored plies (passes recorded with no
 * player) equal the core's record, and the game still loads. */
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
		struct outbox o;

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
		o = new_mail();
		outbox_free(&o);
	}
	ck_assert_int_eq(status_of(g), STORE_GAME_FINISHED);
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
	store_moves_free(&stored, nstored);
	{
		struct outbox o;
		snprintf(body, sizeof(body), "history %" PRId64 "\n", g);
		ck_assert_int_eq(CAROL_SAYS(body).status, SERVER_OK);
		o = new_mail();
		ck_assert_has(o.m[0].body, "pass");
		outbox_free(&o);
	}
	record_free(&rec);
}
END_TEST

/* The daemon checks the templates at start-up: all there by default; an
 * override folder with a broken one is refused, naming it. */
START_TEST(test_check_templates)
{
	char over[PATH_MAX + 8], file[PATH_MAX + 32], tdir[PATH_MAX];
	const char *src = getenv("ASHES_SRCDIR"), *error = NULL;
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
	snprintf(tdir, sizeof(tdir), "%s/templates", src ? src : "..");
	bad = template_set_new(over, tdir);
	server_config_default(&cfg);
	cfg.domain = DOMAIN;
	cfg.templates = bad;
	ck_assert_int_eq(server_new(st, &cfg, &s2, &error), 0);
	ck_assert_int_eq(server_check_templates(s2, &error), -1);
	ck_assert_has(error, "your-move.txt");
	server_free(&s2);
	template_set_free(&bad);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("server");
	TCase *tc = tcase_create("service");
	SRunner *sr;
	int failed;

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_register);
	tcase_add_test(tc, test_register_cannot_squat);
	tcase_add_test(tc, test_unknown_key_may_only_register);
	tcase_add_test(tc, test_reply_goes_to_registered_address);
	tcase_add_test(tc, test_unsigned_is_weak);
	tcase_add_test(tc, test_challenge_accept);
	tcase_add_test(tc, test_challenge_refusals);
	tcase_add_test(tc, test_decline_withdraw_open);
	tcase_add_test(tc, test_moves_stale_turn_illegal);
	tcase_add_test(tc, test_commands_stop_at_first_refusal);
	tcase_add_test(tc, test_bare_move_in_thread);
	tcase_add_test(tc, test_quote_styles);
	tcase_add_test(tc, test_idempotence);
	tcase_add_test(tc, test_signature_replay);
	tcase_add_test(tc, test_concurrent_games);
	tcase_add_test(tc, test_observers);
	tcase_add_test(tc, test_draw_and_resign);
	tcase_add_test(tc, test_views);
	tcase_add_test(tc, test_whole_game);
	tcase_add_test(tc, test_failure_rolls_back);
	tcase_add_test(tc, test_locked_by_another_process);
	tcase_add_test(tc, test_help_and_no_commands);
	tcase_add_test(tc, test_batch);
	tcase_add_test(tc, test_swap);
	tcase_add_test(tc, test_check_templates);
	tcase_add_test(tc, test_forced_pass);
	tcase_add_test(tc, test_board_svg);
	tcase_add_test(tc, test_draw_lapses_on_move);
	tcase_add_test(tc, test_notes_and_limits);
	tcase_add_test(tc, test_admin_views);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed != 0;
}
