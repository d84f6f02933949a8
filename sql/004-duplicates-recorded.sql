-- 004-duplicates-recorded.sql -- every mail read is kept with what became
-- of it, an exact duplicate included.
--
-- Until now a mail whose raw bytes (sha256) were handled before was
-- dropped without a trace: inbound.sha256 was UNIQUE.  Now each reading
-- of such a mail gets a row of its own, with when and from which mailbox
-- it came and duplicate_of naming the row of the first reading (whose
-- outcome says what the mail did); the duplicate row keeps no bytes (they
-- are the original's: the same sha256) and changes nothing else.  A row
-- per reading rather than a counter on the original, so the archive
-- stays one row per mail read, in the order they were read, and an
-- operator sees each time a mailbox handed the same mail out again.
--
-- sha256 stays unique among the first readings (a partial unique index:
-- store_inbound_record() still answers "already there" for a second
-- original).  SQLite cannot drop a UNIQUE constraint, so the table is
-- rebuilt as in 002 (foreign keys are off while a migration runs, and the
-- references to "inbound" keep their name).

CREATE TABLE inbound_new (
	id INTEGER PRIMARY KEY,
	message_id TEXT,
	sha256 TEXT NOT NULL
		CHECK (length(sha256) = 64 AND sha256 NOT GLOB '*[^0-9a-f]*'),
	raw BLOB NOT NULL,
	raw_truncated INTEGER NOT NULL DEFAULT 0
		CHECK (raw_truncated IN (0, 1)),
	received INTEGER NOT NULL,
	source TEXT,
	sender_address TEXT,
	sender_fingerprint TEXT,
	player_id INTEGER REFERENCES players(id),
	outcome TEXT,
	duplicate_of INTEGER REFERENCES inbound(id)
		CHECK (duplicate_of IS NULL OR duplicate_of < id)
) STRICT;
INSERT INTO inbound_new (id, message_id, sha256, raw, raw_truncated,
		received, source, sender_address, sender_fingerprint,
		player_id, outcome)
	SELECT id, message_id, sha256, raw, raw_truncated, received, source,
		sender_address, sender_fingerprint, player_id, outcome
	FROM inbound;
DROP TABLE inbound;
ALTER TABLE inbound_new RENAME TO inbound;
CREATE INDEX inbound_message_id ON inbound(message_id)
	WHERE message_id IS NOT NULL;
CREATE UNIQUE INDEX inbound_sha256 ON inbound(sha256)
	WHERE duplicate_of IS NULL;
