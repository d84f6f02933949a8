/* archive_export.c -- `ashes archive export`: one game's archive written
 * into a new folder (or packed by tar into a .tar.gz): the record, the
 * mails and what their signatures cover, the keys, README.txt, and
 * MANIFEST with the daemon's signature over it (see archive.h). */
#include <config.h> /* autoconf's: _GNU_SOURCE (mkdtemp) */
#include "archive/archive_private.h"

#include <errno.h>
#include <inttypes.h>
#include <libgen.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "render/template.h"
#include "util/xalloc.h"
#include "util/xstr.h"
#include "util/run.h"

static __thread char export_error[1024];

static int export_fail(const char **error_r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static int export_fail(const char **error_r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(export_error, sizeof(export_error), fmt, ap);
	va_end(ap);
	*error_r = export_error;
	return -1;
}

/* A folder being filled and the MANIFEST of what went in. */
struct export_out {
	const char *dir;
	struct archive_manifest manifest;
};

static int export_put(struct export_out *o, const char *name,
		      const void *data, size_t len, const char **error_r)
{
	if (archive_write_file(o->dir, name, data, len) < 0)
		return export_fail(error_r, "%s/%s: %s", o->dir, name,
				   strerror(errno));
	archive_manifest_add(&o->manifest, name, data, len);
	return 0;
}

static const char *export_form(const struct archive_mail *m)
{
	return m->kind == PGP_SIGNED_MIME ? "PGP/MIME" :
	       m->kind == PGP_SIGNED_CLEAR ? "inline" :
	       m->kind == PGP_SIGNED_MESSAGE ? "signed message" : "unsigned";
}

/* The name of whoever sent m: the player, else the address. */
static const char *export_sender(const struct archive_game *g,
				 const struct archive_mail *m,
				 bool public_copy)
{
	if (m->in->player_id != 0 && m->in->player_id == g->row->white_id)
		return g->white;
	if (m->in->player_id != 0 && m->in->player_id == g->row->black_id)
		return g->black;
	/* An address is the players' own copy's to show, no one else's. */
	if (public_copy)
		return "(not a player of the game)";
	return m->in->sender_address != NULL ? m->in->sender_address :
	       "(unknown sender)";
}

static void export_mail_ctx(struct template_ctx *it,
			    const struct archive_game *g,
			    const struct archive_mail *m, bool public_copy)
{
	char when[RECORD2_TIME_LEN + 1];

	template_ctx_set(it, "name", m->stem);
	template_ctx_set(it, "form", export_form(m));
	template_ctx_set(it, "signer", export_sender(g, m, public_copy));
	if (m->kind != PGP_SIGNED_NONE && m->pgp.fpr[0] != '\0')
		template_ctx_set(it, "key", m->pgp.fpr);
	template_ctx_set(it, "received",
			 record2_time_format(m->in->received, when));
	template_ctx_set(it, "what", m->what[0] != '\0' ? m->what :
			 "(no command)");
}

static int export_readme(const struct archive_source *src,
			 const struct archive_game *g,
			 const struct record2 *rec, const char *daemon_key,
			 const char *notes_author, struct export_out *o,
			 const char **error_r)
{
	struct template_ctx *ctx = template_ctx_new();
	struct buf out = BUF_INIT;
	char when[RECORD2_TIME_LEN + 1];
	const char *error;
	int ret = -1;

	template_ctx_set_int(ctx, "game", (long)g->row->id);
	if (src->site != NULL)
		template_ctx_set(ctx, "site", src->site);
	template_ctx_set(ctx, "white", g->white[0] ? g->white : "(nobody)");
	template_ctx_set(ctx, "black", g->black[0] ? g->black : "(nobody)");
	template_ctx_set(ctx, "white_key", g->white_key);
	template_ctx_set(ctx, "black_key", g->black_key);
	template_ctx_set(ctx, "variant", record2_tag_get(rec, "Variant"));
	template_ctx_set(ctx, "result", record2_tag_get(rec, "Result"));
	template_ctx_set(ctx, "termination",
			 record2_tag_get(rec, "Termination"));
	template_ctx_set(ctx, "daemon_key", daemon_key);
	template_ctx_set_bool(ctx, "public", src->public_copy);
	if (notes_author[0] != '\0')
		template_ctx_set(ctx, "notes_author", notes_author);
	template_ctx_set(ctx, "exported", record2_time_format(src->now, when));
	template_ctx_list(ctx, "plies");
	template_ctx_list(ctx, "mails");
	for (size_t i = 0; i < g->nmails; i++) {
		const struct archive_mail *m = &g->mails[i];
		struct template_ctx *it = template_ctx_add(ctx, m->ply > 0 ?
							   "plies" : "mails");
		export_mail_ctx(it, g, m, src->public_copy);
		if (m->ply > 0) {
			template_ctx_set_int(it, "ply", m->ply);
			template_ctx_set(it, "move", rec->plies[m->ply - 1].move);
		}
	}
	if (template_render(src->templates, "archive/README.txt", ctx, &out,
			    &error) < 0) {
		export_fail(error_r, "%s", error);
		goto out;
	}
	ret = export_put(o, "README.txt", out.data, out.len, error_r);
out:
	buf_free(&out);
	template_ctx_free(&ctx);
	return ret;
}

/* The User ID a public copy gives a player's key: the player's club
 * name, never their address (a new string). */
static char *export_key_label(const struct archive_game *g, const char *fpr)
{
	const char *name = NULL;
	char label[160];

	if (strcmp(fpr, g->white_key) == 0 && g->white[0] != '\0')
		name = g->white;
	else if (strcmp(fpr, g->black_key) == 0 && g->black[0] != '\0')
		name = g->black;
	for (size_t i = 0; i < g->nmails && name == NULL; i++) {
		const struct archive_mail *m = &g->mails[i];
		if (strcmp(m->pgp.fpr, fpr) == 0 && m->in->player_id != 0 &&
		    m->in->player_id == g->row->white_id)
			name = g->white;
		else if (strcmp(m->pgp.fpr, fpr) == 0 &&
			 m->in->player_id != 0 &&
			 m->in->player_id == g->row->black_id)
			name = g->black;
	}
	snprintf(label, sizeof(label), "%s (user ID withheld by the club; "
		 "not self-signed)", name != NULL ? name :
		 "a signer of the game");
	return xstrdup(label);
}

/* Every signer's key, WhiteKey's and BlackKey's, and the daemon's, once
 * each, as keys.asc and keys.gpg; in a public copy without the players'
 * user IDs. */
static int export_keys(const struct archive_source *src,
		       const struct archive_game *g, const char *daemon_key,
		       struct export_out *o, const char **error_r)
{
	const char **fprs = xzalloc((g->nmails + 4) * sizeof(*fprs));
	char **labels = NULL;
	struct buf armored = BUF_INIT, binary = BUF_INIT;
	const char *error;
	size_t n = 0;
	int ret = -1, r;

#define EXPORT_ADD(fpr) do { \
		bool seen_ = false; \
		for (size_t k_ = 0; k_ < n; k_++) \
			seen_ = seen_ || strcmp(fprs[k_], (fpr)) == 0; \
		if (!seen_ && (fpr)[0] != '\0') \
			fprs[n++] = (fpr); \
	} while (0)
	EXPORT_ADD(g->white_key);
	EXPORT_ADD(g->black_key);
	for (size_t i = 0; i < g->nmails; i++)
		if (g->mails[i].kind != PGP_SIGNED_NONE &&
		    g->mails[i].pgp.status != PGP_SIG_NONE &&
		    g->mails[i].pgp.status != PGP_SIG_UNKNOWN_KEY &&
		    g->mails[i].pgp.status != PGP_SIG_ERROR)
			EXPORT_ADD(g->mails[i].pgp.fpr);
	EXPORT_ADD(daemon_key);
#undef EXPORT_ADD
	if (src->public_copy) {
		labels = xzalloc((n + 1) * sizeof(*labels));
		for (size_t i = 0; i < n; i++)
			if (strcmp(fprs[i], daemon_key) != 0)
				labels[i] = export_key_label(g, fprs[i]);
		r = pgp_public_keys(src->pgp, fprs, (const char *const *)labels,
				    &armored, &binary, &error);
	} else {
		r = pgp_export_keys(src->pgp, fprs, true, &armored, &error);
		if (r == 0)
			r = pgp_export_keys(src->pgp, fprs, false, &binary,
					    &error);
	}
	if (r < 0) {
		export_fail(error_r, "the daemon's keyring: %s", error);
		goto out;
	}
	if (export_put(o, "keys.asc", armored.data, armored.len,
		       error_r) < 0 ||
	    export_put(o, "keys.gpg", binary.data, binary.len, error_r) < 0)
		goto out;
	ret = 0;
out:
	buf_free(&armored);
	buf_free(&binary);
	for (size_t i = 0; labels != NULL && i < n; i++)
		free(labels[i]);
	free(labels);
	free(fprs);
	return ret;
}

