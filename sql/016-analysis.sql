-- 016-analysis.sql -- the analysis of a finished game (`analyse GAME`):
-- the requests the bot thread computes one at a time, and the pictures
-- a mail carries besides its board.
--
-- 1. analysis_requests: `analyse GAME` asked by a player for a finished
--    game, waiting (answered NULL) until the daemon's bot thread has
--    computed it and queued the mail; then answered holds when.  `day`
--    is the UTC day it was asked on (requested / 86400): one analysis a
--    game a day, whoever asks (the unique index keeps it so).  The
--    queue is bounded by the service (server/analysis.c), counting the
--    rows waiting.
CREATE TABLE analysis_requests (
	id INTEGER PRIMARY KEY,
	game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
	player_id INTEGER NOT NULL REFERENCES players(id),
	inbound_id INTEGER REFERENCES inbound(id),
	day INTEGER NOT NULL CHECK (day >= 0),
	requested INTEGER NOT NULL,
	answered INTEGER
) STRICT;
CREATE UNIQUE INDEX analysis_requests_daily ON analysis_requests(game_id, day);
CREATE INDEX analysis_requests_waiting ON analysis_requests(id)
	WHERE answered IS NULL;

-- 2. outbox_parts: files a mail carries after its text (and its html),
--    in order (seq from 1): the analysis mail's pictures of its biggest
--    drops.  name is the file name offered, type its MIME type; the
--    parts go with their mail (a pruned or deleted row takes them).
CREATE TABLE outbox_parts (
	outbox_id INTEGER NOT NULL REFERENCES outbox(id) ON DELETE CASCADE,
	seq INTEGER NOT NULL CHECK (seq >= 1),
	name TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 64
				  AND name NOT GLOB '*[^a-z0-9.-]*'),
	type TEXT NOT NULL CHECK (type IN ('image/png', 'image/svg+xml')),
	data BLOB NOT NULL,
	PRIMARY KEY (outbox_id, seq)
) STRICT, WITHOUT ROWID;
