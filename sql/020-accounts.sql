-- 020-accounts.sql -- a player's own account: moving their mail to a new
-- address and deleting them (server/account.c).  (The export of what
-- the club holds about them, once a day, is counted in rate_limits.)
--
-- 1. account_codes: a change waiting for its code, one of each purpose a
--    player.  'address': `address NEW` mailed code to address (NEW); a
--    `confirm CODE` signed by the player's key moves their mail there.
--    'delete': `delete me` answered with code; `delete me CODE` deletes.
--    tries counts the wrong codes given (bounded by the service); the
--    service drops a row whose time is up.
CREATE TABLE account_codes (
	player_id INTEGER NOT NULL REFERENCES players(id) ON DELETE CASCADE,
	purpose TEXT NOT NULL CHECK (purpose IN ('address', 'delete')),
	address TEXT COLLATE NOCASE
		CHECK (address IS NULL OR length(address) BETWEEN 3 AND 254),
	code TEXT NOT NULL CHECK (length(code) BETWEEN 6 AND 32),
	created INTEGER NOT NULL,
	tries INTEGER NOT NULL DEFAULT 0 CHECK (tries >= 0),
	CHECK ((purpose = 'address') = (address IS NOT NULL)),
	PRIMARY KEY (player_id, purpose)
) STRICT, WITHOUT ROWID;

-- 2. players.deleted: when the player was deleted (`delete me`, `ashes
--    player delete`): the row stays, renamed deleted-KEYID, for the
--    games it played; NULL for a player.
ALTER TABLE players ADD COLUMN deleted INTEGER;
