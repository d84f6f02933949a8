/* upgrade_rules.h -- the rows tests/store/test_store_upgrade.c puts into a
 * database of each earlier schema version before it upgrades it: one rule
 * per shape of rows, table by table, parents before children.
 *
 * A rule: the table; `since`, the first schema version its rows can go in
 * (the version whose sql/NNN file made the table, or the column, or the
 * value they need); `until`, the last version that wrote rows of this
 * shape (0: the service still writes them so; a rule with `until` is how
 * an older ashesd wrote the table, and its check says what a migration
 * made of it); `insert`, SQL in the columns of version `since`, naming
 * its columns, valid at every version since..until; `check`, one query on
 * the latest schema that gives 1 while the rows keep their meaning.
 *
 * A new migration adds the rules of what it creates or changes: a rule
 * for each new table (the test fails, naming the table, for any table of
 * the latest schema without one), a rule of the new columns' rows, and,
 * when it rewrites old rows, a check of what they became.  Rules whose
 * `since` is newer than a database go into it after its upgrade, so the
 * rows of the latest tables are tried on every upgraded database too.
 *
 * The players and games (ids fixed, so that later rules can name them):
 * players 1 alice, 2 bob, 3 carol, 4 dave (a failing address, a revoked
 * key), 5 the bot (010); games 1 active alice-bob, six plies, white to
 * move, the one the test plays on; 2 finished alice-carol, 0-1 by
 * resignation; 3 a challenge, 4 open, 5 declined, 6 withdrawn; 7 active
 * carol-dave with an undo offer (006); 8 cancelled, 9 active on a clock
 * (008); 10 a ladder challenge, 11 a league game (009); 12 alice against
 * the bot (010); 13 a rematch of game 2 (015).  Times are around
 * 1767400000 (2026-01-03). */
#ifndef ASHES_TESTS_STORE_UPGRADE_RULES_H
#define ASHES_TESTS_STORE_UPGRADE_RULES_H

#define U_ALICE_FP "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
#define U_BOB_FP "BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB"
#define U_CAROL_FP "CCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCC"
#define U_DAVE_FP "DDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDD"
#define U_DAVE_OLD_FP "D0D0D0D0D0D0D0D0D0D0D0D0D0D0D0D0D0D0D0D0"
#define U_BOT_FP "0B0B0B0B0B0B0B0B0B0B0B0B0B0B0B0B0B0B0B0B"
#define U_BOB_NEW_FP "BEEFBEEFBEEFBEEFBEEFBEEFBEEFBEEFBEEFBEEF"

/* Game 1's six plies, and what the test plays on from them (legal moves
 * of size=5, found with the rules core). */
#define U_GAME1_MOVES "b2-b6 b4-a3 b5-i5 c2-b1 c3-f3 c4-a4"
#define U_GAME1_ON_WHITE1 "c5-c2"
#define U_GAME1_ON_BLACK1 "c4-c7"
#define U_GAME1_ON_WHITE2 "d4-b4"
#define U_GAME1_ON_BLACK2 "c7-c3/1"

struct upgrade_rule {
	const char *table;
	int since;
	int until;
	const char *insert;
	const char *check;
};