/* The .eml of m: as received, or in a public copy only what the
 * signature covers with the thread's headers. */
static int export_eml(const struct archive_source *src,
		      const struct archive_mail *m, const char *name,
		      struct export_out *o, const char **error_r)
{
	struct buf bare = BUF_INIT;
	/* An encrypted mail is kept as its decrypted form (gather). */
	const char *raw = m->form.len > 0 ? m->form.data : m->in->raw;
	size_t raw_len = m->form.len > 0 ? m->form.len : m->in->raw_len;
	const char *error;
	int ret;

	if (!src->public_copy)
		return export_put(o, name, raw, raw_len, error_r);
	if (pgp_public_mail(raw, raw_len, m->thread_headers,
			    m->text, &bare, &error) < 0)
		return export_fail(error_r, "inbound mail %" PRId64 ": %s",
				   m->in->id, error);
	ret = export_put(o, name, bare.data, bare.len, error_r);
	buf_free(&bare);
	return ret;
}

static int export_mails(const struct archive_source *src,
			const struct archive_game *g, struct export_out *o,
			const char **error_r)
{
	char name[32];

	for (size_t i = 0; i < g->nmails; i++) {
		const struct archive_mail *m = &g->mails[i];

		snprintf(name, sizeof(name), "%s.eml", m->stem);
		if (export_eml(src, m, name, o, error_r) < 0)
			return -1;
		if (m->kind == PGP_SIGNED_NONE)
			continue;
		snprintf(name, sizeof(name), "%s.%s", m->stem,
			 m->kind == PGP_SIGNED_MIME ? "signed" :
			 m->kind == PGP_SIGNED_MESSAGE ? "pgp" : "asc");
		if (export_put(o, name, m->signed_part.data,
			       m->signed_part.len, error_r) < 0)
			return -1;
		if (m->kind != PGP_SIGNED_MIME)
			continue;
		snprintf(name, sizeof(name), "%s.sig", m->stem);
		if (export_put(o, name, m->sig.data, m->sig.len, error_r) < 0)
			return -1;
	}
	return 0;
}

