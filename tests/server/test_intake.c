/* test_intake.c -- the game service's decisions about a mail as a whole
 * (intake.c) and the account commands (identity.c), case by case from the
 * hostile-mail review: the rate limit counted once however often a mail is
 * handed out, a forged delivery report, backscatter to forged senders,
 * revocation certificates, key replacement, the registration cap, and one
 * mail whose data breaks a rule of the store costing only that mail. */
#include <inttypes.h>
#include <sqlite3.h>

#include "server_test.h"
#include "../check_run.h"

#define NEW_FP "1111111111111111111111111111111111111111"

static void reconfigure(unsigned rate, unsigned registrations)
{
	struct server_config cfg;

	test_config(&cfg, ts);
	cfg.sender_rate_limit = rate;
	cfg.registrations_per_hour = registrations;
	cfg.our_address = "ashes@" DOMAIN;
	server_restart(&cfg);
}

static long rate_count(const char *key)
{
	long n = -1;
	const char *error;

	ck_assert_int_eq(store_rate_get(st, key, now, 3600, &n, &error), 0);
	return n;
}

/* Every reading is recorded: a duplicate gets a row of its own, naming
 * the first reading, with its own time and no bytes; nothing is queued. */
START_TEST(test_duplicate_recorded)
{
	struct mail m = { .fp = ALICE_FP, .from = ALICE, .body = "games\n",
			  .raw = "bytes read twice" };
	struct server_outcome first, again;
	struct store_inbound *rec = NULL;
	struct outbox o;
	const char *error;
	int64_t when;

	join(ALICE_FP, ALICE, "alice");
	mail_drop();
	deliver_is(&m, &first, SERVER_OK);
	ck_assert_int_eq(deliver(&m, &again), 0);
	when = now;
	ck_assert_int_eq(again.status, SERVER_DUPLICATE);
	ck_assert_int_eq(again.inbound_id, first.inbound_id);
	ck_assert_uint_eq(again.queued, 0);
	o = new_mail();
	ck_assert_uint_eq(o.n, 1); /* the first reading's reply only */
	outbox_free(&o);
	/* the row after the first reading is the duplicate's */
	ck_assert_int_eq(store_inbound_load(st, first.inbound_id + 1, &rec,
					    &error), 1);
	ck_assert_int_eq(rec->duplicate_of, first.inbound_id);
	ck_assert_int_eq(rec->received, when);
	ck_assert_uint_eq(rec->raw_len, 0);
	ck_assert_str_eq(rec->sender_address, ALICE);
	ck_assert_str_eq(rec->outcome, again.outcome);
	ck_assert_has(rec->outcome, "duplicate of inbound ");
	store_inbound_free(&rec);
	/* the first reading is as it was */
	ck_assert_int_eq(store_inbound_load(st, first.inbound_id, &rec,
					    &error), 1);
	ck_assert_int_eq(rec->duplicate_of, 0);
	ck_assert_str_eq(rec->outcome, "ok: 1 command");
	store_inbound_free(&rec);
}
END_TEST

/* A mail handed out twice (a crash before the mailbox heard of the
 * commit) counts once against its sender. */
START_TEST(test_rate_counted_once)
{
	struct mail m = { .fp = ALICE_FP, .from = ALICE, .body = "games\n",
			  .raw = "the very same bytes" };
	struct server_outcome out;
	struct outbox o;

	reconfigure(2, 0);
	join(ALICE_FP, ALICE, "alice");
	mail_drop();
	/* every mail counts, join's two included; a new hour starts afresh */
	ck_assert_int_eq(rate_count(ALICE_FP), 2);
	now += 3600;
	ck_assert_int_eq(rate_count(ALICE_FP), 0);
	deliver_is(&m, &out, SERVER_OK);
	deliver_is(&m, &out, SERVER_DUPLICATE);
	ck_assert_int_eq(rate_count(ALICE_FP), 1);
	/* the limit: one more answered, the next saying so, then silence */
	m.raw = NULL;
	deliver_is(&m, &out, SERVER_OK);
	deliver_is(&m, &out, SERVER_MAIL_REFUSED);
	ck_assert_str_eq(out.outcome, "refused: rate_limited");
	deliver_is(&m, &out, SERVER_IGNORED);
	o = new_mail();
	ck_assert_uint_eq(o.n, 3);
	/* the refusal goes to the registered player, with the limit */
	ck_assert_str_eq(o.m[2].recipient, ALICE);
	ck_assert_has(o.m[2].body, "2 mails an hour");
	outbox_free(&o);
	/* bob is not held up by alice's flood */
	join(BOB_FP, BOB, "bob");
	o = new_mail();
	ck_assert_uint_eq(count_to(&o, BOB), 1);
	outbox_free(&o);
}
END_TEST

