-- 014-summary.sql -- the daily summary: a player who chose `set summary
-- daily HH:MM` gets their non-urgent mails as one mail a day, at that
-- local time (server/summary.c).
--
-- player_settings.summary_at: the chosen time, minutes after local
--   midnight (0 .. 1439), or -1 for off (every mail at once, the
--   default).
-- player_settings.summary_due, summary_sent: the schedule, the
--   service's to keep: the instant the next summary is due (0: to be
--   worked out at the next timer run, after the time or the zone
--   changed) and when the last one went (0: never).
-- summary_items: what was noted instead of sent, one row per notice
--   held back, in order: the notice's kind word, the game, and the text
--   the summary shows of it ('' for a "your move", which the summary
--   shows from the game as it stands).  The summary mails and deletes a
--   player's rows in the timer's one transaction, so each is told once
--   and a crash before the commit loses none.

ALTER TABLE player_settings ADD COLUMN summary_at INTEGER NOT NULL
	DEFAULT -1 CHECK (summary_at BETWEEN -1 AND 1439);
ALTER TABLE player_settings ADD COLUMN summary_due INTEGER NOT NULL
	DEFAULT 0;
ALTER TABLE player_settings ADD COLUMN summary_sent INTEGER NOT NULL
	DEFAULT 0;

CREATE TABLE summary_items (
	id INTEGER PRIMARY KEY,
	player_id INTEGER NOT NULL REFERENCES players(id) ON DELETE CASCADE,
	game_id INTEGER REFERENCES games(id) ON DELETE CASCADE,
	kind TEXT NOT NULL CHECK (length(kind) BETWEEN 1 AND 24
				  AND kind NOT GLOB '*[^a-z_]*'),
	text TEXT NOT NULL DEFAULT '',
	created INTEGER NOT NULL
) STRICT;
CREATE INDEX summary_items_player ON summary_items(player_id, id);
CREATE INDEX player_settings_summary_due ON player_settings(summary_due)
	WHERE summary_at >= 0;
