-- 021-language.sql -- the language a player reads their mails in
-- (`set language de`; server/settings.c): a primary language subtag of
-- two or three lower-case letters, or '' for the club's default
-- ([templates] language).  Only the shape is kept here; which languages
-- exist is the templates' (the sub-folders the daemon finds), checked by
-- the service when a player chooses.
ALTER TABLE player_settings ADD COLUMN language TEXT NOT NULL DEFAULT ''
	CHECK (language = '' OR (length(language) BETWEEN 2 AND 3
				 AND language NOT GLOB '*[^a-z]*'));
