/* test_store.c -- the queries of the store but games (test_store_game.c):
 * players, inbound archive, signatures, claims and keys, attempts,
 * mailbox state, rate limits, transactions and the uniqueness rules (the
 * outbox: test_store_outbox.c). */
#include "store_fixture.h"

/* ---- players -------------------------------------------------------- */

START_TEST(test_player_add_and_lookups)
{
	struct store_player *p = NULL;
	char fpr[41], lower[64];
	int64_t id;
	size_t i;

	id = add_player("Alice", 1);
	test_fpr(fpr, 1);
	/* lower case with spaces: normalised to the stored form */
	for (i = 0; i < 40; i++) {
		lower[i + i / 4] = (char)(fpr[i] >= 'A' ? fpr[i] + 32 : fpr[i]);
		if (i % 4 == 3)
			lower[i + i / 4 + 1] = ' ';
	}
	lower[49] = '\0';
	ck_assert_int_eq(store_player_by_fingerprint(st, lower, &p, &err), 1);
	ck_assert_int_eq(p->id, id);
	ck_assert_str_eq(p->name, "Alice");
	ck_assert_int_eq(p->created, 1001);
	ck_assert_uint_eq(p->n_fingerprints, 1);
	ck_assert_str_eq(p->fingerprints[0], fpr);
	ck_assert_uint_eq(p->n_addresses, 1);
	ck_assert_str_eq(p->addresses[0].address, "Alice@example.org");
	ck_assert(!p->addresses[0].failing);
	store_player_free(&p);
	ck_assert_ptr_null(p);

	ck_assert_int_eq(store_player_by_name(st, "aLICE", &p, &err), 1);
	ck_assert_int_eq(p->id, id);
	store_player_free(&p);
	ck_assert_int_eq(store_player_by_address(st, "ALICE@EXAMPLE.ORG", &p,
						 &err), 1);
	ck_assert_int_eq(p->id, id);
	store_player_free(&p);
	ck_assert_int_eq(store_player_load(st, id, &p, &err), 1);
	ck_assert_str_eq(p->name, "Alice");
	store_player_free(&p);

	ck_assert_int_eq(store_player_by_name(st, "Bob", &p, &err), 0);
	ck_assert_ptr_null(p);
	ck_assert_int_eq(store_player_load(st, id + 1, &p, &err), 0);
	test_fpr(fpr, 2);
	ck_assert_int_eq(store_player_by_fingerprint(st, fpr, &p, &err), 0);
	ck_assert_int_eq(store_player_by_fingerprint(st, "nonsense", &p,
						     &err), 0);
	ck_assert_int_eq(store_player_by_address(st, "bob@example.org", &p,
						 &err), 0);
	ck_assert_ptr_null(p);
}
END_TEST

START_TEST(test_player_more_keys_and_addresses)
{
	struct store_player *p = NULL;
	char fpr[41], fpr64[65];
	int64_t id, other;

	id = add_player("Alice", 1);
	other = add_player("Bob", 2);
	test_fpr(fpr, 3);
	ck_assert_int_eq(store_player_add_key(st, id, fpr, 5, &err), 0);
	test_sha(fpr64, 9); /* 64 hex digits: a v5 fingerprint */
	ck_assert_int_eq(store_player_add_key(st, id, fpr64, 6, &err), 0);
	ck_assert_int_eq(store_player_add_address(st, id, "a2@example.org", 7,
						  &err), 0);
	ck_assert_int_eq(store_player_load(st, id, &p, &err), 1);
	ck_assert_uint_eq(p->n_fingerprints, 3);
	ck_assert_uint_eq(p->n_addresses, 2);
	ck_assert_str_eq(p->addresses[1].address, "a2@example.org");
	store_player_free(&p);

	/* a key bound once: to anyone */
	ck_assert_int_eq(store_player_add_key(st, other, fpr, 8, &err), 1);
	ck_assert_int_eq(store_player_add_key(st, id, fpr, 8, &err), 1);
	ck_assert_int_eq(store_player_add_address(st, other,
						  "A2@Example.ORG", 8, &err),
			 1);
	ck_assert_int_eq(store_player_by_fingerprint(st, fpr, &p, &err), 1);
	ck_assert_int_eq(p->id, id);
	store_player_free(&p);

	/* refusals that are the caller's mistake */
	ck_assert_int_eq(store_player_add_key(st, id, "12AB", 8, &err), -1);
	ck_assert_int_eq(store_error_kind(st), STORE_ERROR_USAGE);
	ck_assert_ptr_nonnull(strstr(err, "fingerprint"));
	test_fpr(fpr, 4);
	ck_assert_int_eq(store_player_add_key(st, 999, fpr, 8, &err), -1);
	ck_assert_int_eq(store_error_kind(st), STORE_ERROR_USAGE);
	ck_assert_int_eq(store_player_add_address(st, id, "no-at-sign", 8,
						  &err), -1);
	ck_assert_int_eq(count("player_keys"), 4);
	ck_assert_int_eq(count("player_addresses"), 3);
}
END_TEST

