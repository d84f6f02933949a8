-- 007-outbox-image-type.sql -- the board picture's type in the outbox
-- envelope, since pictures are PNG by default (Gmail, Outlook and Yahoo
-- show no SVG) and SVG for the players who ask for it.
--
-- image_type: 'image/png' or 'image/svg+xml', the MIME type of the bytes
--   in `image`; NULL exactly when there is no picture.  Every picture
--   queued before this migration was SVG, and its row says so now.
--   src/store/store_outbox.c writes and reads it; src/mail/compose.c
--   names the mail's part board.png or board.svg by it.
--
-- ALTER TABLE can add the column with a CHECK on its own value (SQLite
-- tests it against the rows already there, all NULL then), but not the
-- rule that a picture has a type: the triggers keep that one, as the
-- CHECKs of 003 keep the others.  The envelope version stays 2: a row
-- from before this migration reads the same with its type filled in.

ALTER TABLE outbox ADD COLUMN image_type TEXT
	CHECK (image_type IS NULL OR
	       (image_type IN ('image/png', 'image/svg+xml') AND
		image IS NOT NULL));
UPDATE outbox SET image_type = 'image/svg+xml' WHERE image IS NOT NULL;
CREATE TRIGGER outbox_image_typed_insert BEFORE INSERT ON outbox
	WHEN NEW.image IS NOT NULL AND NEW.image_type IS NULL
BEGIN
	SELECT RAISE(ABORT, 'an outbox picture needs its image_type');
END;
CREATE TRIGGER outbox_image_typed_update BEFORE UPDATE OF image, image_type
	ON outbox
	WHEN NEW.image IS NOT NULL AND NEW.image_type IS NULL
BEGIN
	SELECT RAISE(ABORT, 'an outbox picture needs its image_type');
END;
