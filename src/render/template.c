/* template.c -- template sets of template.h: finding a file in the
 * override or default folder, loading and parsing it once, and rendering
 * the node array with a context.  Contexts are in template_ctx.c, the
 * parser in template_parse.c.
 */
#include <config.h> /* autoconf's: ASHES_SOURCE_TEMPLATES */

#include "render/template_private.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "util/xalloc.h"
#include "util/xstr.h"

/* Partials may include partials, but not forever. */
#define TEMPLATE_MAX_DEPTH 16

/* ------------------------------------------------------------- errors -- */


/* ------------------------------------------------------------ loading -- */

static bool template_dir_missing(const char *dir)
{
	struct stat st;

	return stat(dir, &st) < 0 && errno == ENOENT;
}

/* The default folder when the caller names none: the installed one, or,
 * while that does not exist, the source tree's, so that ashes and ashesd
 * run from a build tree find their words.  Once installed, the installed
 * folder always wins: an installed program does not read a source tree
 * (which may have changed or vanished since). */
static const char *template_default_dir(void)
{
#ifdef ASHES_SOURCE_TEMPLATES
	struct stat st;

	if (template_dir_missing(TEMPLATE_DEFAULT_DIR) &&
	    stat(ASHES_SOURCE_TEMPLATES, &st) == 0 && S_ISDIR(st.st_mode))
		return ASHES_SOURCE_TEMPLATES;
#endif
	return TEMPLATE_DEFAULT_DIR;
}

struct template_set *template_set_new(const char *override_dir,
				      const char *default_dir)
{
	struct template_set *set = xzalloc(sizeof(*set));

	pthread_mutex_init(&set->lock, NULL);
	set->override_dir = override_dir != NULL && *override_dir != '\0' ?
		xstrdup(override_dir) : NULL;
	set->default_dir = xstrdup(default_dir != NULL && *default_dir != '\0' ?
				   default_dir : template_default_dir());
	template_langs_scan(set);
	return set;
}

const char *template_set_default_dir(const struct template_set *set)
{
	return set->default_dir;
}

void template_set_free(struct template_set **setp)
{
	struct template_set *set = *setp;
	size_t i;

	if (set == NULL)
		return;
	for (i = 0; i < set->nfiles; i++) {
		free(set->files[i].name);
		free(set->files[i].path);
		free(set->files[i].text);
		free(set->files[i].tree.nodes);
	}
	free(set->files);
	template_langs_free(set);
	free(set->lang);
	free(set->override_dir);
	free(set->default_dir);
	pthread_mutex_destroy(&set->lock);
	free(set);
	*setp = NULL;
}

/* Read a whole file; NULL with errno set if it cannot be read. */
static char *template_read_file(const char *path)
{
	struct buf b = BUF_INIT;
	char chunk[4096];
	size_t n;
	FILE *f = fopen(path, "r");

	if (f == NULL)
		return NULL;
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		buf_append(&b, chunk, n);
	if (ferror(f)) {
		int e = errno;

		fclose(f);
		buf_free(&b);
		errno = e;
		return NULL;
	}
	fclose(f);
	buf_append(&b, "", 0);
	return buf_steal(&b);
}

static bool template_name_ok(const char *name)
{
	if (*name == '\0' || *name == '/' || strstr(name, "..") != NULL)
		return false;
	for (; *name != '\0'; name++)
		if (!template_name_char(*name) && *name != '/')
			return false;
	return true;
}

/* Where `name` is looked for, in order: a language's sub-folder of the
 * override folder and of the default folder, then the English files of
 * both; so a file missing in a language falls back to English, file by
 * file.  Fills dirs/subs (the folder and the sub-folder or NULL) and
 * returns how many. */
static size_t template_search(const struct template_set *set,
			      const char *dirs[4], const char *subs[4])
{
	size_t n = 0;

	if (set->lang != NULL) {
		if (set->override_dir != NULL) {
			dirs[n] = set->override_dir;
			subs[n++] = set->lang;
		}
		dirs[n] = set->default_dir;
		subs[n++] = set->lang;
	}
	if (set->override_dir != NULL) {
		dirs[n] = set->override_dir;
		subs[n++] = NULL;
	}
	dirs[n] = set->default_dir;
	subs[n++] = NULL;
	return n;
}

