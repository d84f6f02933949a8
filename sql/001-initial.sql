-- 001-initial.sql -- the first ashesd schema: players and their keys and
-- addresses, games and moves, the inbound archive, the signature history,
-- observers, the outbox, IMAP mailbox state and rate-limit counters.
--
-- Applied by store_migrate() inside one transaction that also sets
-- PRAGMA user_version = 1, with foreign keys off while it runs and checked
-- before it commits; so a migration holds neither BEGIN/COMMIT nor PRAGMA
-- foreign_keys.  Every table is STRICT; times are unix seconds.

CREATE TABLE players (
	id INTEGER PRIMARY KEY,
	name TEXT NOT NULL COLLATE NOCASE UNIQUE
		CHECK (length(name) BETWEEN 1 AND 64),
	created INTEGER NOT NULL
) STRICT;

-- One or more mail addresses per player; an address belongs to one player,
-- so that an unsigned club (require_signature = no) can tell who wrote.
CREATE TABLE player_addresses (
	id INTEGER PRIMARY KEY,
	player_id INTEGER NOT NULL REFERENCES players(id) ON DELETE CASCADE,
	address TEXT NOT NULL COLLATE NOCASE UNIQUE
		CHECK (length(address) BETWEEN 3 AND 320),
	created INTEGER NOT NULL,
	failing INTEGER NOT NULL DEFAULT 0 CHECK (failing IN (0, 1)),
	failing_since INTEGER,
	failing_reason TEXT
) STRICT;
CREATE INDEX player_addresses_player ON player_addresses(player_id);

-- OpenPGP fingerprints, upper-case hex; a key is bound to one player, once.
CREATE TABLE player_keys (
	fingerprint TEXT PRIMARY KEY
		CHECK (length(fingerprint) IN (40, 64)
		       AND fingerprint NOT GLOB '*[^0-9A-F]*'),
	player_id INTEGER NOT NULL REFERENCES players(id) ON DELETE CASCADE,
	created INTEGER NOT NULL
) STRICT, WITHOUT ROWID;
CREATE INDEX player_keys_player ON player_keys(player_id);

-- A game from its challenge on.  status 'challenge' is offered to one
-- player, 'open' (challenge any) to whoever accepts; until then one colour
-- may be NULL.  ply counts the rows in moves.
CREATE TABLE games (
	id INTEGER PRIMARY KEY,
	variant TEXT NOT NULL,
	challenger_id INTEGER NOT NULL REFERENCES players(id),
	white_id INTEGER REFERENCES players(id),
	black_id INTEGER REFERENCES players(id),
	swapped INTEGER NOT NULL DEFAULT 0 CHECK (swapped IN (0, 1)),
	status TEXT NOT NULL CHECK (status IN ('challenge', 'open', 'active',
		'finished', 'declined', 'withdrawn')),
	ply INTEGER NOT NULL DEFAULT 0 CHECK (ply >= 0),
	result TEXT,
	end_reason TEXT,
	created INTEGER NOT NULL,
	updated INTEGER NOT NULL,
	draw_offer_by INTEGER REFERENCES players(id),
	draw_offer_ply INTEGER,
	clock_settings TEXT,
	clock_white INTEGER,
	clock_black INTEGER,
	clock_turn_started INTEGER,
	deadline_at INTEGER,
	reminders_sent INTEGER NOT NULL DEFAULT 0,
	thread_message_id TEXT UNIQUE,
	CHECK (challenger_id IN (white_id, black_id)),
	CHECK (status IN ('challenge', 'open', 'declined', 'withdrawn')
	       OR (white_id IS NOT NULL AND black_id IS NOT NULL))
) STRICT;
CREATE INDEX games_white ON games(white_id);
CREATE INDEX games_black ON games(black_id);
CREATE INDEX games_challenger ON games(challenger_id);
CREATE INDEX games_status ON games(status);
CREATE INDEX games_deadline ON games(deadline_at)
	WHERE deadline_at IS NOT NULL;

-- The raw archive of every mail handled, and the idempotence record: a
-- Message-ID or a byte-identical mail is handled once.
CREATE TABLE inbound (
	id INTEGER PRIMARY KEY,
	message_id TEXT UNIQUE,
	sha256 TEXT NOT NULL UNIQUE
		CHECK (length(sha256) = 64 AND sha256 NOT GLOB '*[^0-9a-f]*'),
	raw BLOB NOT NULL,
	received INTEGER NOT NULL,
	source TEXT,
	sender_address TEXT,
	sender_fingerprint TEXT,
	player_id INTEGER REFERENCES players(id),
	outcome TEXT
) STRICT;

CREATE TABLE moves (
	game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
	ply INTEGER NOT NULL CHECK (ply >= 1),
	move TEXT NOT NULL,
	player_id INTEGER REFERENCES players(id),
	played_at INTEGER NOT NULL,
	inbound_id INTEGER REFERENCES inbound(id),
	PRIMARY KEY (game_id, ply)
) STRICT, WITHOUT ROWID;

-- Signature history in the style of Debian's dak: the sha256 of a signed
-- text is unique, so a signed text is accepted once, ever.
CREATE TABLE signatures (
	content_sha256 TEXT PRIMARY KEY
		CHECK (length(content_sha256) = 64
		       AND content_sha256 NOT GLOB '*[^0-9a-f]*'),
	fingerprint TEXT NOT NULL,
	signature_created INTEGER NOT NULL,
	inbound_id INTEGER REFERENCES inbound(id),
	recorded INTEGER NOT NULL
) STRICT, WITHOUT ROWID;

CREATE TABLE observers (
	game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
	player_id INTEGER NOT NULL REFERENCES players(id) ON DELETE CASCADE,
	created INTEGER NOT NULL,
	PRIMARY KEY (game_id, player_id)
) STRICT, WITHOUT ROWID;

-- Mail to send.  Pending: sent_at IS NULL AND failed = 0.
CREATE TABLE outbox (
	id INTEGER PRIMARY KEY,
	recipient TEXT NOT NULL,
	message_id TEXT,
	headers TEXT NOT NULL,
	body TEXT NOT NULL,
	game_id INTEGER REFERENCES games(id),
	inbound_id INTEGER REFERENCES inbound(id),
	created INTEGER NOT NULL,
	attempts INTEGER NOT NULL DEFAULT 0,
	next_attempt_at INTEGER NOT NULL,
	sent_at INTEGER,
	failed INTEGER NOT NULL DEFAULT 0 CHECK (failed IN (0, 1)),
	last_error TEXT
) STRICT;
CREATE INDEX outbox_due ON outbox(next_attempt_at)
	WHERE sent_at IS NULL AND failed = 0;
CREATE INDEX outbox_message_id ON outbox(message_id)
	WHERE message_id IS NOT NULL;
CREATE INDEX outbox_game ON outbox(game_id) WHERE game_id IS NOT NULL;

-- IMAP: where each mailbox source stands.
CREATE TABLE mailbox_state (
	source TEXT PRIMARY KEY,
	uidvalidity INTEGER NOT NULL CHECK (uidvalidity BETWEEN 0 AND 4294967295),
	last_uid INTEGER NOT NULL CHECK (last_uid BETWEEN 0 AND 4294967295),
	updated INTEGER NOT NULL
) STRICT, WITHOUT ROWID;

-- Fixed-window message counters per sender.
CREATE TABLE rate_limits (
	sender TEXT PRIMARY KEY COLLATE NOCASE,
	window_start INTEGER NOT NULL,
	count INTEGER NOT NULL
) STRICT, WITHOUT ROWID;
