/* template_ctx.c -- the contexts of template.h: key -> string, or a list of
 * sub-contexts, as a small array per context (a template reads a dozen
 * keys, so a linear search is enough). */
#include "render/template_private.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"
#include "util/xstr.h"

struct template_ctx *template_ctx_new(void)
{
	return xzalloc(sizeof(struct template_ctx));
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

struct template_entry *template_ctx_find(const struct template_ctx *ctx,
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
		ctx->entries = xrealloc(ctx->entries,
					ctx->cap * sizeof(*ctx->entries));
	}
	e = &ctx->entries[ctx->n++];
	memset(e, 0, sizeof(*e));
	e->key = xstrdup(key);
	return e;
}

void template_ctx_set(struct template_ctx *ctx, const char *key,
		      const char *value)
{
	struct template_entry *e = template_ctx_entry(ctx, key);
	char *copy = xstrdup(value != NULL ? value : "");

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
		e->items = xrealloc(e->items, e->cap * sizeof(*e->items));
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