/* The parsed file `name` of the set, loading it on first use. */
struct template_file *template_load(struct template_set *set,
					   const char *name,
					   const char **error_r)
{
	const char *dirs[4], *subs[4];
	size_t ndirs = template_search(set, dirs, subs);
	struct template_file *tf;
	char *text = NULL, *path = NULL;
	size_t i;

	for (i = 0; i < set->nfiles; i++)
		if (strcmp(set->files[i].name, name) == 0)
			return &set->files[i];
	if (!template_name_ok(name)) {
		template_fail(set, error_r, "bad template name '%s'", name);
		return NULL;
	}
	for (i = 0; i < ndirs && text == NULL; i++) {
		struct buf b = BUF_INIT;

		if (subs[i] != NULL)
			buf_printf(&b, "%s/%s/%s", dirs[i], subs[i], name);
		else
			buf_printf(&b, "%s/%s", dirs[i], name);
		text = template_read_file(buf_str(&b));
		if (text == NULL) {
			/* Only a missing file falls back (to the next
			 * folder, then to English). */
			if (errno != ENOENT && errno != ENOTDIR) {
				template_fail(set, error_r, "%s: %s",
					      buf_str(&b), strerror(errno));
				buf_free(&b);
				return NULL;
			}
			buf_free(&b);
			continue;
		}
		path = buf_steal(&b);
	}
	if (text == NULL) {
		/* A default folder that is not there at all is a program not
		 * installed (or moved): say which settings name another. */
		const char *hint = template_dir_missing(set->default_dir) ?
			", which does not exist (not installed? name a "
			"templates folder with ASHES_TEMPLATES, or ashesd's "
			"[templates] dir)" : "";

		if (set->override_dir != NULL)
			template_fail(set, error_r,
				      "template '%s' not found in %s nor in %s%s",
				      name, set->override_dir, set->default_dir,
				      hint);
		else
			template_fail(set, error_r,
				      "template '%s' not found in %s%s", name,
				      set->default_dir, hint);
		return NULL;
	}
	if (set->nfiles == set->cap) {
		set->cap = set->cap ? set->cap * 2 : 8;
		set->files = xrealloc(set->files,
				      set->cap * sizeof(*set->files));
	}
	tf = &set->files[set->nfiles];
	memset(tf, 0, sizeof(*tf));
	tf->text = text;
	tf->path = path;
	if (template_parse(set, path, text, &tf->tree, error_r) < 0) {
		free(tf->tree.nodes);
		free(text);
		free(path);
		return NULL;
	}
	tf->name = xstrdup(name);
	set->nfiles++;
	return tf;
}

/* ---------------------------------------------------------- rendering -- */

struct template_scope {
	const struct template_ctx *stack[TEMPLATE_MAX_DEPTH * 4];
	size_t n;
};

/* Innermost entry for a name, looking outward through the scopes. */
static const struct template_entry *
template_lookup(const struct template_scope *sc, const char *name, size_t len)
{
	size_t i;

	for (i = sc->n; i > 0; i--) {
		const struct template_entry *e =
			template_ctx_find(sc->stack[i - 1], name, len);
		if (e != NULL)
			return e;
	}
	return NULL;
}

static bool template_truthy(const struct template_entry *e)
{
	if (e == NULL)
		return false;
	if (e->value != NULL)
		return e->value[0] != '\0';
	return e->nitems > 0;
}

void template_html_escape(struct buf *out, const char *s)
{
	for (; *s != '\0'; s++) {
		switch (*s) {
		case '&': buf_puts(out, "&amp;"); break;
		case '<': buf_puts(out, "&lt;"); break;
		case '>': buf_puts(out, "&gt;"); break;
		case '"': buf_puts(out, "&quot;"); break;
		case '\'': buf_puts(out, "&#39;"); break;
		default: buf_putc(out, *s); break;
		}
	}
}

static int template_run(struct template_set *set, const char *label,
			const struct template_tree *t, size_t from, size_t to,
			struct template_scope *sc, int depth, struct buf *out,
			const char **error_r);

static int template_partial(struct template_set *set, const char *label,
			    const struct template_node *nd,
			    struct template_scope *sc, int depth,
			    struct buf *out, const char **error_r)
{
	char name[256];
	struct template_file *tf;

	if (depth >= TEMPLATE_MAX_DEPTH)
		return template_fail(set, error_r,
				     "%s:%d: partials nested more than %d deep",
				     label, nd->line, TEMPLATE_MAX_DEPTH);
	if (nd->len >= sizeof(name))
		return template_fail(set, error_r, "%s:%d: partial name too long",
				     label, nd->line);
	memcpy(name, nd->text, nd->len);
	name[nd->len] = '\0';
	tf = template_load(set, name, error_r);
	if (tf == NULL) {
		/* Say where the partial was named, then why it failed. */
		char *why = xstrdup(*error_r);

		template_fail(set, error_r, "%s:%d: {{>%s}}: %s", label,
			      nd->line, name, why);
		free(why);
		return -1;
	}
	{
		/* Nested loads may move set->files: keep copies. */
		struct template_tree tree = tf->tree;
		const char *path = tf->path;

		return template_run(set, path, &tree, 0, tree.n, sc,
				    depth + 1, out, error_r);
	}
}

/* Render nodes [from, to).  With out == NULL, only walk every node (and
 * load every partial) to find errors. */
/* Write value through the tag's filter. */
static void template_put(struct buf *out, enum template_filter filter,
			 const char *value)
{
	if (filter == TFILTER_HTML) {
		template_html_escape(out, value);
	} else if (filter == TFILTER_CAP && value[0] != '\0') {
		/* A first letter of more than one byte (Ü, Korean) has no
		 * ASCII upper case: left as it is. */
		buf_putc(out, (char)toupper((unsigned char)value[0]));
		buf_puts(out, value + 1);
	} else {
		buf_puts(out, value);
	}
}