START_TEST(test_player_unique_rules_are_atomic)
{
	char fpr[41];
	int64_t id = 0;

	add_player("Alice", 1);
	/* name taken, case-insensitively */
	test_fpr(fpr, 2);
	ck_assert_int_eq(store_player_add(st, "ALICE", "x@example.org", fpr,
					  5, &id, &err), 1);
	ck_assert_int_eq(store_error_kind(st), STORE_ERROR_NONE);
	/* key already bound: the new name must not be left behind */
	test_fpr(fpr, 1);
	ck_assert_int_eq(store_player_add(st, "Carol", "c@example.org", fpr,
					  5, &id, &err), 1);
	/* address already taken */
	test_fpr(fpr, 3);
	ck_assert_int_eq(store_player_add(st, "Dave", "alice@EXAMPLE.org",
					  fpr, 5, &id, &err), 1);
	ck_assert_int_eq(count("players"), 1);
	ck_assert_int_eq(count("player_keys"), 1);
	ck_assert_int_eq(count("player_addresses"), 1);
	/* a player without key or address (require_signature = no, admin) */
	ck_assert_int_eq(store_player_add(st, "Eve", NULL, NULL, 5, &id,
					  &err), 0);
	ck_assert_int_eq(count("players"), 2);
	/* names are 1..64 characters */
	ck_assert_int_eq(store_player_add(st, "", NULL, NULL, 5, &id, &err),
			 -1);
	ck_assert_int_eq(store_error_kind(st), STORE_ERROR_USAGE);
}
END_TEST

START_TEST(test_player_list_and_failing_address)
{
	struct store_player *list = NULL, *p = NULL;
	size_t n = 0;
	int64_t a, b;

	a = add_player("Alice", 1);
	b = add_player("Bob", 2);
	ck_assert_int_eq(store_player_list(st, &list, &n, &err), 0);
	ck_assert_uint_eq(n, 2);
	ck_assert_int_eq(list[0].id, a);
	ck_assert_int_eq(list[1].id, b);
	ck_assert_str_eq(list[1].name, "Bob");
	ck_assert_uint_eq(list[1].n_fingerprints, 1);
	store_rows_free(&list, n, sizeof(*list), store_player_clear);
	ck_assert_ptr_null(list);

	ck_assert_int_eq(store_address_mark_failing(st, "BOB@example.org",
						    true, 77, "550 no such user",
						    &err), 1);
	ck_assert_int_eq(store_address_mark_failing(st, "bob@example.org",
						    true, 99, "again", &err),
			 1);
	ck_assert_int_eq(store_player_load(st, b, &p, &err), 1);
	ck_assert(p->addresses[0].failing);
	ck_assert_int_eq(p->addresses[0].failing_since, 77);
	ck_assert_str_eq(p->addresses[0].failing_reason, "again");
	store_player_free(&p);
	ck_assert_int_eq(store_address_mark_failing(st, "bob@example.org",
						    false, 100, NULL, &err),
			 1);
	ck_assert_int_eq(store_player_load(st, b, &p, &err), 1);
	ck_assert(!p->addresses[0].failing);
	ck_assert_int_eq(p->addresses[0].failing_since, 0);
	ck_assert_ptr_null(p->addresses[0].failing_reason);
	store_player_free(&p);
	ck_assert_int_eq(store_address_mark_failing(st, "nobody@example.org",
						    true, 1, "x", &err), 0);
}
END_TEST

/* ---- inbound and signatures ---------------------------------------- */

