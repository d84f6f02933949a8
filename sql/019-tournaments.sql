-- 019-tournaments.sql -- the club's events ([tournament NAME] sections):
-- each event's log, which game belongs to which event and round, and
-- when the daemon began and closed each event.
--
-- Event names are the configuration's: 1-32 bytes of [a-z0-9_-], kept
-- as text and never checked against the config.  Nothing about an
-- event's positions is stored: the service replays the log
-- (src/server/tournament.h, docs/tournaments.md) into the scores, the
-- standings and the next round's pairing each time.  The log is written
-- once, entry by entry, so a reloaded configuration never changes a
-- round already paired.
--
-- 1. tournament_entries: an event's log, in the order recorded (id).
--    kind: 'join' (player_id, rating at sign-up; round 0), 'leave' (the
--    player's mail) and 'withdraw' (the operator), with round = the
--    rounds paired at that moment; 'pairing' (round, game = the event's
--    game number, player_id White, other_id Black); 'bye' (round,
--    player_id); 'result' and 'adjudication' (game, player_id White,
--    other_id Black as the game ended, outcome 'white'|'black'|'draw').
--    game is the event's own number of the game (1, 2, ... within the
--    event), not games.id: a round robin keeps a withdrawn player's
--    scheduled games in its log, and the daemon creates no game for
--    them.  tournament_games says which stored game a number is.
--    actor: who did it -- 'mail' (a player's command), 'daemon' (the
--    config, the timer, a round's deadline) or 'operator' (ashes);
--    note: free text of at most 200 bytes; inbound_id: the mail behind
--    it.
-- 2. tournament_games: the stored game of an event's game number, its
--    round, whether it is rated, and when its result was taken into the
--    log and the ratings (NULL: not yet; once).
-- 3. tournaments: when the daemon began an event (its sign-up closed,
--    round 1 paired) and when it ended it (the final standings mailed);
--    NULL: not yet.  A row exists once the event has anything in it.

CREATE TABLE tournament_entries (
	id INTEGER PRIMARY KEY,
	tournament TEXT NOT NULL CHECK (length(tournament) BETWEEN 1 AND 32
					AND tournament NOT GLOB '*[^a-z0-9_-]*'),
	kind TEXT NOT NULL CHECK (kind IN ('join', 'leave', 'withdraw',
					   'pairing', 'bye', 'result',
					   'adjudication')),
	at INTEGER NOT NULL,
	round INTEGER NOT NULL DEFAULT 0 CHECK (round BETWEEN 0 AND 512),
	player_id INTEGER NOT NULL REFERENCES players(id),
	other_id INTEGER REFERENCES players(id),
	game INTEGER CHECK (game >= 1),
	outcome TEXT CHECK (outcome IN ('white', 'black', 'draw')),
	rating INTEGER,
	actor TEXT NOT NULL CHECK (actor IN ('mail', 'daemon', 'operator')),
	note TEXT CHECK (length(CAST(note AS BLOB)) <= 200),
	inbound_id INTEGER REFERENCES inbound(id),
	-- what each kind needs (store_tournament_entry_add checks it first)
	CHECK (kind NOT IN ('pairing', 'result', 'adjudication')
	       OR (other_id IS NOT NULL AND game IS NOT NULL)),
	CHECK (kind NOT IN ('pairing', 'bye') OR round >= 1),
	CHECK (kind NOT IN ('result', 'adjudication') OR outcome IS NOT NULL),
	CHECK (kind <> 'join' OR (rating IS NOT NULL AND round = 0))
) STRICT;
CREATE INDEX tournament_entries_event ON tournament_entries(tournament, id);

CREATE TABLE tournament_games (
	game_id INTEGER PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
	tournament TEXT NOT NULL CHECK (length(tournament) BETWEEN 1 AND 32
					AND tournament NOT GLOB '*[^a-z0-9_-]*'),
	round INTEGER NOT NULL CHECK (round BETWEEN 1 AND 512),
	number INTEGER NOT NULL CHECK (number >= 1),
	rated INTEGER NOT NULL DEFAULT 0 CHECK (rated IN (0, 1)),
	applied_at INTEGER,
	UNIQUE (tournament, number)
) STRICT;
CREATE INDEX tournament_games_pending ON tournament_games(game_id)
	WHERE applied_at IS NULL;

CREATE TABLE tournaments (
	name TEXT PRIMARY KEY CHECK (length(name) BETWEEN 1 AND 32
				     AND name NOT GLOB '*[^a-z0-9_-]*'),
	started_at INTEGER,
	ended_at INTEGER
) STRICT, WITHOUT ROWID;
