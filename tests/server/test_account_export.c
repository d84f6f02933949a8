/* test_account_export.c -- a player's export (src/archive/
 * archive_player.c) after a game played by mail: the JSON parses back
 * (python3's json, a reader that is not ours), says "schema": 1, and
 * holds the player's name, key, address, settings, the game with its
 * moves, their note with its quotes and accents intact, their vacation;
 * after `ashes player delete` (server_player_delete) the same game is
 * there under the deleted name, with its moves, and the person's data
 * is gone. */
#include <check.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "archive/archive_player.h"
#include "server/server.h"
#include "store/store.h"

#include "server_test.h"
#include "../check_run.h"

/* Run python3 on the export of player pid with checks (Python
 * statements over `d`, the parsed document): its exit status. */
static int export_check(int64_t pid, const char *checks)
{
	char path[] = "/tmp/ashes-export-XXXXXX";
	char cmd[4096];
	struct buf json = BUF_INIT;
	const char *error = NULL;
	int fd, rc;

	ck_assert_msg(archive_player_export(st, NULL, pid, "club.test", now,
					    &json, &error) == 0, "%s", error);
	fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, json.data, json.len), (ssize_t)json.len);
	close(fd);
	snprintf(cmd, sizeof(cmd), "python3 -c 'import json, sys\n"
		 "d = json.load(open(sys.argv[1], encoding=\"utf-8\"))\n"
		 "%s' %s", checks, path);
	rc = system(cmd);
	if (rc != 0)
		fprintf(stderr, "the export that failed:\n%s", buf_str(&json));
	unlink(path);
	buf_free(&json);
	return rc;
}

static int64_t player_id(const char *name)
{
	struct store_player *p = NULL;
	const char *error = NULL;
	int64_t id;

	ck_assert_int_eq(store_player_by_name(st, name, &p, &error), 1);
	id = p->id;
	store_player_free(&p);
	return id;
}

START_TEST(test_export_fields)
{
	int64_t g, alice;
	struct outbox o;

	register_three();
	g = start_game("size=3");
	ALICE_GAME("move", g, "1 c3-c5");
	BOB_GAME("move", g, "2 c3-c1");
	ALICE_GAME("note", g, "\"watch\" the \\ café");
	ck_assert_int_eq(ALICE_SAYS("set moves full\nvacation 3\n").status,
			 SERVER_OK);
	mail_drop();
	ck_assert_int_eq(ALICE_SAYS("export me").status, SERVER_OK);
	o = new_mail();
	ck_assert_ptr_nonnull(mail_to(&o, ALICE, "export"));
	outbox_free(&o);
	alice = player_id("alice");
	ck_assert_int_eq(export_check(alice,
		"assert d[\"schema\"] == 1, d\n"
		"assert d[\"club\"] == \"club.test\"\n"
		"assert d[\"player\"][\"name\"] == \"alice\"\n"
		"assert d[\"player\"][\"deleted\"] is None\n"
		"assert d[\"keys\"][0][\"fingerprint\"] == \"A\" * 40\n"
		"assert d[\"keys\"][0][\"armored\"] is None\n"
		"assert [a[\"address\"] for a in d[\"addresses\"]] == "
		"[\"alice@example.org\"]\n"
		"assert d[\"settings\"][\"moves\"] == \"full\"\n"
		"g = d[\"games\"][0]\n"
		"assert (g[\"white\"], g[\"black\"], g[\"colour\"]) == "
		"(\"alice\", \"bob\", \"white\"), g\n"
		"assert [m[\"move\"] for m in g[\"moves\"]] == "
		"[\"c3-c5\", \"c3-c1\"], g\n"
		"assert g[\"moves\"][1][\"player\"] == \"bob\"\n"
		"assert d[\"notes\"][0][\"text\"] == "
		"\"\\\"watch\\\" the \\\\ caf\\u00e9\", d[\"notes\"]\n"
		"assert len(d[\"vacations\"]) == 1\n"
		"assert d[\"rating\"] is None\n"), 0);
}
END_TEST

START_TEST(test_export_after_delete)
{
	struct buf out = BUF_INIT;
	const char *error = NULL;
	int64_t g, alice;
	struct outbox o;

	register_three();
	g = start_game("size=3");
	ALICE_GAME("move", g, "1 c3-c5");
	BOB_GAME("move", g, "2 c3-c1");
	ALICE_GAME("note", g, "mine alone");
	mail_drop();
	alice = player_id("alice");
	ck_assert_msg(server_player_delete(srv, "alice", now, &out,
					   &error) == 0, "%s", error);
	ck_assert_has(buf_str(&out), "alice is deleted: now "
		      "deleted-AAAAAAAAAAAAAAAA; 1 open game ended.");
	buf_free(&out);
	ck_assert_int_eq(status_of(g), STORE_GAME_FINISHED);
	/* bob is told he won, through the resign path. */
	o = new_mail();
	ck_assert_has(sent_to(&o, BOB, "result")->body, "won by resignation");
	outbox_free(&o);
	/* Deleted once: a second time is refused. */
	ck_assert_int_eq(server_player_delete(srv, "deleted-AAAAAAAAAAAAAAAA",
					      now, &out, &error), -1);
	ck_assert_str_eq(error, "that player is deleted already");
	buf_free(&out);
	ck_assert_int_eq(export_check(alice,
		"assert d[\"player\"][\"name\"] == \"deleted-AAAAAAAAAAAAAAAA\"\n"
		"assert d[\"player\"][\"deleted\"] is not None\n"
		"assert d[\"addresses\"] == [] and d[\"notes\"] == []\n"
		"assert d[\"settings\"] is None and d[\"vacations\"] == []\n"
		"assert d[\"keys\"][0][\"revoked\"] is not None\n"
		"g = d[\"games\"][0]\n"
		"assert g[\"status\"] == \"finished\", g\n"
		"assert len(g[\"moves\"]) == 2\n"), 0);
	/* Her key speaks for nobody: her mail is a stranger's. */
	ck_assert_int_eq(ALICE_SAYS("games").status, SERVER_REFUSED);
}
END_TEST

TEST_MAIN("account_export", "export", setup, teardown, 60,
	  test_export_fields, test_export_after_delete)
