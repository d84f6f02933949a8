-- 003-outbox-envelope.sql -- the outbox row becomes a typed envelope, in
-- the way of OpenSMTPD's envelope.c: src/store/store_outbox.c alone writes
-- and reads it, and src/mail/compose.c alone turns it into header text.
--
-- version 1: what ashesd wrote before this migration.  The To, Subject,
--   Message-ID, In-Reply-To, References, Auto-Submitted and X-Ashes-Game,
--   -Ply and -Kind lines are in `headers`; the typed columns are NULL.  A
--   row still pending at the upgrade is sent from that block (the store
--   reads it into the typed fields), text only: its board picture was
--   never stored.  Sent and failed ones stay for `ashes outbox list`.
-- version 2: the fields are columns and `headers` is NULL.  Message-IDs
--   are stored without <> (message_id, in_reply_to); refs is the
--   References value as written, "<a> <b>".  html is the text/html
--   alternative, rendered when the mail was queued, and image the board
--   picture it shows (SVG bytes) as cid:board.<message_id>.
--
-- Why the table is rebuilt: version-2 rows hold no header block, and
-- SQLite cannot drop the NOT NULL of `headers` in a STRICT table (ALTER
-- TABLE cannot change a column).  Writing '' there would store a header
-- block that is not one, and leave nothing to tell a broken version-1 row
-- from a version-2 row; the CHECKs below say instead which columns each
-- version needs.  As in 002, foreign keys are off while a migration runs;
-- no table refers to outbox.

CREATE TABLE outbox_new (
	id INTEGER PRIMARY KEY,
	version INTEGER NOT NULL DEFAULT 1 CHECK (version IN (1, 2)),
	kind TEXT,
	recipient TEXT NOT NULL,
	message_id TEXT,
	subject TEXT,
	in_reply_to TEXT,
	refs TEXT,
	auto_reply INTEGER CHECK (auto_reply IN (0, 1)),
	headers TEXT,
	body TEXT NOT NULL,
	html TEXT,
	image BLOB,
	game_id INTEGER REFERENCES games(id),
	ply INTEGER CHECK (ply >= 0),
	inbound_id INTEGER REFERENCES inbound(id),
	created INTEGER NOT NULL,
	attempts INTEGER NOT NULL DEFAULT 0,
	next_attempt_at INTEGER NOT NULL,
	sent_at INTEGER,
	failed INTEGER NOT NULL DEFAULT 0 CHECK (failed IN (0, 1)),
	last_error TEXT,
	CHECK (version <> 1 OR headers IS NOT NULL),
	CHECK (version <> 2 OR (headers IS NULL AND kind IS NOT NULL
		AND message_id IS NOT NULL AND subject IS NOT NULL
		AND auto_reply IS NOT NULL)),
	-- the picture is shown by the html, and only there
	CHECK (image IS NULL OR html IS NOT NULL)
) STRICT;
INSERT INTO outbox_new (id, version, recipient, message_id, headers, body,
		game_id, inbound_id, created, attempts, next_attempt_at,
		sent_at, failed, last_error)
	SELECT id, 1, recipient, message_id, headers, body, game_id,
		inbound_id, created, attempts, next_attempt_at, sent_at,
		failed, last_error FROM outbox;
DROP TABLE outbox;
ALTER TABLE outbox_new RENAME TO outbox;
CREATE INDEX outbox_due ON outbox(next_attempt_at)
	WHERE sent_at IS NULL AND failed = 0;
CREATE INDEX outbox_message_id ON outbox(message_id)
	WHERE message_id IS NOT NULL;
CREATE INDEX outbox_game ON outbox(game_id) WHERE game_id IS NOT NULL;
