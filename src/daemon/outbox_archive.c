/* outbox_archive.c -- an archive mail's .tar.gz, made at send time; see
 * outbox_archive.h. */
#include <config.h>

#include "daemon/outbox_archive.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "archive/archive.h"
#include "archive/archive_player.h"
#include "config/settings.h"
#include "mail/inbound.h"
#include "render/template.h"
#include "store/store.h"
#include "util/buf.h"

/* Read the file at path into out.  0, or -1 (errno). */
static int outbox_archive_read(const char *path, struct buf *out)
{
	char chunk[65536];
	FILE *f = fopen(path, "rb");
	size_t n;
	int ret = 0;

	if (f == NULL)
		return -1;
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		buf_append(out, chunk, n);
	if (ferror(f))
		ret = -1;
	fclose(f);
	return ret;
}

/* The set of the archive mail's reader's language (their `set
 * language`, else the club's): its notes and the archive's README are
 * in it, as every mail the service writes is. */
static struct template_set *outbox_archive_lang(const struct config *cfg,
						struct store *store,
						struct template_set *ts,
						const char *recipient)
{
	struct store_player *p = NULL;
	struct store_settings s;
	struct template_set *ls = NULL;
	const char *e;

	if (recipient != NULL &&
	    store_player_by_address(store, recipient, &p, &e) == 1 &&
	    store_settings_get(store, p->id, &s, &e) == 0 &&
	    s.language[0] != '\0')
		ls = template_set_language(ts, s.language);
	store_player_free(&p);
	if (ls == NULL)
		ls = template_set_language(ts, cfg->templates.language);
	return ls != NULL ? ls : ts;
}

/* The words for a reader whose archive cannot be made, into note. */
static void outbox_archive_note(struct template_set *ts, int64_t game_id,
				const char *reason, struct buf *note)
{
	struct template_ctx *ctx = template_ctx_new();
	const char *e;

	template_ctx_setf(ctx, "game", "%" PRId64, game_id);
	template_ctx_set(ctx, "reason", reason);
	if (template_render(ts, "mail/archive-unavailable.txt", ctx, note,
			    &e) < 0) {
		/* The mail must still say it: the bare reason. */
		buf_reset(note);
		buf_printf(note, "The archive could not be made: %s\n", reason);
	}
	template_ctx_free(&ctx);
}

/* Is the archive for someone who did not play the game (*public_r)?
 * Only a player of it, at their confirmed address, gets their own
 * copy, with every mail as received -- and, once the game is over, the
 * notes they kept on it for themselves (*notes_of_r, their id; else 0);
 * anyone else the public one.  -1 with *error_r when the store failed. */
static int outbox_archive_public(struct store *store, int64_t game_id,
				 const char *recipient, bool *public_r,
				 int64_t *notes_of_r, const char **error_r)
{
	struct store_player *p = NULL;
	struct store_game *g = NULL;
	int r, ret = -1;

	*public_r = true;
	*notes_of_r = 0;
	r = store_player_by_address(store, recipient, &p, error_r);
	if (r < 0)
		goto out;
	if (r == 1 && (r = store_game_load(store, game_id, &g,
					   error_r)) < 0)
		goto out;
	if (p != NULL && g != NULL &&
	    (p->id == g->white_id || p->id == g->black_id)) {
		*public_r = false;
		if (g->status == STORE_GAME_FINISHED ||
		    g->status == STORE_GAME_CANCELLED)
			*notes_of_r = p->id;
	}
	ret = 0;
out:
	store_player_free(&p);
	store_game_free(&g);
	return ret;
}

/* The note that follows the archive mail's text: the command that
 * checks it against the club's key, and what copy it is. */
static void outbox_archive_verify_note(struct template_set *ts,
				       int64_t game_id, const char *key,
				       bool public_copy, struct buf *note)
{
	struct template_ctx *ctx = template_ctx_new();
	const char *e;

	template_ctx_setf(ctx, "game", "%" PRId64, game_id);
	template_ctx_set(ctx, "daemon_key", key);
	template_ctx_set_bool(ctx, "public", public_copy);
	if (template_render(ts, "mail/archive-verify.txt", ctx, note,
			    &e) < 0) {
		buf_reset(note);
		buf_printf(note, "\nCheck it with the club's key:\n\n    "
			   "ashes archive verify game-%" PRId64 ".tar.gz "
			   "--daemon-key %s\n", game_id, key);
	}
	template_ctx_free(&ctx);
}

void outbox_archive_file_free(struct outbox_archive_file *file)
{
	buf_free(&file->tgz);
	buf_free(&file->note);
}

