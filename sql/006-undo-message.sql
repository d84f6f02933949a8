-- 006-undo-message.sql -- what the players may say to each other besides
-- moves: notes relayed between the two players of a game (`message GAME
-- TEXT`), archived with the game, and a move taken back by agreement
-- (`offer undo GAME`, `accept undo GAME`, `decline undo GAME`).
--
-- 1. game_messages: one row per note relayed, in the order sent.  ply is
--    the number of plies the game had when the note was sent (a later
--    take-back does not change it: it says what the sender saw);
--    inbound_id the signed mail it came in.  A note is one line of at
--    most a few hundred bytes (the service refuses longer ones before it
--    asks; the CHECK is the last guard).
-- 2. games.undo_offer_by / undo_offer_ply: the one pending request to
--    take back a move, and the number of plies the game had when it was
--    made.  A request counts only while the game still has that many
--    plies: a move by either player ends it without touching these
--    columns (as a move ends a draw offer).  Cleared when answered.
--    As in 002, foreign keys are off while a migration runs.

CREATE TABLE game_messages (
	id INTEGER PRIMARY KEY,
	game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
	ply INTEGER NOT NULL CHECK (ply >= 0),
	player_id INTEGER NOT NULL REFERENCES players(id),
	text TEXT NOT NULL
		CHECK (length(CAST(text AS BLOB)) BETWEEN 1 AND 1000),
	inbound_id INTEGER REFERENCES inbound(id),
	created INTEGER NOT NULL
) STRICT;
CREATE INDEX game_messages_game ON game_messages(game_id, id);

ALTER TABLE games ADD COLUMN undo_offer_by INTEGER REFERENCES players(id);
ALTER TABLE games ADD COLUMN undo_offer_ply INTEGER
	CHECK (undo_offer_ply >= 0);
