-- 015-notes-rematch.sql -- a player's private notes on a game, and which
-- game a rematch answers.
--
-- 1. game_notes: `note GAME TEXT`, one row per note, in the order kept.
--    Only its author ever reads a note (their own mails about the game,
--    `notes GAME`, their own copy of the archive once the game is over):
--    no query that serves anyone else reads this table, and the
--    archive's list of a game's mails does not name the note's mail.
--    ply is the number of plies the game had when the note was kept;
--    inbound_id the signed mail it came in.  The service bounds a note
--    to one line of COMMAND_TEXT_MAX - 1 bytes and an author to
--    NOTE_MAX_PER_GAME notes a game (src/server/note.c); the CHECK is the
--    last guard.  Deleted with the game (a pruned game takes its notes).
-- 2. game_rematches: `rematch GAME`, the challenge game_id made as the
--    rematch of game of_game (colours swapped, the same board and
--    clock).  It says whether a rematch of a game is pending already.
--    As in 002, foreign keys are off while a migration runs.

CREATE TABLE game_notes (
	id INTEGER PRIMARY KEY,
	game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
	player_id INTEGER NOT NULL REFERENCES players(id),
	ply INTEGER NOT NULL CHECK (ply >= 0),
	text TEXT NOT NULL
		CHECK (length(CAST(text AS BLOB)) BETWEEN 1 AND 1000),
	inbound_id INTEGER REFERENCES inbound(id),
	created INTEGER NOT NULL
) STRICT;
CREATE INDEX game_notes_author ON game_notes(game_id, player_id, id);

CREATE TABLE game_rematches (
	game_id INTEGER PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
	of_game INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE
) STRICT;
CREATE INDEX game_rematches_of ON game_rematches(of_game);
