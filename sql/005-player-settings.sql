-- 005-player-settings.sql -- what each player chose with `set KEY VALUE`
-- (by mail) or `ashes player set`, and the observer notices waiting for
-- the day's digest.
--
-- player_settings: one row per player who set anything; a player without
--   a row has the defaults (confirm on, pictures png, moves short, digest
--   off: store_settings_get() hands them out), so the migration needs no
--   row per existing player.  The words are stored as players write them,
--   so `sqlite3` shows what a player chose.
-- digest_items: an observer with `digest on` gets no mail per move; each
--   game that changed is noted here instead, once per observer and game:
--   from_ply is the first ply the digest describes (the earliest of the
--   changes noted), created when the first change was noted.  The daily
--   digest (server_send_digests) mails and deletes an observer's rows in
--   one transaction, so a digest is sent once and nothing is lost if it
--   runs twice or the daemon dies half-way.

CREATE TABLE player_settings (
	player_id INTEGER PRIMARY KEY REFERENCES players(id) ON DELETE CASCADE,
	confirm INTEGER NOT NULL DEFAULT 1 CHECK (confirm IN (0, 1)),
	pictures TEXT NOT NULL DEFAULT 'png'
		CHECK (pictures IN ('png', 'svg', 'none')),
	moves TEXT NOT NULL DEFAULT 'short'
		CHECK (moves IN ('full', 'short', 'none')),
	digest INTEGER NOT NULL DEFAULT 0 CHECK (digest IN (0, 1)),
	updated INTEGER NOT NULL
) STRICT;

CREATE TABLE digest_items (
	player_id INTEGER NOT NULL REFERENCES players(id) ON DELETE CASCADE,
	game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
	from_ply INTEGER NOT NULL CHECK (from_ply >= 0),
	created INTEGER NOT NULL,
	PRIMARY KEY (player_id, game_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX digest_items_created ON digest_items(created);
