-- 008-clocks.sql -- game clocks: what the timer needs in a game, a game
-- cancelled when a flag fell before its owner ever moved, the players'
-- reminder and time zone settings, vacations and the vacation bank, a
-- game's clock history, and the timer's heartbeat.
--
-- 1. games: status 'cancelled' (the flag of a player who had not made a
--    first move fell: the game ends with no result), and three columns:
--    clock_side, the colour to move whose clock runs (0 white, 1 black);
--    remind_at, when the next reminder to that player is due (NULL: none
--    to come; indexed, as deadline_at is, for the timer); flag_fell_at,
--    when the flag fell in a game left for the opponent to claim (NULL:
--    not fallen, or not left to claim).  SQLite cannot alter a CHECK, so
--    the table is rebuilt the documented way (lang_altertable.html, 7):
--    every column, constraint and index of 001 and 006 is kept, and the
--    references to "games" (moves, observers, outbox, digest_items,
--    game_messages) keep their name.  Foreign keys are off while a
--    migration runs and checked before it commits.
-- 2. player_settings.reminders (`set reminders on|off`, default on) and
--    player_settings.timezone (`set timezone Europe/Berlin`): the IANA
--    zone a player reads dates in and whose weekends are free in a game
--    with weekends off; '' is UTC.  The store checks the shape of a zone
--    name (the CHECK is the last guard), the service that it exists.
-- 3. vacations: a time [from_at, to_at) a player is away, and the days it
--    took from the bank (a vacation cut short gives unused days back).
-- 4. player_clock: a player's vacation bank (vacation_days, and accrued_at:
--    earnings are counted up to then; both NULL while the bank was never
--    opened) and when the last reminder mail went to them.  No row: the
--    bank was never opened and no reminder sent.
-- 5. clock_events: a game's clock history besides moves -- the operator's
--    adjustments, vacations, bank days spent, time given back for the
--    daemon's absence, flags, claims, cancellations -- in the order
--    recorded.  kind is a short word of [a-z_], note a short text.
-- 6. server_state: small named values of the daemon's own; the timer's
--    heartbeat ('clock_heartbeat': when it last ran, so that a gap tells
--    the daemon was away and the clocks owe the players that time).

CREATE TABLE games_new (
	id INTEGER PRIMARY KEY,
	variant TEXT NOT NULL,
	challenger_id INTEGER NOT NULL REFERENCES players(id),
	white_id INTEGER REFERENCES players(id),
	black_id INTEGER REFERENCES players(id),
	swapped INTEGER NOT NULL DEFAULT 0 CHECK (swapped IN (0, 1)),
	status TEXT NOT NULL CHECK (status IN ('challenge', 'open', 'active',
		'finished', 'declined', 'withdrawn', 'cancelled')),
	ply INTEGER NOT NULL DEFAULT 0 CHECK (ply >= 0),
	result TEXT,
	end_reason TEXT,
	created INTEGER NOT NULL,
	updated INTEGER NOT NULL,
	draw_offer_by INTEGER REFERENCES players(id),
	draw_offer_ply INTEGER,
	undo_offer_by INTEGER REFERENCES players(id),
	undo_offer_ply INTEGER CHECK (undo_offer_ply >= 0),
	clock_settings TEXT,
	clock_white INTEGER,
	clock_black INTEGER,
	clock_turn_started INTEGER,
	clock_side INTEGER NOT NULL DEFAULT 0 CHECK (clock_side IN (0, 1)),
	deadline_at INTEGER,
	remind_at INTEGER,
	reminders_sent INTEGER NOT NULL DEFAULT 0,
	flag_fell_at INTEGER,
	thread_message_id TEXT UNIQUE,
	CHECK (challenger_id IN (white_id, black_id)),
	CHECK (status IN ('challenge', 'open', 'declined', 'withdrawn')
	       OR (white_id IS NOT NULL AND black_id IS NOT NULL))
) STRICT;
INSERT INTO games_new (id, variant, challenger_id, white_id, black_id,
		swapped, status, ply, result, end_reason, created, updated,
		draw_offer_by, draw_offer_ply, undo_offer_by, undo_offer_ply,
		clock_settings, clock_white, clock_black, clock_turn_started,
		deadline_at, reminders_sent, thread_message_id)
	SELECT id, variant, challenger_id, white_id, black_id, swapped,
		status, ply, result, end_reason, created, updated,
		draw_offer_by, draw_offer_ply, undo_offer_by, undo_offer_ply,
		clock_settings, clock_white, clock_black, clock_turn_started,
		deadline_at, reminders_sent, thread_message_id
	FROM games;
DROP TABLE games;
ALTER TABLE games_new RENAME TO games;
CREATE INDEX games_white ON games(white_id);
CREATE INDEX games_black ON games(black_id);
CREATE INDEX games_challenger ON games(challenger_id);
CREATE INDEX games_status ON games(status);
CREATE INDEX games_deadline ON games(deadline_at)
	WHERE deadline_at IS NOT NULL;
CREATE INDEX games_remind ON games(remind_at)
	WHERE remind_at IS NOT NULL;

ALTER TABLE player_settings ADD COLUMN reminders INTEGER NOT NULL DEFAULT 1
	CHECK (reminders IN (0, 1));
ALTER TABLE player_settings ADD COLUMN timezone TEXT NOT NULL DEFAULT ''
	CHECK (length(CAST(timezone AS BLOB)) <= 63
	       AND timezone NOT GLOB '*[^A-Za-z0-9/_+-]*');

CREATE TABLE vacations (
	id INTEGER PRIMARY KEY,
	player_id INTEGER NOT NULL REFERENCES players(id) ON DELETE CASCADE,
	from_at INTEGER NOT NULL,
	to_at INTEGER NOT NULL,
	days INTEGER NOT NULL DEFAULT 0 CHECK (days >= 0),
	inbound_id INTEGER REFERENCES inbound(id),
	created INTEGER NOT NULL,
	CHECK (to_at > from_at)
) STRICT;
CREATE INDEX vacations_player ON vacations(player_id, to_at);

CREATE TABLE player_clock (
	player_id INTEGER PRIMARY KEY REFERENCES players(id) ON DELETE CASCADE,
	vacation_days INTEGER CHECK (vacation_days >= 0),
	accrued_at INTEGER,
	last_reminder_at INTEGER,
	-- a bank is opened with both, or not at all
	CHECK ((vacation_days IS NULL) = (accrued_at IS NULL))
) STRICT;

CREATE TABLE clock_events (
	id INTEGER PRIMARY KEY,
	game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
	at INTEGER NOT NULL,
	kind TEXT NOT NULL CHECK (length(kind) BETWEEN 1 AND 16
				  AND kind NOT GLOB '*[^a-z_]*'),
	player_id INTEGER REFERENCES players(id),
	seconds INTEGER NOT NULL DEFAULT 0,
	note TEXT CHECK (length(CAST(note AS BLOB)) <= 200),
	inbound_id INTEGER REFERENCES inbound(id)
) STRICT;
CREATE INDEX clock_events_game ON clock_events(game_id, id);

CREATE TABLE server_state (
	key TEXT PRIMARY KEY,
	value INTEGER NOT NULL
) STRICT, WITHOUT ROWID;
