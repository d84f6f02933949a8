-- 010-bot.sql -- the practice opponent ([bot] in ashesd.conf): which
-- player is the bot, the games played against it, and the hints asked.
--
-- 1. bot: at most one row, the player the daemon plays as.  Its key is
--    the daemon's own signing key (bound in player_keys like any
--    player's), so its moves are mails signed by that key and proven
--    the way every move is.  The bot gets no mail: the service never
--    queues one to this player.
-- 2. bot_games: a game against the bot, at the level the player chose
--    (1-5), whether it is rated ([bot] rated when it was made), and when
--    its result was applied to the ratings (NULL: not yet, or never for
--    an unrated game).  A bot game is never a ladder's or a league's.

CREATE TABLE bot (
	id INTEGER PRIMARY KEY CHECK (id = 1),
	player_id INTEGER NOT NULL UNIQUE REFERENCES players(id),
	created INTEGER NOT NULL
) STRICT;

CREATE TABLE bot_games (
	game_id INTEGER PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
	level INTEGER NOT NULL CHECK (level BETWEEN 1 AND 5),
	rated INTEGER NOT NULL DEFAULT 0 CHECK (rated IN (0, 1)),
	created INTEGER NOT NULL,
	applied_at INTEGER
) STRICT;

-- 3. bot_hints: `hint GAME` asked by a player of a bot game for ply `ply`
--    (the one they are to play), answered by the bot thread with a mail
--    of the bot's three best moves (answered: when; NULL: waiting).  A
--    hint asked again while one waits is not asked twice.
CREATE TABLE bot_hints (
	id INTEGER PRIMARY KEY,
	game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
	ply INTEGER NOT NULL CHECK (ply >= 1),
	player_id INTEGER NOT NULL REFERENCES players(id),
	inbound_id INTEGER REFERENCES inbound(id),
	requested INTEGER NOT NULL,
	answered INTEGER
) STRICT;
CREATE INDEX bot_hints_waiting ON bot_hints(id) WHERE answered IS NULL;
