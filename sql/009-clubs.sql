-- 009-clubs.sql -- a club's competitions: each ladder's event log, league
-- seasons with their groups and members, which game belongs to which
-- ladder or league, the players' Glicko-2 ratings with the history of
-- every change, and the player setting for the weekly standings mail.
--
-- Ladder and league names are the configuration's ([ladder NAME],
-- [league NAME]): 1-32 bytes of [a-z0-9_-], kept as text and never
-- checked against the config.  Foreign keys are off while a migration
-- runs and checked before it commits.
--
-- 1. ladder_events: a ladder's whole history, in the order recorded (id).
--    A ladder's positions are computed from it by the service and never
--    stored, so the log is the one truth and can be replayed.  kind:
--    'joined', 'left', 'withdrawn' (player_id); 'challenged' (player_id
--    the challenger, other_id the defender, game_id the challenge, and
--    the rules it is played under: accept_by, the deadline of a
--    walkover, win 'take'|'swap', time_loss_drop); 'accepted' (game_id,
--    player_id the defender); 'result' (game_id, player_id the winner or
--    the first player of a draw or a cancel, other_id the other,
--    outcome); 'moved' (player_id put at position, 1 = top, by actor).  actor: who did it -- 'mail' (a
--    player's command), 'daemon' (the config, the timer) or 'operator'
--    (ashes); note: free text of at most 200 bytes; inbound_id: the mail
--    behind it.  A ladder exists while it has an event.
-- 2. league_seasons: season `number` (1, 2, ...) of a league, from starts
--    to ends; one row per league and number.
-- 3. league_members: who plays in a season, in which group (1, 2, ...),
--    division (1 = top) and seed (1 = first); a player is in a season's
--    one group at most.
-- 4. game_club: which competition a game belongs to -- a ladder (its
--    challenge) or a season's group -- whether it is rated, and when its
--    result was applied to the standings and the ratings (NULL: not yet;
--    a result is applied once).  The game's own row keeps the settings it
--    was created with.  game_club_pending finds the results to apply.
-- 5. ratings: a player's Glicko-2 rating (r, rd, vol: finite, rd and vol
--    positive; 9e999 is how SQLite writes infinity), rated games played,
--    when the last one ended, and whether it was lost on time (a second
--    loss on time in a row is not rated).  No row: no rating yet.
-- 6. rating_changes: each change of a player's rating by a game, before
--    and after, once per game and player: `ashes ratings --recompute`
--    replays the rated games in the order their results were applied.
-- 7. player_settings.standings (`set standings on|off`, default on): the
--    weekly standings mail of the ladders a player is in.

CREATE TABLE ladder_events (
	id INTEGER PRIMARY KEY,
	ladder TEXT NOT NULL CHECK (length(ladder) BETWEEN 1 AND 32
				    AND ladder NOT GLOB '*[^a-z0-9_-]*'),
	kind TEXT NOT NULL CHECK (kind IN ('joined', 'left', 'withdrawn',
					   'challenged', 'accepted', 'result',
					   'moved')),
	at INTEGER NOT NULL,
	player_id INTEGER NOT NULL REFERENCES players(id),
	other_id INTEGER REFERENCES players(id),
	game_id INTEGER REFERENCES games(id),
	outcome TEXT CHECK (outcome IN ('normal', 'time', 'walkover', 'draw',
					'cancelled')),
	position INTEGER CHECK (position >= 1),
	actor TEXT CHECK (actor IN ('mail', 'daemon', 'operator')),
	note TEXT CHECK (length(CAST(note AS BLOB)) <= 200),
	inbound_id INTEGER REFERENCES inbound(id),
	accept_by INTEGER,
	win TEXT CHECK (win IN ('take', 'swap')),
	time_loss_drop INTEGER CHECK (time_loss_drop >= 0),
	-- what each kind needs (store_ladder_event_add checks it first)
	CHECK (kind NOT IN ('challenged', 'result')
	       OR (other_id IS NOT NULL AND game_id IS NOT NULL)),
	CHECK (kind <> 'accepted' OR game_id IS NOT NULL),
	CHECK (kind <> 'challenged'
	       OR (accept_by IS NOT NULL AND win IS NOT NULL
		   AND time_loss_drop IS NOT NULL)),
	CHECK (kind <> 'result' OR outcome IS NOT NULL),
	CHECK (kind <> 'moved' OR (position IS NOT NULL AND actor IS NOT NULL))
) STRICT;
CREATE INDEX ladder_events_ladder ON ladder_events(ladder, id);