START_TEST(test_inbound)
{
	static const char raw[] = "From: a@example.org\r\n\r\nmove\0binary";
	struct store_inbound in = { 0 }, *got = NULL;
	char sha[65], sha2[65];
	int64_t id = 0, seen = 0, a;

	a = add_player("Alice", 1);
	test_sha(sha, 1);
	test_sha(sha2, 2);
	ck_assert_int_eq(store_inbound_seen(st, sha, &seen, &err), 0);
	in.message_id = "m1@example.org";
	in.sha256 = sha;
	in.raw = (char *)raw;
	in.raw_len = sizeof(raw) - 1;
	in.received = 42;
	in.source = "imap:INBOX";
	in.sender_address = "a@example.org";
	in.sender_fingerprint = "ABCD";
	in.player_id = a;
	ck_assert_int_eq(store_inbound_record(st, &in, &id, &err), 0);
	ck_assert_int_gt(id, 0);

	/* seen by the bytes only: a Message-ID anyone can take first */
	ck_assert_int_eq(store_inbound_seen(st, sha, &seen, &err), 1);
	ck_assert_int_eq(seen, id);
	ck_assert_int_eq(store_inbound_seen(st, sha2, &seen, &err), 0);
	ck_assert_int_eq(store_inbound_seen(st, NULL, NULL, &err), 0);

	/* the same Message-ID with other bytes is another mail */
	in.sha256 = sha2;
	ck_assert_int_eq(store_inbound_record(st, &in, NULL, &err), 0);
	/* the same bytes: recorded once */
	in.message_id = "m2@example.org";
	in.sha256 = sha;
	ck_assert_int_eq(store_inbound_record(st, &in, NULL, &err), 1);
	test_sha(sha2, 3);
	in.sha256 = sha2;
	in.raw_len = 0;
	ck_assert_int_eq(store_inbound_record(st, &in, NULL, &err), 0);
	in.sha256 = "ABC";
	ck_assert_int_eq(store_inbound_record(st, &in, NULL, &err), -1);
	ck_assert_int_eq(store_error_kind(st), STORE_ERROR_USAGE);
	ck_assert_int_eq(count("inbound"), 3);

	ck_assert_int_eq(store_inbound_set_outcome(st, id, "ok: move 12 7",
						   &err), 0);
	ck_assert_int_eq(store_inbound_set_outcome(st, id + 50, "x", &err),
			 -1);
	ck_assert_int_eq(store_inbound_load(st, id, &got, &err), 1);
	ck_assert_str_eq(got->message_id, "m1@example.org");
	ck_assert_str_eq(got->sha256, sha);
	ck_assert_uint_eq(got->raw_len, sizeof(raw) - 1);
	ck_assert_mem_eq(got->raw, raw, sizeof(raw) - 1);
	ck_assert_int_eq(got->received, 42);
	ck_assert_str_eq(got->source, "imap:INBOX");
	ck_assert_str_eq(got->sender_address, "a@example.org");
	ck_assert_str_eq(got->sender_fingerprint, "ABCD");
	ck_assert_int_eq(got->player_id, a);
	ck_assert_str_eq(got->outcome, "ok: move 12 7");
	store_inbound_free(&got);
	ck_assert_ptr_null(got);
	ck_assert_int_eq(store_inbound_load(st, id + 50, &got, &err), 0);
}
END_TEST

/* Every reading of a mail is recorded: a duplicate gets a row of its own
 * pointing at the first reading, without the bytes. */
