/* template_parse.c -- the parser of the template language (template.h):
 * text -> a flat array of nodes, a section's children following it up to
 * its `end`; standalone tag lines vanish here. */
#include "render/template_private.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "util/xalloc.h"

static struct template_node *template_tree_add(struct template_tree *t,
					       enum template_node_kind kind,
					       const char *text, size_t len,
					       int line)
{
	struct template_node *nd;

	if (t->n == t->cap) {
		t->cap = t->cap ? t->cap * 2 : 32;
		t->nodes = xrealloc(t->nodes, t->cap * sizeof(*t->nodes));
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

/* The parser's state: where errors go, the tree it fills, and the
 * sections open so far. */
struct template_parser {
	struct template_set *set;
	const char *label;    /* names the text in errors */
	const char *text;     /* the whole template */
	struct template_tree *t;
	const char **error_r;
	/* Open sections, as node indexes, innermost last. */
	size_t open[64];
	size_t nopen;
};

/* One tag: "{{" at start, "}}" at close; between them an optional sigil,
 * then the name (trimmed of blanks) up to name_end, then up to inner_end
 * a "|filter" for a variable. */
struct template_tag {
	const char *start, *close;
	const char *inner, *inner_end, *name_end;
	char sigil;
	int line;
};

/* Reads the tag at start ("{{") into *tag: its end, line and sigil.
 * Returns 0, or -1 (error set) if unterminated or spanning lines. */
static int template_tag_read(struct template_parser *ps, const char *start,
			     struct template_tag *tag)
{
	size_t inner_len;

	memset(tag, 0, sizeof(*tag));
	tag->start = start;
	tag->line = template_line_of(ps->text, start);
	tag->close = strstr(start + 2, "}}");
	if (tag->close == NULL)
		return template_fail(ps->set, ps->error_r,
				     "%s:%d: unterminated tag: '{{' without '}}'",
				     ps->label, tag->line);
	tag->inner = start + 2;
	tag->inner_end = tag->close;
	inner_len = (size_t)(tag->inner_end - tag->inner);
	if (memchr(tag->inner, '\n', inner_len) != NULL && *tag->inner != '!')
		return template_fail(ps->set, ps->error_r,
				     "%s:%d: tag spans lines: '}}' missing?",
				     ps->label, tag->line);
	if (strchr("!#^/>", *tag->inner) != NULL && *tag->inner != '\0')
		tag->sigil = *tag->inner++;
	return 0;
}

/* Adds the text from text_start up to the tag as a node, less the tag's
 * line when that line holds only the tag (and blanks) and so vanishes
 * whole.  Returns where the text after the tag starts. */
static const char *template_text_before(struct template_parser *ps,
					const char *text_start,
					const struct template_tag *tag)
{
	const char *line_start = tag->start, *after = tag->close + 2;
	const char *text_end = tag->start, *q;
	bool standalone = tag->sigil != 0;

	while (line_start > ps->text && line_start[-1] != '\n')
		line_start--;
	if (standalone) {
		for (q = line_start; q < tag->start; q++)
			if (*q != ' ' && *q != '\t')
				standalone = false;
		for (q = after; *q != '\0' && *q != '\n'; q++)
			if (*q != ' ' && *q != '\t' && *q != '\r')
				standalone = false;
		if (standalone) {
			if (line_start < text_start)
				line_start = text_start;
			after = q + (*q == '\n');
			text_end = line_start;
		}
	}
	if (text_end > text_start)
		template_tree_add(ps->t, TNODE_TEXT, text_start,
				  (size_t)(text_end - text_start), 0);
	return after;
}

/* Trims the tag's inside and finds its name (tag->inner..name_end).
 * Returns 0, or -1 (error set) if it has none. */
static int template_tag_name(struct template_parser *ps,
			     struct template_tag *tag)
{
	const char *name_end;

	while (tag->inner < tag->inner_end &&
	       isspace((unsigned char)*tag->inner))
		tag->inner++;
	while (tag->inner_end > tag->inner &&
	       isspace((unsigned char)tag->inner_end[-1]))
		tag->inner_end--;
	name_end = tag->inner;
	while (name_end < tag->inner_end &&
	       (template_name_char(*name_end) ||
		(tag->sigil == '>' && *name_end == '/')))
		name_end++;
	tag->name_end = name_end;
	if (name_end == tag->inner)
		return template_fail(ps->set, ps->error_r,
				     "%s:%d: tag without a name", ps->label,
				     tag->line);
	return 0;
}

/* Returns -1 with the error for a tag whose inside does not parse. */
static int template_bad_tag(struct template_parser *ps,
			    const struct template_tag *tag)
{
	return template_fail(ps->set, ps->error_r,
			     "%s:%d: bad tag '{{%.*s}}'", ps->label, tag->line,
			     (int)(tag->close - tag->start - 2),
			     tag->start + 2);
}

/* {{#name}} or {{^name}}: adds the section node and opens it.  Returns 0,
 * or -1 (error set). */
static int template_section_open(struct template_parser *ps,
				 const struct template_tag *tag)
{
	if (tag->name_end != tag->inner_end)
		return template_bad_tag(ps, tag);
	if (ps->nopen == sizeof(ps->open) / sizeof(ps->open[0]))
		return template_fail(ps->set, ps->error_r,
				     "%s:%d: sections nested too deeply",
				     ps->label, tag->line);
	template_tree_add(ps->t, tag->sigil == '#' ? TNODE_SECTION :
			  TNODE_INVERTED, tag->inner,
			  (size_t)(tag->name_end - tag->inner), tag->line);
	ps->open[ps->nopen++] = ps->t->n - 1;
	return 0;
}

/* {{/name}}: closes the innermost open section, which must be name.
 * Returns 0, or -1 (error set). */
static int template_section_close(struct template_parser *ps,
				  const struct template_tag *tag)
{
	const char *name = tag->inner;
	size_t nlen = (size_t)(tag->name_end - name);
	struct template_node *o;

	if (tag->name_end != tag->inner_end)
		return template_bad_tag(ps, tag);
	if (ps->nopen == 0)
		return template_fail(ps->set, ps->error_r,
				     "%s:%d: {{/%.*s}} closes no section",
				     ps->label, tag->line, (int)nlen, name);
	o = &ps->t->nodes[ps->open[ps->nopen - 1]];
	if (o->len != nlen || memcmp(o->text, name, o->len) != 0)
		return template_fail(ps->set, ps->error_r,
				     "%s:%d: {{/%.*s}} closes section '%.*s' opened on line %d",
				     ps->label, tag->line, (int)nlen, name,
				     (int)o->len, o->text, o->line);
	o->end = ps->t->n;
	ps->nopen--;
	return 0;
}

/* {{name}} or {{name|filter}}: adds the variable node.  Returns 0, or -1
 * (error set) for a bad tag or an unknown filter. */
static int template_variable(struct template_parser *ps,
			     const struct template_tag *tag)
{
	struct template_node *nd;
	const char *f;
	size_t flen;

	nd = template_tree_add(ps->t, TNODE_VAR, tag->inner,
			       (size_t)(tag->name_end - tag->inner),
			       tag->line);
	if (tag->name_end == tag->inner_end)
		return 0;
	if (*tag->name_end != '|')
		return template_bad_tag(ps, tag);
	f = tag->name_end + 1;
	flen = (size_t)(tag->inner_end - f);
	if (flen == 4 && memcmp(f, "html", 4) == 0)
		nd->filter = TFILTER_HTML;
	else if (flen == 3 && memcmp(f, "cap", 3) == 0)
		nd->filter = TFILTER_CAP;
	else
		return template_fail(ps->set, ps->error_r,
				     "%s:%d: unknown filter '%.*s' (known: html, cap)",
				     ps->label, tag->line, (int)flen, f);
	return 0;
}

/* Adds what a named tag (not a comment) stands for.  Returns 0, or -1
 * (error set). */
static int template_tag_add(struct template_parser *ps,
			    const struct template_tag *tag)
{
	switch (tag->sigil) {
	case '#':
	case '^':
		return template_section_open(ps, tag);
	case '/':
		return template_section_close(ps, tag);
	case '>':
		if (tag->name_end != tag->inner_end)
			return template_bad_tag(ps, tag);
		template_tree_add(ps->t, TNODE_PARTIAL, tag->inner,
				  (size_t)(tag->name_end - tag->inner),
				  tag->line);
		return 0;
	default:
		return template_variable(ps, tag);
	}
}

int template_parse(struct template_set *set, const char *label,
		   const char *text, struct template_tree *t,
		   const char **error_r)
{
	struct template_parser ps = {
		.set = set, .label = label, .text = text, .t = t,
		.error_r = error_r,
	};
	const char *p = text, *text_start = text, *start;
	struct template_tag tag;

	t->n = 0;
	while ((start = strstr(p, "{{")) != NULL) {
		if (template_tag_read(&ps, start, &tag) < 0)
			return -1;
		p = template_text_before(&ps, text_start, &tag);
		text_start = p;
		if (tag.sigil == '!')
			continue;
		if (template_tag_name(&ps, &tag) < 0 ||
		    template_tag_add(&ps, &tag) < 0)
			return -1;
	}
	if (*text_start != '\0')
		template_tree_add(t, TNODE_TEXT, text_start, strlen(text_start),
				  0);
	if (ps.nopen > 0) {
		struct template_node *o = &t->nodes[ps.open[ps.nopen - 1]];

		return template_fail(set, error_r,
				     "%s:%d: section '%.*s' is never closed",
				     label, o->line, (int)o->len, o->text);
	}
	return 0;
}

int template_fail(struct template_set *set, const char **error_r,
		  const char *fmt, ...)
{
	/* The thread's own: the set may serve other threads meanwhile. */
	static _Thread_local char error[1024];
	va_list ap;

	(void)set;
	va_start(ap, fmt);
	vsnprintf(error, sizeof(error), fmt, ap);
	va_end(ap);
	*error_r = error;
	return -1;
}
