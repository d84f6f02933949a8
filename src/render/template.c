/* template.c -- the substitution language of template.h: contexts, loading
 * with an override folder, a parser into a flat node array, and rendering.
 */
#include "render/template.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Partials may include partials, but not forever. */
#define TEMPLATE_MAX_DEPTH 16

static void *template_xalloc(void *p, size_t size)
{
	p = realloc(p, size);
	if (p == NULL) {
		fputs("ashes: out of memory\n", stderr);
		abort();
	}
	return p;
}

static char *template_xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;
	return memcpy(template_xalloc(NULL, n), s, n);
}

/* ---------------------------------------------------------------- ctx -- */

struct template_entry {
	char *key;
	char *value;                 /* NULL for a list */
	struct template_ctx **items; /* list items, owned */
	size_t nitems, cap;
};

struct template_ctx {
	struct template_entry *entries;
	size_t n, cap;
};

struct template_ctx *template_ctx_new(void)
{
	struct template_ctx *ctx = template_xalloc(NULL, sizeof(*ctx));

	memset(ctx, 0, sizeof(*ctx));
	return ctx;
}

static void template_entry_clear(struct template_entry *e)
{
	size_t i;

	free(e->value);
	e->value = NULL;
	for (i = 0; i < e->nitems; i++)
		template_ctx_free(&e->items[i]);
	free(e->items);
	e->items = NULL;
	e->nitems = e->cap = 0;
}

void template_ctx_free(struct template_ctx **ctxp)
{
	struct template_ctx *ctx = *ctxp;
	size_t i;

	if (ctx == NULL)
		return;
	for (i = 0; i < ctx->n; i++) {
		template_entry_clear(&ctx->entries[i]);
		free(ctx->entries[i].key);
	}
	free(ctx->entries);
	free(ctx);
	*ctxp = NULL;
}

static struct template_entry *template_ctx_find(const struct template_ctx *ctx,
						const char *key, size_t len)
{
	size_t i;

	for (i = 0; i < ctx->n; i++) {
		if (strlen(ctx->entries[i].key) == len &&
		    memcmp(ctx->entries[i].key, key, len) == 0)
			return &ctx->entries[i];
	}
	return NULL;
}

static struct template_entry *template_ctx_entry(struct template_ctx *ctx,
						 const char *key)
{
	struct template_entry *e = template_ctx_find(ctx, key, strlen(key));

	if (e != NULL)
		return e;
	if (ctx->n == ctx->cap) {
		ctx->cap = ctx->cap ? ctx->cap * 2 : 8;
		ctx->entries = template_xalloc(ctx->entries,
					       ctx->cap * sizeof(*ctx->entries));
	}
	e = &ctx->entries[ctx->n++];
	memset(e, 0, sizeof(*e));
	e->key = template_xstrdup(key);
	return e;
}

void template_ctx_set(struct template_ctx *ctx, const char *key,
		      const char *value)
{
	struct template_entry *e = template_ctx_entry(ctx, key);
	char *copy = template_xstrdup(value != NULL ? value : "");

	template_entry_clear(e);
	e->value = copy;
}

void template_ctx_setf(struct template_ctx *ctx, const char *key,
		       const char *fmt, ...)
{
	struct buf b = BUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	buf_vprintf(&b, fmt, ap);
	va_end(ap);
	template_ctx_set(ctx, key, buf_str(&b));
	buf_free(&b);
}

void template_ctx_set_int(struct template_ctx *ctx, const char *key,
			  long value)
{
	template_ctx_setf(ctx, key, "%ld", value);
}

void template_ctx_set_bool(struct template_ctx *ctx, const char *key,
			   bool flag)
{
	struct template_entry *e;

	if (flag) {
		template_ctx_set(ctx, key, "1");
		return;
	}
	e = template_ctx_find(ctx, key, strlen(key));
	if (e != NULL) {
		template_entry_clear(e);
		free(e->key);
		*e = ctx->entries[--ctx->n];
	}
}