CREATE TABLE league_seasons (
	id INTEGER PRIMARY KEY,
	league TEXT NOT NULL CHECK (length(league) BETWEEN 1 AND 32
				    AND league NOT GLOB '*[^a-z0-9_-]*'),
	number INTEGER NOT NULL CHECK (number >= 1),
	starts INTEGER NOT NULL,
	ends INTEGER NOT NULL,
	created INTEGER NOT NULL,
	CHECK (ends > starts),
	UNIQUE (league, number)
) STRICT;

CREATE TABLE league_members (
	season_id INTEGER NOT NULL
		REFERENCES league_seasons(id) ON DELETE CASCADE,
	group_no INTEGER NOT NULL CHECK (group_no >= 1),
	division INTEGER NOT NULL CHECK (division >= 1),
	seed INTEGER NOT NULL CHECK (seed >= 1),
	player_id INTEGER NOT NULL REFERENCES players(id) ON DELETE CASCADE,
	PRIMARY KEY (season_id, player_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX league_members_player ON league_members(player_id);

CREATE TABLE game_club (
	game_id INTEGER PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
	ladder TEXT CHECK (length(ladder) BETWEEN 1 AND 32
			   AND ladder NOT GLOB '*[^a-z0-9_-]*'),
	season_id INTEGER REFERENCES league_seasons(id),
	group_no INTEGER CHECK (group_no >= 1),
	rated INTEGER NOT NULL DEFAULT 0 CHECK (rated IN (0, 1)),
	applied_at INTEGER,
	CHECK (ladder IS NOT NULL OR season_id IS NOT NULL),
	-- a group is a season's
	CHECK ((season_id IS NULL) = (group_no IS NULL))
) STRICT;
CREATE INDEX game_club_pending ON game_club(game_id)
	WHERE applied_at IS NULL;
CREATE INDEX game_club_season ON game_club(season_id)
	WHERE season_id IS NOT NULL;
CREATE INDEX game_club_rated ON game_club(applied_at, game_id)
	WHERE rated = 1 AND applied_at IS NOT NULL;

CREATE TABLE ratings (
	player_id INTEGER PRIMARY KEY REFERENCES players(id) ON DELETE CASCADE,
	r REAL NOT NULL CHECK (abs(r) < 9e999),
	rd REAL NOT NULL CHECK (rd > 0 AND rd < 9e999),
	vol REAL NOT NULL CHECK (vol > 0 AND vol < 9e999),
	games INTEGER NOT NULL DEFAULT 0 CHECK (games >= 0),
	last_played INTEGER,
	last_lost_on_time INTEGER NOT NULL DEFAULT 0
		CHECK (last_lost_on_time IN (0, 1))
) STRICT;

CREATE TABLE rating_changes (
	game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
	player_id INTEGER NOT NULL REFERENCES players(id) ON DELETE CASCADE,
	r_before REAL NOT NULL CHECK (abs(r_before) < 9e999),
	rd_before REAL NOT NULL CHECK (rd_before > 0 AND rd_before < 9e999),
	vol_before REAL NOT NULL CHECK (vol_before > 0 AND vol_before < 9e999),
	r_after REAL NOT NULL CHECK (abs(r_after) < 9e999),
	rd_after REAL NOT NULL CHECK (rd_after > 0 AND rd_after < 9e999),
	vol_after REAL NOT NULL CHECK (vol_after > 0 AND vol_after < 9e999),
	at INTEGER NOT NULL,
	PRIMARY KEY (game_id, player_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX rating_changes_player ON rating_changes(player_id);

ALTER TABLE player_settings ADD COLUMN standings INTEGER NOT NULL DEFAULT 1
	CHECK (standings IN (0, 1));

-- 8. The moves of a player, latest first: when a ladder's member last
--    played (absence_withdraw).
CREATE INDEX moves_player ON moves(player_id, played_at);

-- 9. league_signups: who joined an open league by mail (`league join
--    NAME`: joined 1) or left it (`league leave NAME`: 0), and when; the
--    next season takes those joined besides the members the
--    configuration lists, and drops those who left.
CREATE TABLE league_signups (
	league TEXT NOT NULL CHECK (length(league) BETWEEN 1 AND 32
				    AND league NOT GLOB '*[^a-z0-9_-]*'),
	player_id INTEGER NOT NULL REFERENCES players(id) ON DELETE CASCADE,
	joined INTEGER NOT NULL CHECK (joined IN (0, 1)),
	at INTEGER NOT NULL,
	PRIMARY KEY (league, player_id)
) STRICT, WITHOUT ROWID;