/* Everything but MANIFEST and its signature into o->dir. */
static int export_files(const struct archive_source *src,
			const struct archive_game *g, const char *daemon_key,
			struct export_out *o, struct archive_summary *sum,
			const char **error_r)
{
	struct record2 rec;
	struct buf notes = BUF_INIT;
	char author[64];
	size_t len;
	char *text;
	int ret = -1;

	if (archive_record_build(src, g, &rec, error_r) < 0)
		return -1;
	len = record2_format(&rec, NULL, 0);
	text = xzalloc(len + 1);
	record2_format(&rec, text, len + 1);
	if (export_put(o, "record.txt", text, len, error_r) < 0 ||
	    export_mails(src, g, o, error_r) < 0 ||
	    archive_notes_text(src, g, &notes, author, sizeof(author),
			       error_r) < 0 ||
	    (notes.len > 0 && export_put(o, "notes.txt", notes.data,
					 notes.len, error_r) < 0) ||
	    export_keys(src, g, daemon_key, o, error_r) < 0 ||
	    export_readme(src, g, &rec, daemon_key, author, o, error_r) < 0)
		goto out;
	sum->plies = rec.nplies;
	sum->mails = g->nmails;
	ret = 0;
out:
	buf_free(&notes);
	free(text);
	record2_free(&rec);
	return ret;
}

static int export_manifest(const struct archive_source *src,
			   const char *daemon_key, struct export_out *o,
			   struct archive_summary *sum, const char **error_r)
{
	struct buf text = BUF_INIT, sig = BUF_INIT;
	const char *error;
	int ret = -1;

	archive_manifest_format(&o->manifest, &text);
	sum->files = o->manifest.count;
	if (pgp_sign_detached(src->pgp, daemon_key, text.data, text.len, &sig,
			      &error) < 0) {
		export_fail(error_r, "signing MANIFEST: %s", error);
		goto out;
	}
	if (archive_write_file(o->dir, "MANIFEST", text.data, text.len) < 0 ||
	    archive_write_file(o->dir, "MANIFEST.asc", sig.data,
			       sig.len) < 0) {
		export_fail(error_r, "%s: %s", o->dir, strerror(errno));
		goto out;
	}
	ret = 0;
out:
	buf_free(&text);
	buf_free(&sig);
	return ret;
}