enum outbox_archive_result outbox_archive_make(
	const struct config *cfg, struct store *store, struct pgp_ctx *pgp,
	struct template_set *ts, int64_t game_id, const char *recipient,
	int64_t now, struct outbox_archive_file *file, const char **error_r)
{
	struct buf *note = &file->note;
	static char errbuf[512];
	struct archive_source src;
	struct archive_summary sum;
	struct inbound_options in;
	const char *addrs[2], *tmp, *e = NULL;
	char dir[4096], path[4200], site[256] = "";
	enum outbox_archive_result ret = OUTBOX_ARCHIVE_LATER;

	snprintf(file->name, sizeof(file->name), "game-%" PRId64 ".tar.gz",
		 game_id);
	ts = outbox_archive_lang(cfg, store, ts, recipient);
	if (pgp == NULL) {
		*error_r = "the daemon has no keyring ([gpg] home) to sign "
			   "archives with";
		outbox_archive_note(ts, game_id, "the club's server has no "
				    "key to sign it with", note);
		ret = OUTBOX_ARCHIVE_NONE;
		goto out;
	}
	settings_site(cfg, site, sizeof(site));
	settings_inbound(cfg, addrs, &in);
	memset(&src, 0, sizeof(src));
	src.store = store;
	src.pgp = pgp;
	src.signing_key = cfg->gpg.signing_key;
	src.site = site[0] != '\0' ? site : NULL;
	src.draw_offers = cfg->game.variant.draw_offers;
	src.max_age = in.max_age > 0 ? in.max_age : INBOUND_DEFAULT_MAX_AGE;
	src.max_future = in.max_future > 0 ? in.max_future :
			 INBOUND_DEFAULT_MAX_FUTURE;
	src.now = now;
	src.templates = ts;
	if (outbox_archive_public(store, game_id, recipient,
				  &src.public_copy, &src.notes_of, &e) < 0) {
		snprintf(errbuf, sizeof(errbuf), "the archive of game %"
			 PRId64 ": %s", game_id, e);
		*error_r = errbuf;
		goto out;
	}
	tmp = getenv("TMPDIR");
	snprintf(dir, sizeof(dir), "%s/ashesd-archive-XXXXXX",
		 tmp != NULL && tmp[0] != '\0' ? tmp : "/tmp");
	if (mkdtemp(dir) == NULL) {
		snprintf(errbuf, sizeof(errbuf), "%.300s: %s", dir,
			 strerror(errno));
		*error_r = errbuf;
		goto out;
	}
	snprintf(path, sizeof(path), "%s/%s", dir, file->name);
	if (archive_export(&src, game_id, path, &sum, &e) < 0) {
		snprintf(errbuf, sizeof(errbuf), "the archive of game %"
			 PRId64 ": %s", game_id, e);
		*error_r = errbuf;
		/* What no retry mends: the key the operator must make, a
		 * game that is gone. */
		if (strstr(e, "no key to sign") != NULL) {
			outbox_archive_note(ts, game_id, "the club's server "
					    "has no key to sign it with yet",
					    note);
			ret = OUTBOX_ARCHIVE_NONE;
		} else if (strncmp(e, "no game", 7) == 0) {
			outbox_archive_note(ts, game_id, "the game is no "
					    "longer in the club's database",
					    note);
			ret = OUTBOX_ARCHIVE_NONE;
		}
	} else if (outbox_archive_read(path, &file->tgz) < 0) {
		snprintf(errbuf, sizeof(errbuf), "%.300s: %s", path,
			 strerror(errno));
		*error_r = errbuf;
	} else {
		outbox_archive_verify_note(ts, game_id, sum.signer,
					   src.public_copy, note);
		ret = OUTBOX_ARCHIVE_MADE;
	}
	unlink(path);
	rmdir(dir);
out:
	return ret;
}

/* The words for a reader whose export cannot be made, into note. */
static void outbox_export_note(struct template_set *ts, const char *reason,
			       struct buf *note)
{
	struct template_ctx *ctx = template_ctx_new();
	const char *e;

	template_ctx_set(ctx, "reason", reason);
	if (template_render(ts, "mail/export-unavailable.txt", ctx, note,
			    &e) < 0) {
		buf_reset(note);
		buf_printf(note, "\nThe file could not be made: %s.\n",
			   reason);
	}
	template_ctx_free(&ctx);
}

enum outbox_archive_result outbox_export_make(
	const struct config *cfg, struct store *store, struct pgp_ctx *pgp,
	struct template_set *ts, const char *recipient, int64_t now,
	struct outbox_archive_file *file, const char **error_r)
{
	static char errbuf[512];
	struct store_player *p = NULL;
	char site[256];
	const char *e = NULL;
	enum outbox_archive_result ret = OUTBOX_ARCHIVE_LATER;
	int r;

	file->type = OUTBOX_EXPORT_TYPE;
	r = store_player_by_address(store, recipient, &p, &e);
	if (r < 0) {
		snprintf(errbuf, sizeof(errbuf), "an export: %s", e);
		*error_r = errbuf;
		goto out;
	}
	if (r == 0) {
		*error_r = "an export to an address that is no player's now";
		outbox_export_note(ts, "this address is no longer the one "
				   "your game mails go to", &file->note);
		ret = OUTBOX_ARCHIVE_NONE;
		goto out;
	}
	snprintf(file->name, sizeof(file->name), "ashes-export-%s.json",
		 p->name);
	settings_site(cfg, site, sizeof(site));
	if (archive_player_export(store, pgp, p->id, site[0] ? site : NULL,
				  now, &file->tgz, &e) < 0) {
		snprintf(errbuf, sizeof(errbuf), "the export of %s: %s",
			 p->name, e);
		*error_r = errbuf;
		goto out;
	}
	ret = OUTBOX_ARCHIVE_MADE;
out:
	store_player_free(&p);
	return ret;
}
