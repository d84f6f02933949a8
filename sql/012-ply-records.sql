-- 012-ply-records.sql -- each ply's line of the game's record, written
-- once by the service in the transaction that stores the ply: what the
-- record's ply line carries besides the move (core/record2.h): which of
-- the fields it has (enum record2_field bits), the signer's short key,
-- the receipt, the clock left and the sha256 of the signed part.
-- `history` and `archive export` read these rows; a ply stored before
-- this migration has none until it is first read (server/game_record.c
-- writes it then, the same way).  A ply taken back takes its line along.

CREATE TABLE ply_records (
	game_id INTEGER NOT NULL,
	ply INTEGER NOT NULL,
	fields INTEGER NOT NULL CHECK (fields >= 0),
	signer TEXT NOT NULL DEFAULT '',
	at INTEGER NOT NULL DEFAULT 0,
	clock INTEGER NOT NULL DEFAULT 0,
	sha256 TEXT NOT NULL DEFAULT '',
	PRIMARY KEY (game_id, ply),
	FOREIGN KEY (game_id, ply) REFERENCES moves(game_id, ply)
		ON DELETE CASCADE
) STRICT, WITHOUT ROWID;