/* Make path a new folder, or take an empty one: 1 made, 0 taken. */
static int export_mkdir(const char *path, const char **error_r)
{
	char **names = NULL;
	size_t n = 0;
	const char *bad;

	if (mkdir(path, 0755) == 0)
		return 1;
	if (errno != EEXIST)
		return export_fail(error_r, "%s: %s", path, strerror(errno));
	if (archive_list_dir(path, &names, &n, &bad) < 0 || n > 0) {
		archive_names_free(&names, n);
		return export_fail(error_r, "%s: exists and is not an empty "
				   "folder", path);
	}
	return 0;
}

/* Pack folder parent/name into tarball, written aside and renamed. */
static int export_pack(const char *parent, const char *name,
		       const char *tarball, int64_t mtime,
		       const char **error_r)
{
	char tmp[4096], when[40];
	/* GNU's format, whatever tar's default: no pax header, which
	 * verify's reader refuses (archive_untar.c). */
	char *argv[] = { "tar", "--format=gnu", "--sort=name", "--owner=0",
			 "--group=0",
			 "--numeric-owner", when, "-czf", tmp, "-C",
			 (char *)parent, (char *)name, NULL };

	snprintf(when, sizeof(when), "--mtime=@%" PRId64, mtime);
	if ((size_t)snprintf(tmp, sizeof(tmp), "%s.tmp", tarball) >=
	    sizeof(tmp))
		return export_fail(error_r, "%s: name too long", tarball);
	if (run_program(argv, NULL) < 0) {
		unlink(tmp);
		return export_fail(error_r, "tar could not write %s", tmp);
	}
	if (rename(tmp, tarball) < 0) {
		int saved = errno;
		unlink(tmp);
		return export_fail(error_r, "%s: %s", tarball,
				   strerror(saved));
	}
	return 0;
}

int archive_export(const struct archive_source *src, int64_t game_id,
		   const char *path, struct archive_summary *sum_r,
		   const char **error_r)
{
	struct archive_game g;
	struct export_out o;
	char daemon_key[PGP_FPR_MAX + 1], tmp[4096] = "", dir[4096];
	char name[64], *copy = NULL;
	const char *error;
	bool tarball = archive_ends_with(path, ".tar.gz"), made = false;
	bool taken = false;
	int ret = -1, r;

	memset(sum_r, 0, sizeof(*sum_r));
	memset(&o, 0, sizeof(o));
	sum_r->game_id = game_id;
	if (pgp_export_signer(src->pgp, src->signing_key, daemon_key,
			      &error) < 0)
		return export_fail(error_r, "no key to sign the archive with:"
				   " %s", error);
	snprintf(sum_r->signer, sizeof(sum_r->signer), "%s", daemon_key);
	r = archive_game_load(src, game_id, &g, error_r);
	if (r <= 0) {
		if (r == 0)
			export_fail(error_r, "no game %" PRId64, game_id);
		goto out;
	}
	snprintf(name, sizeof(name), "game-%" PRId64, game_id);
	if (tarball) {
		copy = xstrdup(path);
		snprintf(tmp, sizeof(tmp), "%s/.ashes-archive-XXXXXX",
			 dirname(copy));
		if (mkdtemp(tmp) == NULL) {
			export_fail(error_r, "%s: %s", tmp, strerror(errno));
			tmp[0] = '\0';
			goto out;
		}
		snprintf(dir, sizeof(dir), "%s/%s", tmp, name);
		if (mkdir(dir, 0755) < 0) {
			export_fail(error_r, "%s: %s", dir, strerror(errno));
			goto out;
		}
	} else {
		snprintf(dir, sizeof(dir), "%s", path);
		if ((r = export_mkdir(dir, error_r)) < 0)
			goto out;
		made = r == 1;
		taken = r == 0;
	}
	o.dir = dir;
	if (export_files(src, &g, daemon_key, &o, sum_r, error_r) < 0 ||
	    export_manifest(src, daemon_key, &o, sum_r, error_r) < 0)
		goto out;
	if (tarball && export_pack(tmp, name, path, g.row->updated,
				   error_r) < 0)
		goto out;
	ret = 0;
out:
	if (tmp[0] != '\0')
		archive_remove_tree(tmp);
	else if (ret < 0 && (made || taken))
		archive_remove_tree(dir);
	/* An empty folder given stays, empty again. */
	if (ret < 0 && taken)
		(void)mkdir(dir, 0755);
	free(copy);
	archive_manifest_free(&o.manifest);
	archive_game_free(&g);
	return ret;
}