/* Only a report naming a Message-ID of ours marks an address failing. */
/* The send budget (limits.c): the mails queued for a mail handed out
 * twice count once; the counters are forgotten once their windows are
 * long over. */
START_TEST(test_budget_counted_once)
{
	struct mail m = { .fp = ALICE_FP, .from = ALICE, .body = "games\n",
			  .raw = "the same bytes, twice" };
	struct server_config cfg;
	struct server_outcome out;
	struct outbox o;
	char key[64];
	struct store_player *p = NULL;
	int64_t mails = 0, bytes = 0, start = 0, pid;
	const char *error;

	test_config(&cfg, ts);
	cfg.limits.mails_per_hour = 3;
	server_restart(&cfg);
	join(ALICE_FP, ALICE, "alice");
	mail_drop();
	now += 3600;
	deliver_is(&m, &out, SERVER_OK);
	deliver_is(&m, &out, SERVER_DUPLICATE);
	ck_assert_int_eq(store_player_by_fingerprint(st, ALICE_FP, &p,
						     &error), 1);
	pid = p->id;
	store_player_free(&p);
	snprintf(key, sizeof(key), "sent-mails:%" PRId64, pid);
	ck_assert_int_eq(store_rate_peek(st, key, now, 3600, &mails, &start,
					 &error), 0);
	ck_assert_int_eq(mails, 1);
	snprintf(key, sizeof(key), "sent-bytes:%" PRId64, pid);
	ck_assert_int_eq(store_rate_peek(st, key, now, 3600, &bytes, NULL,
					 &error), 0);
	ck_assert_int_gt(bytes, 0);
	/* two more, the third over: one notice, then nothing */
	m.raw = NULL;
	ck_assert_int_eq(deliver(&m, &out), 0);
	ck_assert_int_eq(deliver(&m, &out), 0);
	deliver_is(&m, &out, SERVER_MAIL_REFUSED);
	ck_assert_str_eq(out.outcome, "refused: send_budget");
	deliver_is(&m, &out, SERVER_IGNORED);
	o = new_mail();
	ck_assert_uint_eq(o.n, 4);
	ck_assert_has(o.m[3].body, "3 mails");
	outbox_free(&o);
	/* two days on, the counters are forgotten */
	now += 2 * 86400 + 3600;
	ck_assert_int_eq(server_prune_rates(srv, now, &error), 0);
	snprintf(key, sizeof(key), "sent-mails:%" PRId64, pid);
	ck_assert_int_eq(store_rate_peek(st, key, start + 60, 3600, &mails,
					 NULL, &error), 0);
	ck_assert_int_eq(mails, 0);
}
END_TEST

START_TEST(test_forged_dsn)
{
	const char *guessed[] = { "<ashes.0.0.1.0@" DOMAIN ">",
				  "<t3@client.test>" };
	const char *ours[1];
	struct mail m = { .from = "MAILER-DAEMON@relay.example", .body = "",
			  .silent = "bounce", .bounce_ids = guessed,
			  .nbounce = 2 };
	struct store_player *p = NULL;
	struct server_outcome out;
	struct outbox o;
	const char *error;
	char id[300];

	join(ALICE_FP, ALICE, "alice");
	o = new_mail();
	ck_assert_uint_eq(o.n, 1);
	/* our Message-IDs carry a random part: nobody can write one */
	ck_assert_msg(strlen(o.m[0].message_id) > strlen("ashes.0.0.2.0@" DOMAIN) + 8,
		      "%s", o.m[0].message_id);
	snprintf(id, sizeof(id), "<%s>", o.m[0].message_id);
	outbox_free(&o);
	deliver_is(&m, &out, SERVER_IGNORED);
	ck_assert_has(out.outcome, "names no mail of ours");
	ck_assert_int_eq(store_player_by_name(st, "alice", &p, &error), 1);
	ck_assert(!p->addresses[0].failing);
	store_player_free(&p);
	mail_count_is(0);
	/* a real report about a mail we sent */
	ours[0] = id;
	m.bounce_ids = ours;
	m.nbounce = 1;
	ck_assert_int_eq(deliver(&m, &out), 0);
	ck_assert_has(out.outcome, "1 address marked failing");
	ck_assert_int_eq(store_player_by_name(st, "alice", &p, &error), 1);
	ck_assert(p->addresses[0].failing);
	store_player_free(&p);
	/* a mail signed by alice's key lifts the mark: she is there */
	{
		struct mail mine = { .fp = ALICE_FP, .from = ALICE,
				     .body = "games\n" };
		deliver_is(&mine, &out, SERVER_OK);
	}
	ck_assert_int_eq(store_player_by_name(st, "alice", &p, &error), 1);
	ck_assert(!p->addresses[0].failing);
	store_player_free(&p);
}
END_TEST

