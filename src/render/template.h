/* template.h -- the small substitution language for every text players
 * read (reply mails, help, move words).  The language is documented in
 * docs/templates.md:
 *
 *   {{name}}              the value of name ("" if unset)
 *   {{name|html}}         the same, HTML-escaped (for the text/html part)
 *   {{name|cap}}          the same, first letter upper case
 *   {{name_word}}         (name_word unset) name's code word ("white",
 *                         "double pass") in the set's words.txt, so in
 *                         the reader's language; the value if no line
 *   {{#name}}..{{/name}}  shown if name is a non-empty string (once) or a
 *                         non-empty list (once per item, with the item's
 *                         keys in scope)
 *   {{^name}}..{{/name}}  shown if name is unset, "" or an empty list
 *   {{>file}}             another template of the same set, inline
 *   {{! comment }}        nothing
 *
 * A line holding only a section, closing, partial or comment tag (and
 * blanks) disappears whole, so templates can be laid out readably.
 *
 * A template set looks a name up in an override folder first (an
 * operator's own templates), then in the default folder (normally
 * ASHES_DATADIR "/templates").  Files are read on first use and kept until
 * template_set_free(); a new set re-reads them (SIGHUP reload).
 */
#ifndef ASHES_RENDER_TEMPLATE_H
#define ASHES_RENDER_TEMPLATE_H

#include <stdbool.h>
#include <stddef.h>

#include "util/buf.h"

/* The default folder of installed templates. */
#define TEMPLATE_DEFAULT_DIR ASHES_DATADIR "/templates"

struct template_ctx;
struct template_set;

/* ---- contexts: key -> string | list of sub-contexts ---- */

/* A new empty context; never NULL (allocation failure aborts, as buf.h). */
struct template_ctx *template_ctx_new(void);
/* Free ctx and every sub-context in its lists; sets *ctx to NULL. */
void template_ctx_free(struct template_ctx **ctx);
/* Set key to a copy of value (replacing a string or list of that key). */
void template_ctx_set(struct template_ctx *ctx, const char *key,
		      const char *value);
void template_ctx_setf(struct template_ctx *ctx, const char *key,
		       const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void template_ctx_set_int(struct template_ctx *ctx, const char *key,
			  long value);
/* Set key to "1" if flag, else remove it: for {{#key}} / {{^key}}. */
void template_ctx_set_bool(struct template_ctx *ctx, const char *key,
			   bool flag);
/* Make key an (empty) list if it is not one yet. */
void template_ctx_list(struct template_ctx *ctx, const char *key);
/* Append a new empty item to the list `key` (created if needed) and return
 * it; the item is owned by ctx. */
struct template_ctx *template_ctx_add(struct template_ctx *ctx,
				      const char *key);
/* The string value of key in ctx itself, or NULL (unset or a list). */
const char *template_ctx_get(const struct template_ctx *ctx, const char *key);

/* ---- template sets ---- */

/* A set reading override_dir (may be NULL) first, then default_dir (NULL:
 * TEMPLATE_DEFAULT_DIR, or the source tree's templates while that folder
 * does not exist, for a program run from its build tree).  Never fails:
 * missing folders show up as missing templates at render time.  Free with
 * template_set_free(). */
struct template_set *template_set_new(const char *override_dir,
				      const char *default_dir);
/* The default folder the set reads (after the choice above). */
const char *template_set_default_dir(const struct template_set *set);
void template_set_free(struct template_set **set);

/* ---- languages (template_lang.c) ---- */

/* At most this many languages, English included, per set. */
#define TEMPLATE_LANGUAGES_MAX 32

/* A set made by template_set_new() is the English one (the folders'
 * top-level files) and holds a set for every other language whose
 * sub-folder (two or three lower-case letters, as "de" or "ko") exists in
 * the override or the default folder when it is made.  The set of
 * language L looks a template (and each partial) up in, in order: the
 * override folder's L/, the default folder's L/, the override folder, the
 * default folder -- a file missing in L falls back to English, file by
 * file.
 *
 * The set for lang (ASCII case-insensitive): set itself for NULL, "" or
 * "en", NULL for a language set does not have.  Owned by set. */
struct template_set *template_set_language(struct template_set *set,
					   const char *lang);
/* The set's language: "en" or the sub-folder's name. */
const char *template_set_lang(const struct template_set *set);
/* The languages of an English set, "en" first, then the others sorted:
 * up to max names (owned by set) into langs; returns how many. */
size_t template_set_languages(const struct template_set *set,
			      const char **langs, size_t max);
/* The language a Content-Language header value (RFC 3282: "de-DE",
 * "ko-KR, en") asks for first among set's: the first tag whose primary
 * subtag (case-insensitive) the set has, as set names it ("en", "de"), or
 * NULL for none.  Reads a bounded part of the value (256 bytes, 8 tags;
 * a tag over 35 bytes is skipped). */
const char *template_set_pick_language(const struct template_set *set,
				       const char *header);
/* Whether name has the shape of a language's folder (2-3 of a-z). */
bool template_lang_name_ok(const char *name);

/* Render template `name` (a file name such as "reply-move.txt") with ctx,
 * appending to out.  -1 on a missing or malformed template, with *error_r
 * ("path:line: reason") valid until the calling thread's next failing
 * call; out may then hold partial output.  A set may be shared by
 * threads: each call holds the set's lock. */
int template_render(struct template_set *set, const char *name,
		    const struct template_ctx *ctx, struct buf *out,
		    const char **error_r);

/* Render template text given directly (`label` names it in errors);
 * partials still come from the set.  Same return as template_render().
 * Only tests/render calls it: they try the template language on texts of
 * their own, which would otherwise need a file written per case. */
int template_render_text(struct template_set *set, const char *label,
			 const char *text, const struct template_ctx *ctx,
			 struct buf *out, const char **error_r);

/* Load and parse template `name` (and the partials it names) without
 * rendering, to refuse a broken folder at start-up.  Same errors. */
int template_check(struct template_set *set, const char *name,
		   const char **error_r);

/* The TEXT of the first line "key = TEXT" of text (blanks around "="
 * and at the end dropped), appended to out; -1 if no line names key.
 * For the NAME = TEXT files: calendar.txt, words.txt. */
int template_keyed_value(const char *text, const char *key, struct buf *out);

/* Append s to out with & < > " ' escaped for HTML. */
void template_html_escape(struct buf *out, const char *s);

#endif