static const struct upgrade_rule upgrade_rules[] = {
	/* ---- 001 ---- */
	{ "players", 1, 0,
	  "INSERT INTO players (id, name, created) VALUES"
	  " (1, 'alice', 1767000000), (2, 'bob', 1767000100),"
	  " (3, 'carol', 1767000200), (4, 'dave', 1767000300)",
	  "SELECT count(*) = 4 FROM players WHERE (id, name, created) IN"
	  " (VALUES (1, 'alice', 1767000000), (2, 'bob', 1767000100),"
	  " (3, 'carol', 1767000200), (4, 'dave', 1767000300))" },
	{ "player_addresses", 1, 0,
	  "INSERT INTO player_addresses (id, player_id, address, created,"
	  " failing, failing_since, failing_reason) VALUES"
	  " (1, 1, 'alice@example.org', 1767000000, 0, NULL, NULL),"
	  " (2, 2, 'bob@example.net', 1767000100, 0, NULL, NULL),"
	  " (3, 3, 'carol@example.com', 1767000200, 0, NULL, NULL),"
	  " (4, 4, 'dave@example.com', 1767000300, 1, 1767100000,"
	  "  '550 5.1.1 no such user')",
	  "SELECT (SELECT group_concat(player_id || address, ',') FROM"
	  " (SELECT * FROM player_addresses WHERE id <= 4 ORDER BY id)) ="
	  " '1alice@example.org,2bob@example.net,3carol@example.com,"
	  "4dave@example.com' AND (SELECT failing = 1 AND failing_since ="
	  " 1767100000 AND failing_reason = '550 5.1.1 no such user' FROM"
	  " player_addresses WHERE id = 4)" },
	{ "player_keys", 1, 0,
	  "INSERT INTO player_keys (fingerprint, player_id, created) VALUES"
	  " ('" U_ALICE_FP "', 1, 1767000000), ('" U_BOB_FP "', 2, 1767000100),"
	  " ('" U_CAROL_FP "', 3, 1767000200), ('" U_DAVE_FP "', 4, 1767000300)",
	  "SELECT count(*) = 4 FROM player_keys WHERE revoked IS NULL AND"
	  " (fingerprint, player_id) IN (VALUES ('" U_ALICE_FP "', 1),"
	  " ('" U_BOB_FP "', 2), ('" U_CAROL_FP "', 3), ('" U_DAVE_FP "', 4))" },
	{ "games", 1, 0,
	  "INSERT INTO games (id, variant, challenger_id, white_id, black_id,"
	  " status, ply, result, end_reason, created, updated,"
	  " thread_message_id) VALUES"
	  " (1, 'size=5 tax=removed', 1, 1, 2, 'active', 6, NULL, NULL,"
	  "  1767001000, 1767003000, 'g1.t1@ashes.test'),"
	  " (2, 'size=5 tax=removed', 3, 1, 3, 'finished', 4, '0-1',"
	  "  'resignation', 1767001100, 1767004000, 'g2.t1@ashes.test'),"
	  " (3, 'size=5 tax=removed', 1, 1, 3, 'challenge', 0, NULL, NULL,"
	  "  1767001200, 1767001200, NULL),"
	  " (4, 'size=7 tax=lost swap', 2, 2, NULL, 'open', 0, NULL, NULL,"
	  "  1767001300, 1767001300, NULL),"
	  " (5, 'size=5 tax=removed', 3, 3, 1, 'declined', 0, NULL, NULL,"
	  "  1767001400, 1767001500, NULL),"
	  " (6, 'size=5 tax=removed', 2, 2, 3, 'withdrawn', 0, NULL, NULL,"
	  "  1767001600, 1767001700, NULL)",
	  "SELECT (SELECT group_concat(id || status || ply, ',') FROM"
	  " (SELECT * FROM games WHERE id <= 6 ORDER BY id)) ="
	  " '1active6,2finished4,3challenge0,4open0,5declined0,6withdrawn0'"
	  " AND (SELECT result = '0-1' AND end_reason = 'resignation' AND"
	  " white_id = 1 AND black_id = 3 FROM games WHERE id = 2)"
	  " AND (SELECT black_id IS NULL AND variant = 'size=7 tax=lost swap'"
	  " FROM games WHERE id = 4)"
	  " AND (SELECT thread_message_id = 'g1.t1@ashes.test' AND"
	  " clock_settings IS NULL FROM games WHERE id = 1)" },
	{ "inbound", 1, 0,
	  "INSERT INTO inbound (id, message_id, sha256, raw, received, source,"
	  " sender_address, sender_fingerprint, player_id, outcome)"
	  " WITH m(id, player, addr, fpr, body, outcome) AS (VALUES"
	  " (1, 1, 'alice@example.org', '" U_ALICE_FP "', 'move 1 b2-b6', 'ok: 1 command'),"
	  " (2, 2, 'bob@example.net', '" U_BOB_FP "', 'move 1 b4-a3', 'ok: 1 command'),"
	  " (3, 1, 'alice@example.org', '" U_ALICE_FP "', 'move 1 b5-i5', 'ok: 1 command'),"
	  " (4, 2, 'bob@example.net', '" U_BOB_FP "', 'move 1 c2-b1', 'ok: 1 command'),"
	  " (5, 1, 'alice@example.org', '" U_ALICE_FP "', 'move 1 c3-f3', 'ok: 1 command'),"
	  " (6, 2, 'bob@example.net', '" U_BOB_FP "', 'move 1 c4-a4', 'ok: 1 command'),"
	  " (7, 1, 'alice@example.org', '" U_ALICE_FP "', 'move 2 b2-b6', 'ok: 1 command'),"
	  " (8, 3, 'carol@example.com', '" U_CAROL_FP "', 'move 2 b4-a3', 'ok: 1 command'),"
	  " (9, 1, 'alice@example.org', '" U_ALICE_FP "', 'move 2 b5-i5', 'ok: 1 command'),"
	  " (10, 3, 'carol@example.com', '" U_CAROL_FP "', 'move 2 c2-b1', 'ok: 1 command'),"
	  " (11, 1, 'alice@example.org', '" U_ALICE_FP "', 'resign 2', 'ok: 1 command'),"
	  " (12, 3, 'carol@example.com', '" U_CAROL_FP "', 'board 99',"
	  "  'refused: line 1: no_such_game (board 99)'),"
	  " (13, NULL, 'stranger@example.net', NULL, 'hello',"
	  "  'refused: unsigned (not signed)'),"
	  " (14, NULL, 'MAILER-DAEMON@example.net', NULL, 'delivery failed',"
	  "  'ignored: bounce (names no mail of ours)'),"
	  " (15, 2, 'bob@example.net', '" U_BOB_FP "', 'move 1 c4-a4',"
	  "  'replay: signed text used before'),"
	  " (16, 3, 'carol@example.com', '" U_CAROL_FP "', 'thanks!', 'no commands'))"
	  " SELECT id, printf('m%d@client.test', id), printf('%064x', id),"
	  " CAST(printf('Message-ID: <m%d@client.test>\nFrom: %s\n\n%s\n',"
	  " id, addr, body) AS BLOB), 1767001000 + 100 * id, 'INBOX', addr,"
	  " fpr, player, outcome FROM m",
	  "SELECT count(*) = 16 FROM inbound WHERE id <= 16"
	  " AND sha256 = printf('%064x', id)"
	  " AND message_id = printf('m%d@client.test', id)"
	  " AND received = 1767001000 + 100 * id"
	  " AND CAST(raw AS TEXT) LIKE 'Message-ID: <m' || id || '@client.test>%'"
	  " AND (id <> 12 OR outcome LIKE 'refused: line 1: no_such_game%')"
	  " AND (id <> 13 OR player_id IS NULL AND sender_fingerprint IS NULL)"
	  " AND (id > 11 OR outcome = 'ok: 1 command')" },
	{ "moves", 1, 0,
	  "INSERT INTO moves (game_id, ply, move, player_id, played_at,"
	  " inbound_id) VALUES"
	  " (1, 1, 'b2-b6', 1, 1767001100, 1), (1, 2, 'b4-a3', 2, 1767001200, 2),"
	  " (1, 3, 'b5-i5', 1, 1767001300, 3), (1, 4, 'c2-b1', 2, 1767001400, 4),"
	  " (1, 5, 'c3-f3', 1, 1767001500, 5), (1, 6, 'c4-a4', 2, 1767001600, 6),"
	  " (2, 1, 'b2-b6', 1, 1767001700, 7), (2, 2, 'b4-a3', 3, 1767001800, 8),"
	  " (2, 3, 'b5-i5', 1, 1767001900, 9), (2, 4, 'c2-b1', 3, 1767002000, 10)",
	  "SELECT (SELECT group_concat(move, ' ') FROM (SELECT move FROM moves"
	  " WHERE game_id = 1 ORDER BY ply)) = '" U_GAME1_MOVES "'"
	  " AND (SELECT group_concat(player_id || ':' || inbound_id, ' ') FROM"
	  " (SELECT * FROM moves WHERE game_id = 2 ORDER BY ply)) ="
	  " '1:7 3:8 1:9 3:10'" },
	{ "signatures", 1, 0,
	  "INSERT INTO signatures (content_sha256, fingerprint,"
	  " signature_created, inbound_id, recorded)"
	  " SELECT printf('%064x', 1000 + id), sender_fingerprint,"
	  " received - 5, id, received FROM inbound WHERE id <= 11",
	  "SELECT count(*) = 11 FROM signatures s JOIN inbound i"
	  " ON i.id = s.inbound_id WHERE s.content_sha256 ="
	  " printf('%064x', 1000 + i.id) AND s.fingerprint ="
	  " i.sender_fingerprint AND s.signature_created = i.received - 5" },
	{ "observers", 1, 0,
	  "INSERT INTO observers (game_id, player_id, created)"
	  " VALUES (1, 3, 1767002500), (2, 4, 1767002600)",
	  "SELECT count(*) = 2 FROM observers WHERE (game_id, player_id) IN"
	  " (VALUES (1, 3), (2, 4))" },
	/* the outbox of 001 and 002: a header block (a pending row is sent
	 * from it after 003, see store_outbox.c) */
	{ "outbox", 1, 2,
	  "INSERT INTO outbox (id, recipient, message_id, headers, body,"
	  " game_id, inbound_id, created, attempts, next_attempt_at, sent_at,"
	  " failed, last_error) VALUES"
	  " (1, 'alice@example.org', '<r1.g1@ashes.test>',"
	  "  'To: alice@example.org\nSubject: Re: game 1\nMessage-ID:"
	  " <r1.g1@ashes.test>\nIn-Reply-To: <m5@client.test>\n"
	  "Auto-Submitted: auto-replied\nX-Ashes-Game: 1\nX-Ashes-Ply: 5\n"
	  "X-Ashes-Kind: reply\n', 'Your move c3-f3 is played.\n', 1, 5,"
	  "  1767001500, 1, 1767001500, 1767001510, 0, NULL),"
	  " (2, 'bob@example.net', '<y2.g1@ashes.test>',"
	  "  'To: bob@example.net\nSubject: Game 1: your move\nMessage-ID:"
	  " <y2.g1@ashes.test>\nReferences: <g1.t1@ashes.test>\n"
	  "Auto-Submitted: auto-generated\nX-Ashes-Game: 1\nX-Ashes-Ply: 5\n"
	  "X-Ashes-Kind: your-move\n', 'alice played c3-f3.\n', 1, 5,"
	  "  1767001500, 0, 1767001500, NULL, 0, NULL),"
	  " (3, 'dave@example.com', '<r3@ashes.test>',"
	  "  'To: dave@example.com\nSubject: Re: hello\nMessage-ID:"
	  " <r3@ashes.test>\nX-Ashes-Kind: reply\n', 'Welcome.\n', NULL, NULL,"
	  "  1767001600, 5, 1767001900, NULL, 1, '550 5.1.1 no such user')",
	  "SELECT count(*) = 3 FROM outbox WHERE id <= 3 AND version = 1"
	  " AND headers LIKE 'To: ' || recipient || '%'"
	  " AND (id <> 2 OR sent_at IS NULL AND failed = 0)"
	  " AND (id <> 3 OR failed = 1 AND last_error LIKE '550 %')" },
	{ "mailbox_state", 1, 0,
	  "INSERT INTO mailbox_state (source, uidvalidity, last_uid, updated)"
	  " VALUES ('INBOX', 1234567, 16, 1767002600)",
	  "SELECT uidvalidity = 1234567 AND last_uid = 16 FROM mailbox_state"
	  " WHERE source = 'INBOX'" },
	{ "rate_limits", 1, 0,
	  "INSERT INTO rate_limits (sender, window_start, count)"
	  " VALUES ('stranger@example.net', 1767001300, 3)",
	  "SELECT count = 3 FROM rate_limits WHERE sender ="
	  " 'STRANGER@example.net'" },

	/* ---- 002: address claims, revoked keys, a mail's attempts ---- */
	{ "player_keys", 2, 0,
	  "INSERT INTO player_keys (fingerprint, player_id, created, revoked)"
	  " VALUES ('" U_DAVE_OLD_FP "', 4, 1766000000, 1767000250)",
	  "SELECT player_id = 4 AND revoked = 1767000250 FROM player_keys"
	  " WHERE fingerprint = '" U_DAVE_OLD_FP "'" },
	{ "inbound", 2, 0,
	  "INSERT INTO inbound (id, message_id, sha256, raw, raw_truncated,"
	  " received, source, sender_address, outcome) VALUES"
	  " (17, 'big@client.test', printf('%064x', 17), CAST('Message-ID:"
	  " <big@client.test>\nFrom: carol@example.com\n' AS BLOB), 1,"
	  "  1767002700, 'INBOX', 'carol@example.com',"
	  "  'refused: too_big (mail of 40000000 bytes)')",
	  "SELECT raw_truncated = 1 AND outcome LIKE 'refused: too_big%'"
	  " AND duplicate_of IS NULL FROM inbound WHERE id = 17" },
	/* a revocation certificate, a mail that broke a rule of the store,
	 * one whose handling crashed (its attempts are below) */
	{ "inbound", 2, 0,
	  "INSERT INTO inbound (id, message_id, sha256, raw, received, source,"
	  " sender_address, sender_fingerprint, player_id, outcome)"
	  " WITH m(id, addr, fpr, player, outcome) AS (VALUES"
	  " (25, 'dave@example.com', NULL, NULL, 'key revoked (1)'),"
	  " (26, 'bob@example.net', '" U_BOB_FP "', 2,"
	  "  'failed: a note longer than the store takes'),"
	  " (27, 'carol@example.com', '" U_CAROL_FP "', 3, 'handling'))"
	  " SELECT id, printf('m%d@client.test', id), printf('%064x', id),"
	  " CAST(printf('Message-ID: <m%d@client.test>\nFrom: %s\n\n', id,"
	  " addr) AS BLOB), 1767002700 + id, 'INBOX', addr, fpr, player,"
	  " outcome FROM m",
	  "SELECT (SELECT group_concat(outcome, '|') FROM (SELECT outcome FROM"
	  " inbound WHERE id BETWEEN 25 AND 27 ORDER BY id)) ="
	  " 'key revoked (1)|failed: a note longer than the store takes|"
	  "handling'" },
	{ "address_claims", 2, 0,
	  "INSERT INTO address_claims (player_id, address, code, created)"
	  " VALUES (3, 'carol@work.example', 'k7Q2mZ9x', 1767002800)",
	  "SELECT address = 'carol@work.example' AND code = 'k7Q2mZ9x' FROM"
	  " address_claims WHERE player_id = 3" },
	{ "mail_attempts", 2, 0,
	  "INSERT INTO mail_attempts (source, uidvalidity, uid, attempts,"
	  " last_error, updated) VALUES ('INBOX', 1234567, 27, 2,"
	  " 'crashed while handling', 1767002900)",
	  "SELECT attempts = 2 AND last_error = 'crashed while handling' FROM"
	  " mail_attempts WHERE source = 'INBOX' AND uid = 27" },

	/* ---- 003: the typed envelope, its picture still untyped (007
	 * typed it) ---- */
	{ "outbox", 3, 6,
	  "INSERT INTO outbox (id, version, kind, recipient, message_id,"
	  " subject, in_reply_to, refs, auto_reply, body, html, image,"
	  " game_id, ply, inbound_id, created, attempts, next_attempt_at,"
	  " sent_at) VALUES (4, 2, 'your-move', 'alice@example.org',"
	  " 'y4.g1@ashes.test', 'Game 1: your move', NULL,"
	  " '<g1.t1@ashes.test>', 0, 'bob played c4-a4.\n',"
	  " '<p>bob played c4-a4.</p><img src=\"cid:board.y4.g1@ashes.test\">',"
	  " CAST('<svg xmlns=\"http://www.w3.org/2000/svg\"/>' AS BLOB), 1, 6, 6,"
	  " 1767001600, 1, 1767001600, 1767001605)",
	  "SELECT image_type = 'image/svg+xml' AND kind = 'your-move' AND"
	  " sent_at = 1767001605 FROM outbox WHERE id = 4" },
	{ "outbox", 3, 0,
	  "INSERT INTO outbox (id, version, kind, recipient, message_id,"
	  " subject, in_reply_to, refs, auto_reply, body, game_id, ply,"
	  " inbound_id, created, attempts, next_attempt_at) VALUES"
	  " (5, 2, 'reply', 'carol@example.com', 'r5@ashes.test',"
	  " 'Re: board 99', 'm12@client.test', '<m12@client.test>', 1,"
	  " 'There is no game 99.\n', NULL, NULL, 12, 1767002200, 0,"
	  " 1767002200)",
	  "SELECT version = 2 AND headers IS NULL AND image_type IS NULL AND"
	  " sent_at IS NULL AND in_reply_to = 'm12@client.test' FROM outbox"
	  " WHERE id = 5" },

	/* ---- 004: a duplicate reading, kept with no bytes ---- */
	{ "inbound", 4, 0,
	  "INSERT INTO inbound (id, message_id, sha256, raw, received, source,"
	  " sender_address, sender_fingerprint, player_id, outcome,"
	  " duplicate_of) VALUES (18, 'm3@client.test', printf('%064x', 3),"
	  " X'', 1767003000, 'INBOX', 'alice@example.org', '" U_ALICE_FP "',"
	  " 1, 'duplicate of inbound 3', 3)",
	  "SELECT duplicate_of = 3 AND length(raw) = 0 AND sha256 ="
	  " (SELECT sha256 FROM inbound WHERE id = 3) FROM inbound"
	  " WHERE id = 18" },

	/* ---- 005: settings, the observers' digest ---- */
	{ "player_settings", 5, 0,
	  "INSERT INTO player_settings (player_id, confirm, pictures, moves,"
	  " digest, updated) VALUES (1, 1, 'none', 'full', 0, 1767000500),"
	  " (2, 1, 'none', 'short', 0, 1767000600),"
	  " (3, 0, 'svg', 'none', 1, 1767000700)",
	  "SELECT (SELECT group_concat(player_id || confirm || pictures ||"
	  " moves || digest, ',') FROM (SELECT * FROM player_settings WHERE"
	  " player_id <= 3 ORDER BY player_id)) ="
	  " '11nonefull0,21noneshort0,30svgnone1'"
	  /* what the later columns say of a row older than them */
	  " AND (SELECT reminders = 1 AND timezone = '' AND standings = 1 AND"
	  " summary_at = -1 AND summary_due = 0 FROM player_settings"
	  " WHERE player_id = 1)" },
	{ "digest_items", 5, 0,
	  "INSERT INTO digest_items (player_id, game_id, from_ply, created)"
	  " VALUES (3, 1, 5, 1767001500)",
	  "SELECT from_ply = 5 AND created = 1767001500 FROM digest_items"
	  " WHERE player_id = 3 AND game_id = 1" },

	/* ---- 006: relayed messages, an undo offer ---- */
	{ "games", 6, 0,
	  "INSERT INTO games (id, variant, challenger_id, white_id, black_id,"
	  " status, ply, created, updated, undo_offer_by, undo_offer_ply)"
	  " VALUES (7, 'size=5 tax=removed', 3, 3, 4, 'active', 2,"
	  " 1767003100, 1767003300, 3, 2)",
	  "SELECT undo_offer_by = 3 AND undo_offer_ply = 2 AND ply = 2 FROM"
	  " games WHERE id = 7" },
	{ "moves", 6, 0,
	  "INSERT INTO moves (game_id, ply, move, player_id, played_at)"
	  " VALUES (7, 1, 'b2-b6', 3, 1767003200), (7, 2, 'b4-a3', 4,"
	  " 1767003250)",
	  "SELECT (SELECT group_concat(move, ' ') FROM (SELECT move FROM moves"
	  " WHERE game_id = 7 ORDER BY ply)) = 'b2-b6 b4-a3'" },
	{ "game_messages", 6, 0,
	  "INSERT INTO game_messages (id, game_id, ply, player_id, text,"
	  " inbound_id, created) VALUES (1, 1, 4, 2, 'good luck, alice!', 4,"
	  " 1767001400)",
	  "SELECT game_id = 1 AND ply = 4 AND player_id = 2 AND text ="
	  " 'good luck, alice!' FROM game_messages WHERE id = 1" },

	/* ---- 007: a typed picture ---- */
	{ "outbox", 7, 0,
	  "INSERT INTO outbox (id, version, kind, recipient, message_id,"
	  " subject, refs, auto_reply, body, html, image, image_type,"
	  " game_id, ply, created, attempts, next_attempt_at, sent_at)"
	  " VALUES (6, 2, 'result', 'carol@example.com', 'e6.g2@ashes.test',"
	  " 'Game 2: carol won', '<g2.t1@ashes.test>', 0, 'alice resigned.\n',"
	  " '<p>alice resigned.</p>', X'89504E470D0A1A0A', 'image/png', 2, 4,"
	  " 1767002100, 1, 1767002100, 1767002103)",
	  "SELECT image_type = 'image/png' AND length(image) = 8 AND kind ="
	  " 'result' FROM outbox WHERE id = 6" },

	/* ---- 008: clocks, vacations, the timer's heartbeat ---- */
	{ "games", 8, 0,
	  "INSERT INTO games (id, variant, challenger_id, white_id, black_id,"
	  " status, ply, created, updated, clock_settings, clock_white,"
	  " clock_black, clock_turn_started, clock_side, deadline_at,"
	  " remind_at, reminders_sent, flag_fell_at) VALUES"
	  " (8, 'size=5 tax=removed', 3, 3, 2, 'cancelled', 0, 1767000000,"
	  "  1767259200, '3d+1d', 0, 259200, 1767000000, 0, NULL, NULL, 2,"
	  "  NULL),"
	  " (9, 'size=5 tax=removed', 3, 3, 2, 'active', 1, 1767300000,"
	  "  1767390000, '3d+1d', 252000, 259200, 1767390000, 1, 1767649200,"
	  "  1767605000, 0, NULL)",
	  "SELECT (SELECT status = 'cancelled' AND reminders_sent = 2 FROM"
	  " games WHERE id = 8) AND (SELECT clock_settings = '3d+1d' AND"
	  " clock_white = 252000 AND clock_side = 1 AND deadline_at ="
	  " 1767649200 AND remind_at = 1767605000 FROM games WHERE id = 9)" },
	{ "inbound", 8, 0,
	  "INSERT INTO inbound (id, message_id, sha256, raw, received, source,"
	  " sender_address, sender_fingerprint, player_id, outcome) VALUES"
	  " (19, 'vac@client.test', printf('%064x', 19), CAST('Message-ID:"
	  " <vac@client.test>\n\nvacation 2026-01-03 2026-01-05\n' AS BLOB),"
	  " 1767380000, 'INBOX', 'carol@example.com', '" U_CAROL_FP "', 3,"
	  " 'ok: 1 command'),"
	  " (20, 'm9@client.test', printf('%064x', 20), CAST('Message-ID:"
	  " <m9@client.test>\n\nmove 9 b2-b6\n' AS BLOB), 1767390000, 'INBOX',"
	  " 'carol@example.com', '" U_CAROL_FP "', 3, 'ok: 1 command')",
	  "SELECT count(*) = 2 FROM inbound WHERE id IN (19, 20) AND"
	  " player_id = 3" },
	{ "moves", 8, 0,
	  "INSERT INTO moves (game_id, ply, move, player_id, played_at,"
	  " inbound_id) VALUES (9, 1, 'b2-b6', 3, 1767390000, 20)",
	  "SELECT move = 'b2-b6' AND inbound_id = 20 FROM moves WHERE"
	  " game_id = 9 AND ply = 1" },
	{ "player_settings", 8, 0,
	  "INSERT INTO player_settings (player_id, updated, reminders,"
	  " timezone) VALUES (4, 1767000800, 0, 'Europe/Berlin')",
	  "SELECT reminders = 0 AND timezone = 'Europe/Berlin' AND pictures ="
	  " 'png' FROM player_settings WHERE player_id = 4" },
	{ "vacations", 8, 0,
	  "INSERT INTO vacations (id, player_id, from_at, to_at, days,"
	  " inbound_id, created) VALUES (1, 3, 1767398400, 1767571200, 2, 19,"
	  " 1767380000)",
	  "SELECT player_id = 3 AND to_at - from_at = 2 * 86400 AND days = 2"
	  " FROM vacations WHERE id = 1" },
	{ "player_clock", 8, 0,
	  "INSERT INTO player_clock (player_id, vacation_days, accrued_at,"
	  " last_reminder_at) VALUES (3, 12, 1767380000, NULL),"
	  " (2, NULL, NULL, 1767200000)",
	  "SELECT (SELECT vacation_days = 12 FROM player_clock WHERE"
	  " player_id = 3) AND (SELECT vacation_days IS NULL AND"
	  " last_reminder_at = 1767200000 FROM player_clock WHERE"
	  " player_id = 2)" },
	{ "clock_events", 8, 0,
	  "INSERT INTO clock_events (id, game_id, at, kind, player_id,"
	  " seconds, note, inbound_id) VALUES"
	  " (1, 8, 1767259200, 'cancel', 3, 0, NULL, NULL),"
	  " (2, 9, 1767380000, 'vacation', 3, 0, '2026-01-03 to 2026-01-05',"
	  "  19),"
	  " (3, 9, 1767390500, 'adjust', NULL, 3600, 'the club was down', NULL)",
	  "SELECT (SELECT group_concat(kind, ',') FROM (SELECT kind FROM"
	  " clock_events WHERE id <= 3 ORDER BY id)) = 'cancel,vacation,adjust'"
	  " AND (SELECT seconds = 3600 FROM clock_events WHERE id = 3)" },
	{ "server_state", 8, 0,
	  "INSERT INTO server_state (key, value) VALUES ('clock_heartbeat',"
	  " 1767399000)",
	  "SELECT value = 1767399000 FROM server_state WHERE key ="
	  " 'clock_heartbeat'" },

	/* ---- 009: ladders, leagues, ratings ---- */
	{ "games", 9, 0,
	  "INSERT INTO games (id, variant, challenger_id, white_id, black_id,"
	  " status, ply, created, updated) VALUES"
	  " (10, 'size=5 tax=removed', 3, 3, 1, 'challenge', 0, 1767390000,"
	  "  1767390000),"
	  " (11, 'size=5 tax=removed', 2, 2, 3, 'active', 0, 1767000000,"
	  "  1767000000)",
	  "SELECT count(*) = 2 FROM games WHERE id IN (10, 11) AND ply = 0" },
	{ "inbound", 9, 0,
	  "INSERT INTO inbound (id, message_id, sha256, raw, received, source,"
	  " sender_address, sender_fingerprint, player_id, outcome) VALUES"
	  " (21, 'lad@client.test', printf('%064x', 21), CAST('Message-ID:"
	  " <lad@client.test>\n\nladder challenge club alice\n' AS BLOB),"
	  " 1767390000, 'INBOX', 'carol@example.com', '" U_CAROL_FP "', 3,"
	  " 'ok: 1 command')",
	  "SELECT player_id = 3 FROM inbound WHERE id = 21" },
	{ "ladder_events", 9, 0,
	  "INSERT INTO ladder_events (id, ladder, kind, at, player_id,"
	  " other_id, game_id, outcome, position, actor, note, inbound_id,"
	  " accept_by, win, time_loss_drop) VALUES"
	  " (1, 'club', 'joined', 1767000000, 1, NULL, NULL, NULL, NULL, NULL,"
	  "  NULL, NULL, NULL, NULL, NULL),"
	  " (2, 'club', 'joined', 1767000100, 3, NULL, NULL, NULL, NULL, NULL,"
	  "  NULL, NULL, NULL, NULL, NULL),"
	  " (3, 'club', 'result', 1767004000, 3, 1, 2, 'normal', NULL, NULL,"
	  "  NULL, NULL, NULL, NULL, NULL),"
	  " (4, 'club', 'moved', 1767100000, 3, NULL, NULL, NULL, 1,"
	  "  'operator', 'founder', NULL, NULL, NULL, NULL),"
	  " (5, 'club', 'challenged', 1767390000, 3, 1, 10, NULL, NULL,"
	  "  'mail', NULL, 21, 1767994800, 'take', 1)",
	  "SELECT (SELECT group_concat(kind, ',') FROM (SELECT kind FROM"
	  " ladder_events WHERE ladder = 'club' ORDER BY id)) ="
	  " 'joined,joined,result,moved,challenged'"
	  " AND (SELECT other_id = 1 AND game_id = 10 AND win = 'take' AND"
	  " accept_by = 1767994800 FROM ladder_events WHERE id = 5)" },
	{ "league_seasons", 9, 0,
	  "INSERT INTO league_seasons (id, league, number, starts, ends,"
	  " created) VALUES (1, 'spring', 1, 1767000000, 1769592000,"
	  " 1766990000)",
	  "SELECT league = 'spring' AND number = 1 AND ends = 1769592000 FROM"
	  " league_seasons WHERE id = 1" },
	{ "league_members", 9, 0,
	  "INSERT INTO league_members (season_id, group_no, division, seed,"
	  " player_id) VALUES (1, 1, 1, 1, 2), (1, 1, 1, 2, 3),"
	  " (1, 2, 2, 1, 4)",
	  "SELECT (SELECT group_concat(player_id || ':' || group_no || division"
	  " || seed, ',') FROM (SELECT * FROM league_members WHERE"
	  " season_id = 1 ORDER BY player_id)) = '2:111,3:112,4:221'" },
	{ "league_signups", 9, 0,
	  "INSERT INTO league_signups (league, player_id, joined, at) VALUES"
	  " ('spring', 4, 1, 1766995000), ('spring', 1, 0, 1766996000)",
	  "SELECT (SELECT joined FROM league_signups WHERE player_id = 4) = 1"
	  " AND (SELECT joined FROM league_signups WHERE player_id = 1) = 0" },
	{ "game_club", 9, 0,
	  "INSERT INTO game_club (game_id, ladder, season_id, group_no, rated,"
	  " applied_at) VALUES (2, 'club', NULL, NULL, 1, 1767004000),"
	  " (10, 'club', NULL, NULL, 1, NULL), (11, NULL, 1, 1, 1, NULL)",
	  "SELECT (SELECT applied_at = 1767004000 FROM game_club WHERE"
	  " game_id = 2) AND (SELECT season_id = 1 AND group_no = 1 AND"
	  " applied_at IS NULL FROM game_club WHERE game_id = 11)" },
	{ "ratings", 9, 0,
	  "INSERT INTO ratings (player_id, r, rd, vol, games, last_played,"
	  " last_lost_on_time) VALUES (1, 1421.25, 290.5, 0.06, 1, 1767004000,"
	  " 0), (3, 1578.75, 290.5, 0.06, 1, 1767004000, 0)",
	  "SELECT (SELECT r = 1421.25 AND rd = 290.5 FROM ratings WHERE"
	  " player_id = 1) AND (SELECT r = 1578.75 AND games = 1 FROM ratings"
	  " WHERE player_id = 3)" },
	{ "rating_changes", 9, 0,
	  "INSERT INTO rating_changes (game_id, player_id, r_before, rd_before,"
	  " vol_before, r_after, rd_after, vol_after, at) VALUES"
	  " (2, 1, 1500, 350, 0.06, 1421.25, 290.5, 0.06, 1767004000),"
	  " (2, 3, 1500, 350, 0.06, 1578.75, 290.5, 0.06, 1767004000)",
	  "SELECT (SELECT group_concat(player_id || ':' || r_before || '>' ||"
	  " r_after, ',') FROM (SELECT * FROM rating_changes WHERE game_id = 2"
	  " ORDER BY player_id)) = '1:1500.0>1421.25,3:1500.0>1578.75'" },
	{ "player_settings", 9, 0,
	  "UPDATE player_settings SET standings = 0 WHERE player_id = 2",
	  "SELECT standings = 0 FROM player_settings WHERE player_id = 2" },

	/* ---- 010: the bot ---- */
	{ "players", 10, 0,
	  "INSERT INTO players (id, name, created) VALUES (5, 'ashes-bot',"
	  " 1767000000)",
	  "SELECT name = 'ashes-bot' FROM players WHERE id = 5" },
	{ "player_keys", 10, 0,
	  "INSERT INTO player_keys (fingerprint, player_id, created) VALUES"
	  " ('" U_BOT_FP "', 5, 1767000000)",
	  "SELECT player_id = 5 FROM player_keys WHERE fingerprint ="
	  " '" U_BOT_FP "'" },
	{ "games", 10, 0,
	  "INSERT INTO games (id, variant, challenger_id, white_id, black_id,"
	  " status, ply, created, updated) VALUES (12, 'size=5 tax=removed',"
	  " 1, 1, 5, 'active', 0, 1767395000, 1767395000)",
	  "SELECT black_id = 5 FROM games WHERE id = 12" },
	{ "inbound", 10, 0,
	  "INSERT INTO inbound (id, message_id, sha256, raw, received, source,"
	  " sender_address, sender_fingerprint, player_id, outcome) VALUES"
	  " (22, 'hint@client.test', printf('%064x', 22), CAST('Message-ID:"
	  " <hint@client.test>\n\nhint 12\n' AS BLOB), 1767395100, 'INBOX',"
	  " 'alice@example.org', '" U_ALICE_FP "', 1, 'ok: 1 command')",
	  "SELECT player_id = 1 FROM inbound WHERE id = 22" },
	{ "bot", 10, 0,
	  "INSERT INTO bot (id, player_id, created) VALUES (1, 5, 1767000000)",
	  "SELECT player_id = 5 FROM bot WHERE id = 1" },
	{ "bot_games", 10, 0,
	  "INSERT INTO bot_games (game_id, level, rated, created, applied_at)"
	  " VALUES (12, 3, 1, 1767395000, NULL)",
	  "SELECT level = 3 AND rated = 1 AND applied_at IS NULL FROM"
	  " bot_games WHERE game_id = 12" },
	{ "bot_hints", 10, 0,
	  "INSERT INTO bot_hints (id, game_id, ply, player_id, inbound_id,"
	  " requested, answered) VALUES (1, 12, 1, 1, 22, 1767395100,"
	  " 1767395104)",
	  "SELECT game_id = 12 AND ply = 1 AND answered = 1767395104 FROM"
	  " bot_hints WHERE id = 1" },

	/* ---- 011: a key offered, not yet proven ---- */
	{ "key_claims", 11, 0,
	  "INSERT INTO key_claims (player_id, fingerprint, old_fingerprint,"
	  " code, created) VALUES (2, '" U_BOB_NEW_FP "', '" U_BOB_FP "',"
	  " 'x9Kq2Lm7', 1767396000)",
	  "SELECT fingerprint = '" U_BOB_NEW_FP "' AND old_fingerprint ="
	  " '" U_BOB_FP "' AND code = 'x9Kq2Lm7' FROM key_claims WHERE"
	  " player_id = 2" },

	/* ---- 012: each ply's record line ---- */
	{ "ply_records", 12, 0,
	  /* key (16) | at (32) | sha256 (128) */
	  "INSERT INTO ply_records (game_id, ply, fields, signer, at, sha256)"
	  " SELECT m.game_id, m.ply, 176, i.sender_fingerprint, i.received,"
	  " printf('%064x', 1000 + i.id) FROM moves m JOIN inbound i ON"
	  " i.id = m.inbound_id WHERE m.game_id = 1",
	  "SELECT count(*) = 6 FROM ply_records p JOIN moves m USING (game_id,"
	  " ply) JOIN inbound i ON i.id = m.inbound_id WHERE p.game_id = 1"
	  " AND p.fields = 176 AND p.signer = i.sender_fingerprint AND"
	  " p.at = i.received AND p.cond = 0" },

	/* ---- 013: conditional moves ---- */
	{ "inbound", 13, 0,
	  "INSERT INTO inbound (id, message_id, sha256, raw, received, source,"
	  " sender_address, sender_fingerprint, player_id, outcome) VALUES"
	  " (23, 'cond@client.test', printf('%064x', 23), CAST('Message-ID:"
	  " <cond@client.test>\n\nconditional 1 " U_GAME1_ON_WHITE1 " "
	  U_GAME1_ON_BLACK1 " " U_GAME1_ON_WHITE2 " " U_GAME1_ON_BLACK2
	  "\n' AS BLOB), 1767001650, 'INBOX', 'bob@example.net',"
	  " '" U_BOB_FP "', 2, 'ok: 1 command')",
	  "SELECT player_id = 2 FROM inbound WHERE id = 23" },
	{ "conditional_trees", 13, 0,
	  "INSERT INTO conditional_trees (game_id, player_id, inbound_id,"
	  " sha256, received, base_ply, played) VALUES (1, 2, 23,"
	  " printf('%064x', 1023), 1767001650, 6, 0)",
	  "SELECT inbound_id = 23 AND base_ply = 6 AND played = 0 FROM"
	  " conditional_trees WHERE game_id = 1 AND player_id = 2" },
	{ "conditional_lines", 13, 0,
	  "INSERT INTO conditional_lines (game_id, player_id, seq, moves)"
	  " VALUES (1, 2, 1, '" U_GAME1_ON_WHITE1 " " U_GAME1_ON_BLACK1 " "
	  U_GAME1_ON_WHITE2 " " U_GAME1_ON_BLACK2 "')",
	  "SELECT moves = '" U_GAME1_ON_WHITE1 " " U_GAME1_ON_BLACK1 " "
	  U_GAME1_ON_WHITE2 " " U_GAME1_ON_BLACK2 "' FROM conditional_lines"
	  " WHERE game_id = 1 AND player_id = 2 AND seq = 1" },
	{ "conditional_plies", 13, 0,
	  "INSERT INTO conditional_plies (game_id, ply, base_ply) VALUES"
	  " (7, 2, 0)",
	  "SELECT base_ply = 0 FROM conditional_plies WHERE game_id = 7 AND"
	  " ply = 2" },
	{ "ply_records", 13, 0,
	  /* at (32) | cond (256) */
	  "INSERT INTO ply_records (game_id, ply, fields, at, cond) VALUES"
	  " (7, 2, 288, 1767003250, 0)",
	  "SELECT fields = 288 AND at = 1767003250 FROM ply_records WHERE"
	  " game_id = 7 AND ply = 2" },

	/* ---- 014: the daily summary ---- */
	{ "player_settings", 14, 0,
	  "UPDATE player_settings SET summary_at = 1140, summary_due ="
	  " 1767466800, summary_sent = 1767380400 WHERE player_id = 3",
	  "SELECT summary_at = 1140 AND summary_due = 1767466800 FROM"
	  " player_settings WHERE player_id = 3" },
	{ "summary_items", 14, 0,
	  "INSERT INTO summary_items (id, player_id, game_id, kind, text,"
	  " created) VALUES (1, 3, 9, 'your_move', '', 1767390000),"
	  " (2, 3, NULL, 'ladder', 'alice joined the ladder club',"
	  " 1767391000)",
	  "SELECT (SELECT group_concat(kind, ',') FROM (SELECT kind FROM"
	  " summary_items WHERE player_id = 3 ORDER BY id)) = 'your_move,ladder'"
	  " AND (SELECT game_id IS NULL FROM summary_items WHERE id = 2)" },

	/* ---- 015: private notes, rematches ---- */
	{ "games", 15, 0,
	  "INSERT INTO games (id, variant, challenger_id, white_id, black_id,"
	  " status, ply, created, updated) VALUES (13, 'size=5 tax=removed',"
	  " 3, 3, 1, 'challenge', 0, 1767004100, 1767004100)",
	  "SELECT status = 'challenge' AND white_id = 3 FROM games WHERE"
	  " id = 13" },
	{ "inbound", 15, 0,
	  "INSERT INTO inbound (id, message_id, sha256, raw, received, source,"
	  " sender_address, sender_fingerprint, player_id, outcome) VALUES"
	  " (24, 'note@client.test', printf('%064x', 24), CAST('Message-ID:"
	  " <note@client.test>\n\nnote 1 keep the b file\n' AS BLOB),"
	  " 1767001450, 'INBOX', 'alice@example.org', '" U_ALICE_FP "', 1,"
	  " 'ok: 1 command')",
	  "SELECT player_id = 1 FROM inbound WHERE id = 24" },
	{ "game_notes", 15, 0,
	  "INSERT INTO game_notes (id, game_id, player_id, ply, text,"
	  " inbound_id, created) VALUES (1, 1, 1, 4, 'keep the b file', 24,"
	  " 1767001450)",
	  "SELECT player_id = 1 AND text = 'keep the b file' FROM game_notes"
	  " WHERE id = 1 AND game_id = 1" },
	{ "game_rematches", 15, 0,
	  "INSERT INTO game_rematches (game_id, of_game) VALUES (13, 2)",
	  "SELECT of_game = 2 FROM game_rematches WHERE game_id = 13" },

	/* ---- 016: analyses, a mail's extra parts ---- */
	{ "analysis_requests", 16, 0,
	  "INSERT INTO analysis_requests (id, game_id, player_id, inbound_id,"
	  " day, requested, answered) VALUES"
	  " (1, 2, 1, NULL, 20456, 1767398400, 1767398460),"
	  " (2, 2, 3, NULL, 20457, 1767484800, NULL)",
	  "SELECT (SELECT answered = 1767398460 FROM analysis_requests WHERE"
	  " id = 1) AND (SELECT answered IS NULL AND day = 20457 FROM"
	  " analysis_requests WHERE id = 2)" },
	{ "outbox_parts", 16, 0,
	  "INSERT INTO outbox_parts (outbox_id, seq, name, type, data) VALUES"
	  " (6, 1, 'drop-1.png', 'image/png', X'89504E470D0A1A0A01'),"
	  " (6, 2, 'drop-2.png', 'image/png', X'89504E470D0A1A0A02')",
	  "SELECT (SELECT group_concat(name, ',') FROM (SELECT name FROM"
	  " outbox_parts WHERE outbox_id = 6 ORDER BY seq)) ="
	  " 'drop-1.png,drop-2.png'" },
	/* ---- 018: the daemon's health (one row; the indexes of failed
	 * replies and quarantined mails need no rows of their own) ---- */
	{ "daemon_health", 18, 0,
	  "INSERT INTO daemon_health (id, pid, started, heartbeat,"
	  " mailbox_contact, mailbox_waiting) VALUES"
	  " (1, 4242, 1767400000, 1767400060, 1767400055, 2)",
	  "SELECT pid = 4242 AND started = 1767400000 AND heartbeat ="
	  " 1767400060 AND mailbox_contact = 1767400055 AND mailbox_waiting ="
	  " 2 FROM daemon_health WHERE id = 1" },
	/* ---- 019 ---- */
	{ "tournament_entries", 19, 0,
	  "INSERT INTO tournament_entries (tournament, kind, at, round,"
	  " player_id, other_id, game, outcome, rating, actor, note) VALUES"
	  " ('open', 'join', 1767400000, 0, 1, NULL, NULL, NULL, 1500, 'mail',"
	  " NULL), ('open', 'join', 1767400001, 0, 3, NULL, NULL, NULL, 1620,"
	  " 'daemon', 'listed in the configuration'),"
	  " ('open', 'pairing', 1767400100, 1, 3, 1, 1, NULL, NULL, 'daemon',"
	  " NULL), ('open', 'adjudication', 1767400200, 1, 3, 1, 1, 'draw',"
	  " NULL, 'operator', 'both agreed by phone')",
	  "SELECT (SELECT count(*) FROM tournament_entries WHERE tournament ="
	  " 'open') = 4 AND (SELECT rating FROM tournament_entries WHERE"
	  " player_id = 3 AND kind = 'join') = 1620 AND (SELECT outcome ="
	  " 'draw' AND actor = 'operator' FROM tournament_entries WHERE kind ="
	  " 'adjudication')" },
	{ "tournament_games", 19, 0,
	  "INSERT INTO tournament_games (game_id, tournament, round, number,"
	  " rated, applied_at) VALUES (2, 'open', 1, 1, 1, 1767400200)",
	  "SELECT round = 1 AND number = 1 AND rated = 1 AND applied_at ="
	  " 1767400200 FROM tournament_games WHERE game_id = 2" },
	{ "tournaments", 19, 0,
	  "INSERT INTO tournaments (name, started_at, ended_at) VALUES"
	  " ('open', 1767400100, NULL)",
	  "SELECT started_at = 1767400100 AND ended_at IS NULL FROM"
	  " tournaments WHERE name = 'open'" },
};

#endif