/* A refused mail nobody verified is answered once a day per address, and
 * never at an address that cannot be one or is an unknown one of ours. */
START_TEST(test_backscatter)
{
	struct mail m = { .from = "victim@example.net", .body = "resign 1\n",
			  .refusal = "unsigned" };
	struct server_outcome out;
	struct outbox o;

	reconfigure(60, 0);
	ck_assert_int_eq(deliver(&m, &out), 0);
	ck_assert_str_eq(out.outcome, "refused: unsigned");
	ck_assert_int_eq(deliver(&m, &out), 0);
	ck_assert_has(out.outcome, "not answered: this address had its "
		      "refusal today");
	o = new_mail();
	ck_assert_uint_eq(count_to(&o, "victim@example.net"), 1);
	outbox_free(&o);
	now += 24 * 3600 + 1;
	ck_assert_int_eq(deliver(&m, &out), 0);
	ck_assert_str_eq(out.outcome, "refused: unsigned");
	m.from = "nobody@" DOMAIN;
	ck_assert_int_eq(deliver(&m, &out), 0);
	ck_assert_has(out.outcome, "unknown address of our own domain");
	m.from = "two@at@example.net";
	ck_assert_int_eq(deliver(&m, &out), 0);
	ck_assert_has(out.outcome, "no usable From");
	m.from = NULL;
	ck_assert_int_eq(deliver(&m, &out), 0);
	ck_assert_has(out.outcome, "no usable From");
	mail_count_is(1);
}
END_TEST

/* A revocation certificate needs no signature: it proves itself (gpg
 * checked it); the key identifies nobody after it. */
START_TEST(test_revocation)
{
	const char *revoked[] = { ALICE_FP };
	struct mail m = { .from = "whoever@example.net", .body = "",
			  .refusal = "unsigned", .revoked = revoked,
			  .nrevoked = 1 };
	struct store_player *p = NULL;
	struct server_outcome out;
	struct outbox o;
	const char *error;

	register_three();
	deliver_is(&m, &out, SERVER_IGNORED);
	ck_assert_str_eq(out.outcome, "key revoked (1)");
	o = new_mail();
	ck_assert_uint_eq(o.n, 1);
	ck_assert_str_eq(o.m[0].recipient, ALICE);
	ck_assert_has(o.m[0].body, "revoked here now");
	ck_assert_has(o.m[0].body, "ashes player key");
	outbox_free(&o);
	ck_assert_int_eq(store_player_by_fingerprint(st, ALICE_FP, &p, &error), 0);
	/* the same certificate again: nothing more happens */
	m.body = "again";
	deliver_is(&m, &out, SERVER_MAIL_REFUSED);
	o = new_mail();
	ck_assert_uint_eq(count_to(&o, ALICE), 0);
	outbox_free(&o);
}
END_TEST

/* `key replace`, signed by the old key, with the new one attached. */
START_TEST(test_key_replace)
{
	const char *offered[] = { NEW_FP };
	struct mail m = { .fp = ALICE_FP, .from = ALICE,
			  .body = "key replace\n" };
	struct store_player *p = NULL;
	struct server_outcome out;
	struct outbox o;
	const char *error;

	register_three();
	deliver_is(&m, &out, SERVER_REFUSED);
	o = new_mail();
	ck_assert_has(o.m[0].body, "exactly one new public key");
	outbox_free(&o);
	m.offered = offered;
	m.noffered = 1;
	deliver_is(&m, &out, SERVER_OK);
	o = new_mail();
	ck_assert_has(o.m[0].body, "not bound yet");
	ck_assert_has(o.m[0].body, NEW_FP);
	{
		/* the code, signed by the new key, binds it */
		const char *c = strstr(o.m[0].body, "confirm ");
		char line[64];
		struct mail proof = { .fp = NEW_FP, .from = ALICE,
				      .body = line };

		ck_assert_ptr_nonnull(c);
		/* nothing bound yet: the new key is nobody's, the old
		 * one still alice's */
		ck_assert_int_eq(store_player_by_fingerprint(st, NEW_FP, &p,
							     &error), 0);
		ck_assert_int_eq(store_player_by_fingerprint(st, ALICE_FP, &p,
							     &error), 1);
		store_player_free(&p);
		snprintf(line, sizeof(line), "confirm %.10s\n", c + 8);
		outbox_free(&o);
		deliver_is(&proof, &out, SERVER_OK);
		o = new_mail();
		ck_assert_has(o.m[0].body, "Your key is replaced");
		ck_assert_str_eq(o.m[0].recipient, ALICE);
	}
	outbox_free(&o);
	ck_assert_int_eq(store_player_by_fingerprint(st, NEW_FP, &p, &error), 1);
	ck_assert_str_eq(p->name, "alice");
	store_player_free(&p);
	ck_assert_int_eq(store_player_by_fingerprint(st, ALICE_FP, &p, &error), 0);
	/* the old key is no one's now: it may only register */
	ck_assert_int_eq(ALICE_SAYS("games\n").status, SERVER_REFUSED);
}
END_TEST

