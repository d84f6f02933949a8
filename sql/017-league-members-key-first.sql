-- 017-league-members-key-first.sql -- league_members with its key
-- columns first, so that `ashes db check` reads it right.
--
-- 009 declared league_members (season_id, group_no, division, seed,
-- player_id) with PRIMARY KEY (season_id, player_id): a WITHOUT ROWID
-- table stores its key columns first, so group_no, division and seed
-- sit in the record after player_id, away from their declared places.
-- PRAGMA integrity_check of SQLite 3.40 (Debian 12 ships 3.40.1) tests
-- a NOT NULL column of such a table at its declared place instead of
-- its place in the record, and so reports "NULL value in
-- league_members.group_no" (and division, seed) for every row, where
-- none is NULL: store_check(), and with it `ashes db check`, called a
-- sound database broken as soon as a league had a member.  The same
-- columns in the key's order (key first) are read alike by every
-- version.  Nothing else changes: the same columns, constraints and
-- index; no table refers to this one.  As in 002, foreign keys are off
-- while a migration runs and checked before it commits.
-- tests/store/test_store_upgrade.c checks that every WITHOUT ROWID table
-- declares its key columns first, in the key's order.

CREATE TABLE league_members_new (
	season_id INTEGER NOT NULL
		REFERENCES league_seasons(id) ON DELETE CASCADE,
	player_id INTEGER NOT NULL REFERENCES players(id) ON DELETE CASCADE,
	group_no INTEGER NOT NULL CHECK (group_no >= 1),
	division INTEGER NOT NULL CHECK (division >= 1),
	seed INTEGER NOT NULL CHECK (seed >= 1),
	PRIMARY KEY (season_id, player_id)
) STRICT, WITHOUT ROWID;
INSERT INTO league_members_new (season_id, player_id, group_no, division,
		seed)
	SELECT season_id, player_id, group_no, division, seed
	FROM league_members;
DROP TABLE league_members;
ALTER TABLE league_members_new RENAME TO league_members;
CREATE INDEX league_members_player ON league_members(player_id);
