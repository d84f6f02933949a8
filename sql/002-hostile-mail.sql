-- 002-hostile-mail.sql -- what the hostile-mail review asked of the schema.
--
-- 1. inbound: a Message-ID no longer makes a mail a duplicate (anyone can
--    send a mail first with the Message-ID of a player's next one); only
--    the raw bytes' sha256 does.  SQLite cannot drop a UNIQUE constraint,
--    so the table is rebuilt (foreign keys are off while a migration runs,
--    and the references to "inbound" keep their name).  A mail refused as
--    too big keeps only its header block: raw_truncated says so.
-- 2. address_claims: an address is bound to a player only when a code
--    mailed to it comes back signed by the player's key; until then the
--    claim is pending and blocks nobody.
-- 3. player_keys.revoked: when a revocation certificate for the key came
--    in (or the player replaced it); a revoked key identifies nobody.
-- 4. mail_attempts: how often handling one mailbox message failed or
--    crashed the daemon at the same step, so that a poison mail is set
--    aside (quarantined) after a few tries instead of retried for ever.

CREATE TABLE inbound_new (
	id INTEGER PRIMARY KEY,
	message_id TEXT,
	sha256 TEXT NOT NULL UNIQUE
		CHECK (length(sha256) = 64 AND sha256 NOT GLOB '*[^0-9a-f]*'),
	raw BLOB NOT NULL,
	raw_truncated INTEGER NOT NULL DEFAULT 0
		CHECK (raw_truncated IN (0, 1)),
	received INTEGER NOT NULL,
	source TEXT,
	sender_address TEXT,
	sender_fingerprint TEXT,
	player_id INTEGER REFERENCES players(id),
	outcome TEXT
) STRICT;
INSERT INTO inbound_new (id, message_id, sha256, raw, received, source,
		sender_address, sender_fingerprint, player_id, outcome)
	SELECT id, message_id, sha256, raw, received, source, sender_address,
		sender_fingerprint, player_id, outcome FROM inbound;
DROP TABLE inbound;
ALTER TABLE inbound_new RENAME TO inbound;
CREATE INDEX inbound_message_id ON inbound(message_id)
	WHERE message_id IS NOT NULL;

CREATE TABLE address_claims (
	player_id INTEGER PRIMARY KEY REFERENCES players(id) ON DELETE CASCADE,
	address TEXT NOT NULL COLLATE NOCASE
		CHECK (length(address) BETWEEN 3 AND 254),
	code TEXT NOT NULL CHECK (length(code) BETWEEN 6 AND 32),
	created INTEGER NOT NULL
) STRICT;
CREATE INDEX address_claims_address ON address_claims(address);

ALTER TABLE player_keys ADD COLUMN revoked INTEGER;

CREATE TABLE mail_attempts (
	source TEXT NOT NULL,
	uidvalidity INTEGER NOT NULL,
	uid INTEGER NOT NULL,
	attempts INTEGER NOT NULL CHECK (attempts >= 1),
	last_error TEXT,
	updated INTEGER NOT NULL,
	PRIMARY KEY (source, uidvalidity, uid)
) STRICT, WITHOUT ROWID;