START_TEST(test_inbound_duplicates)
{
	struct store_inbound in = { 0 }, *got = NULL;
	char sha[65], sha2[65];
	int64_t first = 0, dup = 0, seen = 0;

	test_sha(sha, 1);
	test_sha(sha2, 2);
	in.message_id = "m1@example.org";
	in.sha256 = sha;
	in.raw = "From: a@example.org\r\n\r\nmove";
	in.raw_len = strlen(in.raw);
	in.received = 42;
	in.source = "imap:INBOX";
	in.outcome = "ok: 1 command";
	ck_assert_int_eq(store_inbound_record(st, &in, &first, &err), 0);

	in.received = 50;
	in.outcome = "duplicate";
	in.duplicate_of = first;
	ck_assert_int_eq(store_inbound_record(st, &in, &dup, &err), 0);
	ck_assert_int_gt(dup, first);
	/* a second duplicate: as many rows as readings */
	ck_assert_int_eq(store_inbound_record(st, &in, NULL, &err), 0);
	ck_assert_int_eq(count("inbound"), 3);
	/* seen: always the first reading */
	ck_assert_int_eq(store_inbound_seen(st, sha, &seen, &err), 1);
	ck_assert_int_eq(seen, first);

	ck_assert_int_eq(store_inbound_load(st, dup, &got, &err), 1);
	ck_assert_int_eq(got->duplicate_of, first);
	ck_assert_str_eq(got->sha256, sha);
	ck_assert_uint_eq(got->raw_len, 0); /* the bytes are the first's */
	ck_assert_int_eq(got->received, 50);
	ck_assert_str_eq(got->source, "imap:INBOX");
	ck_assert_str_eq(got->outcome, "duplicate");
	store_inbound_free(&got);
	ck_assert_int_eq(store_inbound_load(st, first, &got, &err), 1);
	ck_assert_int_eq(got->duplicate_of, 0);
	ck_assert_uint_eq(got->raw_len, strlen(in.raw));
	ck_assert_str_eq(got->outcome, "ok: 1 command");
	store_inbound_free(&got);

	/* a second first reading of the same bytes is still refused */
	in.duplicate_of = 0;
	ck_assert_int_eq(store_inbound_record(st, &in, NULL, &err), 1);
	/* a duplicate must name the first reading of its own bytes */
	in.duplicate_of = dup;
	ck_assert_int_eq(store_inbound_record(st, &in, NULL, &err), -1);
	ck_assert_int_eq(store_error_kind(st), STORE_ERROR_USAGE);
	in.duplicate_of = first;
	in.sha256 = sha2;
	ck_assert_int_eq(store_inbound_record(st, &in, NULL, &err), -1);
	ck_assert_int_eq(store_error_kind(st), STORE_ERROR_USAGE);
	in.duplicate_of = first + 100;
	ck_assert_int_eq(store_inbound_record(st, &in, NULL, &err), -1);
	ck_assert_int_eq(count("inbound"), 3);
}
END_TEST

/* ---- address claims, key lifecycle, attempts, savepoints ------------- */

START_TEST(test_claims_and_keys)
{
	struct store_claim c;
	struct store_player *p = NULL;
	char fpr[41], fpr2[41], fpr9[41];
	int64_t a, pid = 0, id = 0;

	a = add_player("Alice", 1);
	test_fpr(fpr, 1);
	test_fpr(fpr2, 2);
	test_fpr(fpr9, 9);
	/* a pending player: a key, no address, one claim */
	ck_assert_int_eq(store_player_add(st, "Mallory", NULL, fpr9, 5, &id,
					  &err), 0);
	ck_assert_int_eq(store_claim_get(st, id, &c, &err), 0);
	ck_assert_int_eq(store_claim_set(st, id, "Alice@example.org",
					 "ABCDEF2345", 6, &err), 0);
	/* a claim blocks nobody: alice's own address stays hers */
	ck_assert_int_eq(store_player_by_address(st, "alice@example.org", &p,
						 &err), 1);
	ck_assert_int_eq(p->id, a);
	store_player_free(&p);
	ck_assert_int_eq(store_claim_set(st, id, "m@example.org",
					 "ZZZZZZ2345", 7, &err), 0);
	ck_assert_int_eq(store_claim_get(st, id, &c, &err), 1);
	ck_assert_str_eq(c.address, "m@example.org");
	ck_assert_str_eq(c.code, "ZZZZZZ2345");
	ck_assert_int_eq(c.created, 7);
	store_claim_clear(&c);
	ck_assert_int_eq(store_claim_find(st, "M@example.org", "ZZZZZZ2345",
					  &pid, &err), 1);
	ck_assert_int_eq(pid, id);
	ck_assert_int_eq(store_claim_find(st, "m@example.org", "ABCDEF2345",
					  &pid, &err), 0);
	ck_assert_int_eq(store_claim_set(st, id, "no-at-sign", "ABCDEF2345", 8,
					 &err), -1);
	ck_assert_int_eq(store_claim_delete(st, id, &err), 0);
	ck_assert_int_eq(store_claim_get(st, id, &c, &err), 0);

	/* a revoked key identifies nobody */
	ck_assert_int_eq(store_key_revoke(st, fpr, 10, &pid, &err), 1);
	ck_assert_int_eq(pid, a);
	ck_assert_int_eq(store_key_revoke(st, fpr, 11, NULL, &err), 0);
	ck_assert_int_eq(store_player_by_fingerprint(st, fpr, &p, &err), 0);
	ck_assert_int_eq(store_player_load(st, a, &p, &err), 1);
	ck_assert_uint_eq(p->n_fingerprints, 0);
	store_player_free(&p);
	/* replacing: the new key binds, the old one stops */
	ck_assert_int_eq(store_key_replace(st, id, fpr9, fpr2, 12, &err), 0);
	ck_assert_int_eq(store_player_by_fingerprint(st, fpr2, &p, &err), 1);
	ck_assert_int_eq(p->id, id);
	store_player_free(&p);
	ck_assert_int_eq(store_player_by_fingerprint(st, fpr9, &p, &err), 0);
	/* a key bound before (even revoked) is never bound again */
	ck_assert_int_eq(store_key_replace(st, id, fpr2, fpr, 13, &err), 1);
	ck_assert_int_eq(store_player_by_fingerprint(st, fpr2, &p, &err), 1);
	store_player_free(&p);
}
END_TEST

