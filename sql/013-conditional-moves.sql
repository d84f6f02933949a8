-- 013-conditional-moves.sql -- conditional moves (`conditional GAME
-- THEIRS MINE ...`): what a player waiting for the opponent said to play
-- if the opponent plays this or that (server/conditional.c).
--
-- 1. conditional_trees: one tree per game and player, set by one signed
--    mail (inbound_id, the sha256 of its signed part, its receipt): a
--    later mail with conditional lines for the game replaces it.  Its
--    lines start after base_ply plies; `played` counts the replies
--    already played from it (the tree moved down a level each time), so
--    it stands at ply base_ply + 2 * played, the opponent to move.
-- 2. conditional_lines: the tree's lines, each the canonical moves from
--    base_ply on, apart by one blank: THEIRS MINE [THEIRS MINE]...
-- 3. conditional_plies: a ply played from a tree (moves.inbound_id is
--    the tree's mail, which signed the reply), with the base_ply of that
--    tree, for the record line (ply_records.cond) and the archive.
--
-- A tree goes with its game, and when moves are taken back
-- (store_move_take_back); a conditional ply goes with its move.

CREATE TABLE conditional_trees (
	game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
	player_id INTEGER NOT NULL REFERENCES players(id),
	inbound_id INTEGER NOT NULL REFERENCES inbound(id),
	sha256 TEXT NOT NULL DEFAULT '',
	received INTEGER NOT NULL,
	base_ply INTEGER NOT NULL CHECK (base_ply >= 0),
	played INTEGER NOT NULL DEFAULT 0 CHECK (played >= 0),
	PRIMARY KEY (game_id, player_id)
) STRICT, WITHOUT ROWID;

CREATE TABLE conditional_lines (
	game_id INTEGER NOT NULL,
	player_id INTEGER NOT NULL,
	seq INTEGER NOT NULL CHECK (seq >= 1),
	moves TEXT NOT NULL CHECK (length(moves) > 0),
	PRIMARY KEY (game_id, player_id, seq),
	FOREIGN KEY (game_id, player_id)
		REFERENCES conditional_trees(game_id, player_id)
		ON DELETE CASCADE
) STRICT, WITHOUT ROWID;

CREATE TABLE conditional_plies (
	game_id INTEGER NOT NULL,
	ply INTEGER NOT NULL,
	base_ply INTEGER NOT NULL CHECK (base_ply >= 0),
	PRIMARY KEY (game_id, ply),
	FOREIGN KEY (game_id, ply) REFERENCES moves(game_id, ply)
		ON DELETE CASCADE
) STRICT, WITHOUT ROWID;

-- The record line's cond=N (core/record2.h RECORD2_F_COND): N, where the
-- fields say so.
ALTER TABLE ply_records ADD COLUMN cond INTEGER NOT NULL DEFAULT 0;
