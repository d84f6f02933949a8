-- 011-key-proofs.sql -- who a player is, round three: a new key binds
-- only after a mail signed by it, and a name may not look like another.
--
-- 1. key_claims: `key replace` signed by a player's key (old_fingerprint)
--    offered the key `fingerprint`; it binds when a mail signed by that
--    key brings back `code` (`confirm CODE`).  Until then it binds nobody
--    and blocks nobody: the key's real owner may register with it, or
--    another player claim it too.  One pending claim per player (a new
--    `key replace` replaces it).
-- 2. players_skeleton: a name's skeleton -- case folded, the look-alikes
--    0/o, 1/l/I and 5/s made one, trailing - and _ dropped (in the spirit
--    of Unicode TR39's confusables) -- indexed, so that "is there a name
--    that looks like this one" is one query.  The expression must be the
--    one store_player_by_skeleton() writes, character for character.

CREATE TABLE key_claims (
	player_id INTEGER PRIMARY KEY REFERENCES players(id) ON DELETE CASCADE,
	fingerprint TEXT NOT NULL
		CHECK (length(fingerprint) IN (40, 64)
		       AND fingerprint NOT GLOB '*[^0-9A-F]*'),
	old_fingerprint TEXT NOT NULL,
	code TEXT NOT NULL CHECK (length(code) BETWEEN 6 AND 32),
	created INTEGER NOT NULL
) STRICT;
CREATE INDEX key_claims_fingerprint ON key_claims(fingerprint);

CREATE INDEX players_skeleton ON players(
	rtrim(replace(replace(replace(lower(replace(name, 'I', 'l')),
		'0', 'o'), '1', 'l'), '5', 's'), '-_'));