START_TEST(test_attempts_and_savepoints)
{
	long n = 0;
	char *why = NULL;
	char sha[65];
	struct store_inbound in = { 0 };

	ck_assert_int_eq(store_attempt_get(st, "imap", 7, 42, &n, &why, &err), 0);
	ck_assert_int_eq(store_attempt_hit(st, "imap", 7, 42, NULL, 1, &n, &err),
			 0);
	ck_assert_int_eq(n, 1);
	ck_assert_int_eq(store_attempt_hit(st, "imap", 7, 42, "crashed", 2, &n,
					   &err), 0);
	ck_assert_int_eq(n, 2);
	ck_assert_int_eq(store_attempt_hit(st, "imap", 8, 42, NULL, 2, &n, &err),
			 0);
	ck_assert_int_eq(n, 1);
	ck_assert_int_eq(store_attempt_get(st, "imap", 7, 42, &n, &why, &err), 1);
	ck_assert_int_eq(n, 2);
	ck_assert_str_eq(why, "crashed");
	free(why);
	ck_assert_int_eq(store_attempt_clear(st, "imap", 7, 42, &err), 0);
	ck_assert_int_eq(store_attempt_get(st, "imap", 7, 42, &n, NULL, &err), 0);

	/* a savepoint undoes one mail of a batch, not the batch */
	ck_assert_int_eq(store_savepoint(st, &err), -1);
	ck_assert_int_eq(store_begin(st, &err), 0);
	test_sha(sha, 1);
	in.sha256 = sha;
	in.received = 1;
	ck_assert_int_eq(store_inbound_record(st, &in, NULL, &err), 0);
	ck_assert_int_eq(store_savepoint(st, &err), 0);
	test_sha(sha, 2);
	ck_assert_int_eq(store_inbound_record(st, &in, NULL, &err), 0);
	ck_assert_int_eq(store_savepoint_end(st, false, &err), -1);
	ck_assert_int_eq(store_savepoint(st, &err), 0);
	test_sha(sha, 3);
	in.raw = "Subject: big\r\n";
	in.raw_len = strlen(in.raw);
	in.raw_truncated = true;
	ck_assert_int_eq(store_inbound_record(st, &in, NULL, &err), 0);
	ck_assert_int_eq(store_savepoint_end(st, true, &err), 0);
	ck_assert_int_eq(store_commit(st, &err), 0);
	ck_assert_int_eq(count("inbound"), 2);
	ck_assert_int_eq(store_inbound_seen(st, sha, NULL, &err), 1);
	test_sha(sha, 2);
	ck_assert_int_eq(store_inbound_seen(st, sha, NULL, &err), 0);
}
END_TEST