void template_ctx_list(struct template_ctx *ctx, const char *key)
{
	struct template_entry *e = template_ctx_entry(ctx, key);

	if (e->value != NULL)
		template_entry_clear(e);
}

struct template_ctx *template_ctx_add(struct template_ctx *ctx,
				      const char *key)
{
	struct template_entry *e = template_ctx_entry(ctx, key);

	if (e->value != NULL)
		template_entry_clear(e);
	if (e->nitems == e->cap) {
		e->cap = e->cap ? e->cap * 2 : 8;
		e->items = template_xalloc(e->items,
					   e->cap * sizeof(*e->items));
	}
	e->items[e->nitems] = template_ctx_new();
	return e->items[e->nitems++];
}

const char *template_ctx_get(const struct template_ctx *ctx, const char *key)
{
	const struct template_entry *e = template_ctx_find(ctx, key,
							   strlen(key));
	return e != NULL ? e->value : NULL;
}

/* ------------------------------------------------------------ parsing -- */

enum template_node_kind {
	TNODE_TEXT,
	TNODE_VAR,
	TNODE_SECTION,
	TNODE_INVERTED,
	TNODE_PARTIAL,
};

enum template_filter {
	TFILTER_NONE,
	TFILTER_HTML,
	TFILTER_CAP,
};

struct template_node {
	enum template_node_kind kind;
	enum template_filter filter;
	const char *text; /* TEXT: the bytes; others: the name */
	size_t len;
	size_t end;       /* SECTION/INVERTED: index after the last child */
	int line;
};

struct template_tree {
	struct template_node *nodes;
	size_t n, cap;
};

/* One loaded file (text kept for the nodes that point into it). */
struct template_file {
	char *name;
	char *path;
	char *text;
	struct template_tree tree;
};

struct template_set {
	char *override_dir;
	char *default_dir;
	struct template_file *files;
	size_t nfiles, cap;
	struct buf error;
};

