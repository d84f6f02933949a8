-- 018-daemon-health.sql -- what the running daemon says of itself, for
-- `ashes status` (src/store/store_health.h).
--
-- daemon_health: one row (id 1), written by ashesd's mail loop at the end
-- of every turn with one UPSERT: its pid (0 once it stopped cleanly),
-- when it started, the heartbeat (when the last turn ended), the last
-- successful contact with the mailbox (NULL: none yet) and how many mails
-- were waiting there at its last look (NULL: not looked yet).  All times
-- are the daemon's clock, epoch seconds.  The rest of the health report
-- (replies unsent or failed, mails quarantined) is read from the outbox
-- and inbound tables as they are.
CREATE TABLE daemon_health (
	id INTEGER PRIMARY KEY CHECK (id = 1),
	pid INTEGER NOT NULL CHECK (pid >= 0),
	started INTEGER NOT NULL,
	heartbeat INTEGER NOT NULL,
	mailbox_contact INTEGER,
	mailbox_waiting INTEGER CHECK (mailbox_waiting >= 0)
) STRICT;

-- What `ashes status` counts must not read every stored mail (the rows
-- hold their raw bytes, pictures and html before these columns): the
-- replies that failed for good, by when (next_attempt_at keeps the time
-- of the failure), and the mails set aside in the quarantine, by their
-- receipt (the outcome the daemon records for them, loop_batch.c).
CREATE INDEX outbox_failed ON outbox(next_attempt_at) WHERE failed = 1;
CREATE INDEX inbound_quarantined ON inbound(received)
	WHERE outcome GLOB 'ignored: quarantined after *';