START_TEST(test_signatures)
{
	char sha[65], fpr[41], fpr2[41], *who = NULL;

	test_sha(sha, 7);
	test_fpr(fpr, 1);
	test_fpr(fpr2, 2);
	ck_assert_int_eq(store_signature_seen(st, sha, &who, &err), 0);
	ck_assert_ptr_null(who);
	ck_assert_int_eq(store_signature_record(st, fpr, 1000, sha, 0, 1001,
						&err), 0);
	/* accepted once, ever: the same signed text again, even re-signed by
	 * another key, is a replay */
	ck_assert_int_eq(store_signature_record(st, fpr, 1000, sha, 0, 2000,
						&err), 1);
	ck_assert_int_eq(store_signature_record(st, fpr2, 3000, sha, 0, 3001,
						&err), 1);
	ck_assert_int_eq(store_signature_seen(st, sha, &who, &err), 1);
	ck_assert_str_eq(who, fpr);
	free(who);
	ck_assert_int_eq(store_signature_seen(st, sha, NULL, &err), 1);
	ck_assert_int_eq(store_signature_record(st, "zz", 1, sha, 0, 1, &err),
			 -1);
	ck_assert_int_eq(store_signature_record(st, fpr, 1, "short", 0, 1,
						&err), -1);
	ck_assert_int_eq(count("signatures"), 1);
}
END_TEST

/* ---- mailbox state and rate limits --------------------------------- */

START_TEST(test_mailbox_state)
{
	uint32_t v = 0, uid = 0;

	ck_assert_int_eq(store_mailbox_state_get(st, "imap:INBOX", &v, &uid,
						 &err), 0);
	ck_assert_int_eq(store_mailbox_state_set(st, "imap:INBOX", 1234, 17,
						 5, &err), 0);
	ck_assert_int_eq(store_mailbox_state_get(st, "imap:INBOX", &v, &uid,
						 &err), 1);
	ck_assert_uint_eq(v, 1234);
	ck_assert_uint_eq(uid, 17);
	ck_assert_int_eq(store_mailbox_state_set(st, "imap:INBOX",
						 4294967295u, 4294967294u, 6,
						 &err), 0);
	ck_assert_int_eq(store_mailbox_state_set(st, "maildir:/x", 1, 1, 6,
						 &err), 0);
	ck_assert_int_eq(store_mailbox_state_get(st, "imap:INBOX", &v, &uid,
						 &err), 1);
	ck_assert_uint_eq(v, 4294967295u);
	ck_assert_uint_eq(uid, 4294967294u);
	ck_assert_int_eq(count("mailbox_state"), 2);
	ck_assert_int_eq(store_mailbox_state_set(st, NULL, 1, 1, 6, &err), -1);
}
END_TEST

START_TEST(test_rate_limits)
{
	long c = -1;
	int i;

	for (i = 1; i <= 5; i++) {
		ck_assert_int_eq(store_rate_hit(st, "flood@example.org",
						1000 + i, 60, &c, &err), 0);
		ck_assert_int_eq(c, i);
	}
	/* compared case-insensitively; others have their own counter */
	ck_assert_int_eq(store_rate_hit(st, "FLOOD@example.org", 1010, 60, &c,
					&err), 0);
	ck_assert_int_eq(c, 6);
	ck_assert_int_eq(store_rate_hit(st, "calm@example.org", 1010, 60, &c,
					&err), 0);
	ck_assert_int_eq(c, 1);
	ck_assert_int_eq(store_rate_get(st, "flood@example.org", 1020, 60, &c,
					&err), 0);
	ck_assert_int_eq(c, 6);
	/* the window (started at 1001) is over at 1061 */
	ck_assert_int_eq(store_rate_get(st, "flood@example.org", 1061, 60, &c,
					&err), 0);
	ck_assert_int_eq(c, 0);
	ck_assert_int_eq(store_rate_hit(st, "flood@example.org", 1061, 60, &c,
					&err), 0);
	ck_assert_int_eq(c, 1);
	ck_assert_int_eq(store_rate_get(st, "unknown@example.org", 1061, 60,
					&c, &err), 0);
	ck_assert_int_eq(c, 0);
	ck_assert_int_eq(store_rate_hit(st, "x", 1, 0, &c, &err), -1);

	ck_assert_int_eq(store_rate_prune(st, 1050, &err), 0);
	ck_assert_int_eq(count("rate_limits"), 1);
}
END_TEST

/* ---- transactions --------------------------------------------------- */

/* Counters with amounts (store_limits.h): added into a fixed window,
 * read without counting, and a new window from 0 once it is over. */