static int template_fail(struct template_set *set, const char **error_r,
			 const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int template_fail(struct template_set *set, const char **error_r,
			 const char *fmt, ...)
{
	va_list ap;

	buf_reset(&set->error);
	va_start(ap, fmt);
	buf_vprintf(&set->error, fmt, ap);
	va_end(ap);
	*error_r = buf_str(&set->error);
	return -1;
}

static struct template_node *template_tree_add(struct template_tree *t,
					       enum template_node_kind kind,
					       const char *text, size_t len,
					       int line)
{
	struct template_node *nd;

	if (t->n == t->cap) {
		t->cap = t->cap ? t->cap * 2 : 32;
		t->nodes = template_xalloc(t->nodes,
					   t->cap * sizeof(*t->nodes));
	}
	nd = &t->nodes[t->n++];
	memset(nd, 0, sizeof(*nd));
	nd->kind = kind;
	nd->text = text;
	nd->len = len;
	nd->line = line;
	return nd;
}

static int template_line_of(const char *text, const char *p)
{
	int line = 1;

	for (; text < p; text++)
		if (*text == '\n')
			line++;
	return line;
}

static bool template_name_char(char c)
{
	return isalnum((unsigned char)c) || c == '_' || c == '-' || c == '.';
}

/* Parse text into t.  `label` names the text in errors. */
static int template_parse(struct template_set *set, const char *label,
			  const char *text, struct template_tree *t,
			  const char **error_r)
{
	/* Open sections, as node indexes, innermost last. */
	size_t open[64];
	size_t nopen = 0;
	const char *p = text;
	const char *text_start = text;

	t->n = 0;
	for (;;) {
		const char *tag = strstr(p, "{{");
		const char *close, *inner, *inner_end, *name, *name_end;
		const char *line_start, *after;
		char sigil = 0;
		bool standalone;
		int line;
		struct template_node *nd;

		if (tag == NULL) {
			if (*text_start != '\0')
				template_tree_add(t, TNODE_TEXT, text_start,
						  strlen(text_start), 0);
			break;
		}
		line = template_line_of(text, tag);
		close = strstr(tag + 2, "}}");
		if (close == NULL)
			return template_fail(set, error_r,
					     "%s:%d: unterminated tag: '{{' without '}}'",
					     label, line);
		inner = tag + 2;
		inner_end = close;
		if (memchr(inner, '\n', (size_t)(inner_end - inner)) != NULL &&
		    *inner != '!')
			return template_fail(set, error_r,
					     "%s:%d: tag spans lines: '}}' missing?",
					     label, line);
		if (strchr("!#^/>", *inner) != NULL && *inner != '\0')
			sigil = *inner++;
		after = close + 2;

		/* A line with only this tag (and blanks) vanishes whole. */
		line_start = tag;
		while (line_start > text && line_start[-1] != '\n')
			line_start--;
		standalone = sigil != 0;
		if (standalone) {
			const char *q;

			for (q = line_start; q < tag; q++)
				if (*q != ' ' && *q != '\t')
					standalone = false;
			for (q = after; *q != '\0' && *q != '\n'; q++)
				if (*q != ' ' && *q != '\t' && *q != '\r')
					standalone = false;
			if (standalone) {
				if (line_start < text_start)
					line_start = text_start;
				after = q + (*q == '\n');
			}
		}
		{
			const char *text_end = standalone ? line_start : tag;

			if (text_end > text_start)
				template_tree_add(t, TNODE_TEXT, text_start,
						  (size_t)(text_end - text_start),
						  0);
		}
		p = after;
		text_start = after;
		if (sigil == '!')
			continue;

		while (inner < inner_end && isspace((unsigned char)*inner))
			inner++;
		while (inner_end > inner && isspace((unsigned char)inner_end[-1]))
			inner_end--;
		name = inner;
		name_end = name;
		while (name_end < inner_end &&
		       (template_name_char(*name_end) ||
			(sigil == '>' && *name_end == '/')))
			name_end++;
		if (name_end == name)
			return template_fail(set, error_r,
					     "%s:%d: tag without a name", label,
					     line);

		switch (sigil) {
		case '#':
		case '^':
			if (name_end != inner_end)
				goto bad_name;
			if (nopen == sizeof(open) / sizeof(open[0]))
				return template_fail(set, error_r,
						     "%s:%d: sections nested too deeply",
						     label, line);
			template_tree_add(t, sigil == '#' ? TNODE_SECTION :
					  TNODE_INVERTED, name,
					  (size_t)(name_end - name), line);
			open[nopen++] = t->n - 1;
			break;
		case '/': {
			struct template_node *o;

			if (name_end != inner_end)
				goto bad_name;
			if (nopen == 0)
				return template_fail(set, error_r,
						     "%s:%d: {{/%.*s}} closes no section",
						     label, line,
						     (int)(name_end - name), name);
			o = &t->nodes[open[nopen - 1]];
			if (o->len != (size_t)(name_end - name) ||
			    memcmp(o->text, name, o->len) != 0)
				return template_fail(set, error_r,
						     "%s:%d: {{/%.*s}} closes section '%.*s' opened on line %d",
						     label, line,
						     (int)(name_end - name), name,
						     (int)o->len, o->text, o->line);
			o->end = t->n;
			nopen--;
			break;
		}
		case '>':
			if (name_end != inner_end)
				goto bad_name;
			template_tree_add(t, TNODE_PARTIAL, name,
					  (size_t)(name_end - name), line);
			break;
		default:
			nd = template_tree_add(t, TNODE_VAR, name,
					       (size_t)(name_end - name), line);
			if (name_end == inner_end)
				break;
			if (*name_end != '|')
				goto bad_name;
			{
				const char *f = name_end + 1;
				size_t flen = (size_t)(inner_end - f);

				if (flen == 4 && memcmp(f, "html", 4) == 0)
					nd->filter = TFILTER_HTML;
				else if (flen == 3 && memcmp(f, "cap", 3) == 0)
					nd->filter = TFILTER_CAP;
				else
					return template_fail(set, error_r,
							     "%s:%d: unknown filter '%.*s' (known: html, cap)",
							     label, line,
							     (int)flen, f);
			}
			break;
		}
		continue;
bad_name:
		return template_fail(set, error_r,
				     "%s:%d: bad tag '{{%.*s}}'", label, line,
				     (int)(close - tag - 2), tag + 2);
	}
	if (nopen > 0) {
		struct template_node *o = &t->nodes[open[nopen - 1]];

		return template_fail(set, error_r,
				     "%s:%d: section '%.*s' is never closed",
				     label, o->line, (int)o->len, o->text);
	}
	return 0;
}

/* ------------------------------------------------------------ loading -- */

struct template_set *template_set_new(const char *override_dir,
				      const char *default_dir)
{
	struct template_set *set = template_xalloc(NULL, sizeof(*set));

	memset(set, 0, sizeof(*set));
	set->override_dir = override_dir != NULL && *override_dir != '\0' ?
		template_xstrdup(override_dir) : NULL;
	set->default_dir = template_xstrdup(default_dir != NULL ?
					    default_dir : TEMPLATE_DEFAULT_DIR);
	return set;
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
	free(set->override_dir);
	free(set->default_dir);
	buf_free(&set->error);
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

/* The parsed file `name` of the set, loading it on first use. */
static struct template_file *template_load(struct template_set *set,
					   const char *name,
					   const char **error_r)
{
	const char *dirs[2] = { set->override_dir, set->default_dir };
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
	for (i = 0; i < 2 && text == NULL; i++) {
		struct buf b = BUF_INIT;

		if (dirs[i] == NULL)
			continue;
		buf_printf(&b, "%s/%s", dirs[i], name);
		text = template_read_file(buf_str(&b));
		if (text == NULL) {
			/* Only a missing file falls back to the default. */
			if (errno != ENOENT) {
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
		if (set->override_dir != NULL)
			template_fail(set, error_r,
				      "template '%s' not found in %s nor in %s",
				      name, set->override_dir, set->default_dir);
		else
			template_fail(set, error_r,
				      "template '%s' not found in %s", name,
				      set->default_dir);
		return NULL;
	}
	if (set->nfiles == set->cap) {
		set->cap = set->cap ? set->cap * 2 : 8;
		set->files = template_xalloc(set->files,
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
	tf->name = template_xstrdup(name);
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
		char *why = template_xstrdup(*error_r);

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
			if (out != NULL && e != NULL && e->value != NULL) {
				if (nd->filter == TFILTER_HTML) {
					template_html_escape(out, e->value);
				} else if (nd->filter == TFILTER_CAP &&
					   e->value[0] != '\0') {
					buf_putc(out, (char)toupper(
							 (unsigned char)e->value[0]));
					buf_puts(out, e->value + 1);
				} else {
					buf_puts(out, e->value);
				}
			}
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

static int template_render_tree(struct template_set *set, const char *label,
				const struct template_tree *t,
				const struct template_ctx *ctx,
				struct buf *out, const char **error_r)
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
	return template_render_name(set, name, ctx, out, error_r);
}

int template_render_text(struct template_set *set, const char *label,
			 const char *text, const struct template_ctx *ctx,
			 struct buf *out, const char **error_r)
{
	struct template_tree tree = { NULL, 0, 0 };
	int rc = template_parse(set, label, text, &tree, error_r);

	if (rc == 0)
		rc = template_render_tree(set, label, &tree, ctx, out, error_r);
	free(tree.nodes);
	return rc;
}

int template_check(struct template_set *set, const char *name,
		   const char **error_r)
{
	return template_render_name(set, name, NULL, NULL, error_r);
}
