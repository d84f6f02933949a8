/* template_private.h -- what the files of the template engine share: a
 * context's entries, the parsed node array, a loaded file, a set and its
 * error.  template_ctx.c holds the contexts, template_parse.c the parser,
 * template.c the sets, loading and rendering.  Not for use outside
 * src/render/template*.c.
 */
#ifndef ASHES_RENDER_TEMPLATE_PRIVATE_H
#define ASHES_RENDER_TEMPLATE_PRIVATE_H

#include <ctype.h>
#include <pthread.h>

#include "render/template.h"

/* ---- contexts (template_ctx.c) ---- */

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

/* The entry of key (len bytes, not NUL-terminated) in ctx itself, or
 * NULL. */
struct template_entry *template_ctx_find(const struct template_ctx *ctx,
					 const char *key, size_t len);

/* ---- parsed templates (template_parse.c) ---- */

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

/* One set may serve several threads (ashesd's loop, outbox and bot):
 * files load on first use, so every entry point holds the lock. */
struct template_set {
	pthread_mutex_t lock;
	char *override_dir;
	char *default_dir;
	/* NULL for English (the top-level files); else the sub-folder looked
	 * in first, in the override folder and then the default one. */
	char *lang;
	struct template_file *files;
	size_t nfiles, cap;
	/* The English set only: one set per other language found, sorted by
	 * name (template_lang.c). */
	struct template_set **langs;
	size_t nlangs;
};

/* ---- languages (template_lang.c) ---- */

/* Find the languages of set's folders and make a set for each. */
void template_langs_scan(struct template_set *set);
/* Free the language sets of set. */
void template_langs_free(struct template_set *set);

/* A character of a variable, section or partial name. */
static inline bool template_name_char(char c)
{
	return isalnum((unsigned char)c) || c == '_' || c == '-' || c == '.';
}

/* Parse text into t (its nodes point into text, which must outlive it).
 * `label` names the text in errors.  -1 with *error_r set (owned by set)
 * on a malformed template; t may then hold some nodes (free t->nodes). */
int template_parse(struct template_set *set, const char *label,
		   const char *text, struct template_tree *t,
		   const char **error_r);

/* ---- loading and rendering (template.c), for template_words.c ---- */

/* The parsed file `name` of set, loaded on first use (the caller holds
 * set->lock); NULL with *error_r if it cannot be found or parsed. */
struct template_file *template_load(struct template_set *set,
				    const char *name, const char **error_r);
/* Render t with ctx (may be NULL) into out (NULL: only check). */
int template_render_tree(struct template_set *set, const char *label,
			 const struct template_tree *t,
			 const struct template_ctx *ctx, struct buf *out,
			 const char **error_r);

/* ---- code words in the reader's language (template_words.c) ---- */

/* Whether name (len bytes) ends in "_word"; *base_len_r the length
 * without it. */
bool template_word_name(const char *name, size_t len, size_t *base_len_r);
/* The word for the code word `value` in set's words.txt (the value itself
 * if it has no line), appended to out; -1 with *error_r if words.txt
 * cannot be loaded or rendered.  The caller holds set->lock. */
int template_word(struct template_set *set, const char *value,
		  struct buf *out, const char **error_r);

/* ---- errors (template.c) ---- */

/* Format the error into set (valid until the next call on the set), point
 * *error_r at it and return -1. */
int template_fail(struct template_set *set, const char **error_r,
		  const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