START_TEST(test_rate_amounts)
{
	int64_t total = 0, start = 0;

	ck_assert_int_eq(store_rate_peek(st, "sent-bytes:1", 1000, 3600,
					 &total, &start, &err), 0);
	ck_assert_int_eq(total, 0);
	ck_assert_int_eq(start, 0);
	ck_assert_int_eq(store_rate_add(st, "sent-bytes:1", 1000, 3600, 500,
					&total, &start, &err), 0);
	ck_assert_int_eq(total, 500);
	ck_assert_int_eq(start, 1000);
	ck_assert_int_eq(store_rate_add(st, "sent-bytes:1", 2000, 3600,
					1500000, &total, &start, &err), 0);
	ck_assert_int_eq(total, 1500500);
	ck_assert_int_eq(start, 1000);
	ck_assert_int_eq(store_rate_add(st, "sent-bytes:2", 2000, 3600, 7,
					&total, NULL, &err), 0);
	ck_assert_int_eq(total, 7);
	ck_assert_int_eq(store_rate_peek(st, "sent-bytes:1", 4599, 3600,
					 &total, &start, &err), 0);
	ck_assert_int_eq(total, 1500500);
	ck_assert_int_eq(start, 1000);
	/* The window is over: nothing to read, and a new one from 0. */
	ck_assert_int_eq(store_rate_peek(st, "sent-bytes:1", 4600, 3600,
					 &total, &start, &err), 0);
	ck_assert_int_eq(total, 0);
	ck_assert_int_eq(store_rate_add(st, "sent-bytes:1", 4600, 3600, 0,
					&total, &start, &err), 0);
	ck_assert_int_eq(total, 0);
	ck_assert_int_eq(start, 4600);
	ck_assert_int_eq(store_rate_add(st, "x", 1, 3600, -1, NULL, NULL,
					&err), -1);
	ck_assert_int_eq(store_rate_add(st, "x", 1, 0, 1, NULL, NULL, &err),
			 -1);
}
END_TEST

START_TEST(test_transactions)
{
	char fpr[41];
	int64_t id;

	ck_assert(!store_in_transaction(st));
	ck_assert_int_eq(store_begin(st, &err), 0);
	ck_assert(store_in_transaction(st));
	ck_assert_int_eq(store_begin(st, &err), -1);
	ck_assert_int_eq(store_error_kind(st), STORE_ERROR_USAGE);
	add_player("Alice", 1);
	/* another connection sees nothing yet */
	ck_assert_int_eq(count("players"), 0);
	store_rollback(st);
	ck_assert(!store_in_transaction(st));
	ck_assert_int_eq(count("players"), 0);
	ck_assert_int_eq(store_commit(st, &err), -1);
	ck_assert_int_eq(store_error_kind(st), STORE_ERROR_USAGE);
	store_rollback(st); /* harmless without a transaction */

	/* a uniqueness refusal inside a transaction keeps it usable and
	 * undoes only the refused call */
	ck_assert_int_eq(store_begin(st, &err), 0);
	add_player("Alice", 1);
	test_fpr(fpr, 1);
	ck_assert_int_eq(store_player_add(st, "Bob", "b@example.org", fpr, 3,
					  &id, &err), 1);
	add_player("Carol", 3);
	ck_assert(store_in_transaction(st));
	ck_assert_int_eq(store_commit(st, &err), 0);
	ck_assert_int_eq(count("players"), 2);
	ck_assert_int_eq(count("player_addresses"), 2);
	ck_assert_int_eq(test_query_int(test_db, "SELECT count(*) FROM "
					"players WHERE name = 'Bob'"), 0);

	/* closing with an open transaction rolls it back */
	ck_assert_int_eq(store_begin(st, &err), 0);
	add_player("Dave", 4);
	store_close(&st);
	ck_assert_int_eq(count("players"), 2);
	st = test_open();
}
END_TEST

static Suite *store_suite(void)
{
	Suite *s = suite_create("store");
	TCase *tc = tcase_create("api");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_player_add_and_lookups);
	tcase_add_test(tc, test_player_more_keys_and_addresses);
	tcase_add_test(tc, test_player_unique_rules_are_atomic);
	tcase_add_test(tc, test_player_list_and_failing_address);
	tcase_add_test(tc, test_inbound);
	tcase_add_test(tc, test_inbound_duplicates);
	tcase_add_test(tc, test_signatures);
	tcase_add_test(tc, test_claims_and_keys);
	tcase_add_test(tc, test_attempts_and_savepoints);
	tcase_add_test(tc, test_mailbox_state);
	tcase_add_test(tc, test_rate_limits);
	tcase_add_test(tc, test_rate_amounts);
	tcase_add_test(tc, test_transactions);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return test_run(store_suite());
}
