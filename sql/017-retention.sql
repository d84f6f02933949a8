-- 017-retention.sql -- what the club keeps of a mail, and for how long
-- ([retention] in ashesd.conf; src/server/retention.c decides, the store
-- only writes).
--
-- 1. inbound.reduced: what became of the raw bytes of a mail read.
--    NULL: they are as received.  'signed': they were replaced by the
--    mail reduced to what proves what its sender signed (the signed part
--    and signature, the clearsigned block, the encrypted message as it
--    came; no header but the thread's: pgp.h, pgp_reduce_mail), after
--    its game ended and [retention] raw_mail passed, or when its sender
--    was deleted.  'dropped': the bytes are gone (a refused, ignored,
--    unsigned or duplicate mail nothing refers to, after refused_mail);
--    the row stays, with its outcome, sender and sha256.  reduced_at
--    says when.  sha256 stays the digest of the mail as received, so a
--    copy delivered again is still known as a duplicate.
-- 2. Two partial indexes, so that the retention pass finds its next
--    batch without reading the whole table: the rows still as received,
--    by receipt, and the sent mails still holding their html.
ALTER TABLE inbound ADD COLUMN reduced TEXT
	CHECK (reduced IS NULL OR reduced IN ('signed', 'dropped'));
ALTER TABLE inbound ADD COLUMN reduced_at INTEGER
	CHECK ((reduced IS NULL) = (reduced_at IS NULL));
CREATE INDEX inbound_as_received ON inbound(received)
	WHERE reduced IS NULL;
CREATE INDEX outbox_sent_html ON outbox(sent_at)
	WHERE sent_at IS NOT NULL AND html IS NOT NULL;