/* {{NAME_word}} where NAME_word is unset but NAME is set: NAME's value
 * in the set's words.txt (template_words.c), through the tag's filter. */
static int template_var_word(struct template_set *set,
			     const struct template_scope *sc,
			     const struct template_node *nd, struct buf *out,
			     const char **error_r)
{
	const struct template_entry *base;
	struct buf word = BUF_INIT;
	size_t blen;
	int rc;

	if (!template_word_name(nd->text, nd->len, &blen))
		return 0;
	base = template_lookup(sc, nd->text, blen);
	if (base == NULL || base->value == NULL)
		return 0;
	rc = template_word(set, base->value, &word, error_r);
	if (rc == 0)
		template_put(out, nd->filter, buf_str(&word));
	buf_free(&word);
	return rc;
}

static int template_run(struct template_set *set, const char *label,
			const struct template_tree *t, size_t from, size_t to,
			struct template_scope *sc, int depth, struct buf *out,
			const char **error_r)
{
	size_t i = from;

	while (i < to) {
		const struct template_node *nd = &t->nodes[i];
		const struct template_entry *e;
		size_t k;

		switch (nd->kind) {
		case TNODE_TEXT:
			if (out != NULL)
				buf_append(out, nd->text, nd->len);
			i++;
			break;
		case TNODE_VAR:
			e = template_lookup(sc, nd->text, nd->len);
			if (out != NULL && e == NULL &&
			    template_var_word(set, sc, nd, out, error_r) < 0)
				return -1;
			if (out != NULL && e != NULL && e->value != NULL)
				template_put(out, nd->filter, e->value);
			i++;
			break;
		case TNODE_PARTIAL:
			if (template_partial(set, label, nd, sc, depth, out,
					     error_r) < 0)
				return -1;
			i++;
			break;
		case TNODE_SECTION:
		case TNODE_INVERTED:
			e = template_lookup(sc, nd->text, nd->len);
			if (out == NULL) {
				if (template_run(set, label, t, i + 1, nd->end,
						 sc, depth, NULL, error_r) < 0)
					return -1;
			} else if (nd->kind == TNODE_INVERTED) {
				if (!template_truthy(e) &&
				    template_run(set, label, t, i + 1, nd->end,
						 sc, depth, out, error_r) < 0)
					return -1;
			} else if (e != NULL && e->value != NULL) {
				if (e->value[0] != '\0' &&
				    template_run(set, label, t, i + 1, nd->end,
						 sc, depth, out, error_r) < 0)
					return -1;
			} else if (e != NULL) {
				if (sc->n == sizeof(sc->stack) /
				    sizeof(sc->stack[0]))
					return template_fail(set, error_r,
							     "%s:%d: lists nested too deeply",
							     label, nd->line);
				for (k = 0; k < e->nitems; k++) {
					int rc;

					sc->stack[sc->n++] = e->items[k];
					rc = template_run(set, label, t, i + 1,
							  nd->end, sc, depth,
							  out, error_r);
					sc->n--;
					if (rc < 0)
						return -1;
				}
			}
			i = nd->end;
			break;
		}
	}
	return 0;
}

int template_render_tree(struct template_set *set, const char *label,
			 const struct template_tree *t,
			 const struct template_ctx *ctx, struct buf *out,
			 const char **error_r)
{
	struct template_scope sc;

	sc.n = 0;
	if (ctx != NULL)
		sc.stack[sc.n++] = ctx;
	return template_run(set, label, t, 0, t->n, &sc, 0, out, error_r);
}

/* Render (out != NULL) or only check (out == NULL) a loaded template. */
static int template_render_name(struct template_set *set, const char *name,
				const struct template_ctx *ctx,
				struct buf *out, const char **error_r)
{
	struct template_file *tf = template_load(set, name, error_r);
	struct template_tree tree;

	if (tf == NULL)
		return -1;
	/* Loading partials may move set->files; the tree and the path stay. */
	tree = tf->tree;
	return template_render_tree(set, tf->path, &tree, ctx, out, error_r);
}

int template_render(struct template_set *set, const char *name,
		    const struct template_ctx *ctx, struct buf *out,
		    const char **error_r)
{
	int rc;

	pthread_mutex_lock(&set->lock);
	rc = template_render_name(set, name, ctx, out, error_r);
	pthread_mutex_unlock(&set->lock);
	return rc;
}

int template_render_text(struct template_set *set, const char *label,
			 const char *text, const struct template_ctx *ctx,
			 struct buf *out, const char **error_r)
{
	struct template_tree tree = { NULL, 0, 0 };
	int rc;

	pthread_mutex_lock(&set->lock);
	rc = template_parse(set, label, text, &tree, error_r);
	if (rc == 0)
		rc = template_render_tree(set, label, &tree, ctx, out, error_r);
	pthread_mutex_unlock(&set->lock);
	free(tree.nodes);
	return rc;
}

int template_check(struct template_set *set, const char *name,
		   const char **error_r)
{
	int rc;

	pthread_mutex_lock(&set->lock);
	rc = template_render_name(set, name, NULL, NULL, error_r);
	pthread_mutex_unlock(&set->lock);
	return rc;
}