START_TEST(test_registrations_per_hour)
{
	struct server_outcome out;
	struct outbox o;

	reconfigure(0, 2);
	ck_assert_int_eq(ALICE_SAYS("register alice\n").status, SERVER_OK);
	ck_assert_int_eq(BOB_SAYS("register bob\n").status, SERVER_OK);
	out = CAROL_SAYS("register carol\n");
	ck_assert_int_eq(out.status, SERVER_REFUSED);
	o = new_mail();
	ck_assert_has(o.m[2].body, "too many players registered");
	outbox_free(&o);
	now += 3601;
	ck_assert_int_eq(CAROL_SAYS("register carol\n").status, SERVER_OK);
}
END_TEST

/* The outside test's poison mail: its data broke a rule of the store (there
 * a CHECK; here a trigger stands in for any such rule).  Only that mail is
 * lost -- recorded as failed, with why -- and the mails around it in the
 * same batch are applied and answered. */
START_TEST(test_mail_fault_costs_one_mail)
{
	struct server_inbound in[3];
	struct server_outcome outs[3];
	char raw[3][64], sha[3][65], fp[3][41];
	const char *from[3] = { "one@example.net", "poison@example.net",
				"three@example.net" };
	const char *names[3] = { "one", "poison", "three" };
	char body[3][32];
	struct store_inbound *rec = NULL;
	struct outbox o;
	const char *error;
	sqlite3 *db;

	ck_assert_int_eq(sqlite3_open(dbpath, &db), SQLITE_OK);
	ck_assert_int_eq(sqlite3_exec(db,
		"CREATE TRIGGER poison BEFORE INSERT ON outbox "
		"WHEN NEW.recipient = 'poison@example.net' "
		"BEGIN SELECT RAISE(ABORT, 'poisoned'); END", NULL, NULL, NULL),
		SQLITE_OK);
	sqlite3_close(db);
	memset(in, 0, sizeof(in));
	for (int i = 0; i < 3; i++) {
		snprintf(raw[i], sizeof(raw[i]), "mail %d", i);
		digest(raw[i], strlen(raw[i]), sha[i]);
		memset(fp[i], '1' + i, 40);
		fp[i][40] = '\0';
		snprintf(body[i], sizeof(body[i]), "register %s\n", names[i]);
		in[i].fingerprint = fp[i];
		in[i].from_address = from[i];
		in[i].raw = raw[i];
		in[i].raw_len = strlen(raw[i]);
		in[i].raw_sha256 = sha[i];
		in[i].signed_sha256 = sha[i];
		in[i].signature_time = now;
		in[i].body = body[i];
		in[i].body_len = strlen(body[i]);
	}
	ck_assert_int_eq(server_handle_batch(srv, in, 3, now, outs, &error), 0);
	ck_assert_int_eq(outs[0].status, SERVER_OK);
	ck_assert_int_eq(outs[1].status, SERVER_FAILED);
	ck_assert_has(outs[1].outcome, "poisoned");
	ck_assert_int_eq(outs[2].status, SERVER_OK);
	o = new_mail();
	ck_assert_uint_eq(o.n, 2);
	ck_assert_uint_eq(count_to(&o, "one@example.net"), 1);
	ck_assert_uint_eq(count_to(&o, "three@example.net"), 1);
	outbox_free(&o);
	/* nothing of the poison mail stayed but its record */
	{
		struct store_player *p = NULL;
		ck_assert_int_eq(store_player_by_name(st, "poison", &p, &error), 0);
	}
	ck_assert_int_eq(store_inbound_load(st, outs[1].inbound_id, &rec,
					    &error), 1);
	ck_assert_has(rec->outcome, "failed: ");
	store_inbound_free(&rec);
	/* handed out again, it is a duplicate: never retried */
	ck_assert_int_eq(server_handle(srv, &in[1], now, &outs[1], &error), 0);
	ck_assert_int_eq(outs[1].status, SERVER_DUPLICATE);
}
END_TEST

TEST_MAIN("intake", "intake", setup, teardown, 60, test_rate_counted_once,
	  test_budget_counted_once, test_duplicate_recorded, test_forged_dsn,
	  test_backscatter, test_revocation, test_key_replace,
	  test_registrations_per_hour, test_mail_fault_costs_one_mail)
