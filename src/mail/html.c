/* html.c -- mime_html_to_text (see mime.h): a crude but safe HTML-to-text
 * for HTML-only mail, which also drops what the sender's client quoted.
 *
 * Tags are read the way an HTML5 tokenizer reads them (names up to
 * whitespace, '/' or '>', attribute values quoted only after '=', "<!--"
 * comments), so a '>' or "</blockquote>" inside an attribute value or a
 * comment cannot end a quote early.  Nothing here recurses: nesting is a
 * counter.
 */
#include "config.h"

#include "mail/mime.h"

#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* What replaces a dropped quote: a line the command reader skips as
 * quoted (it starts with '>'), so the reply can still say so. */
#define HTML_QUOTE_MARK "> (quoted text)"

struct html_tag {
	char name[16];		/* lower case; "" if unknown or too long */
	bool closing;
	bool comment;		/* <!--...-->, <!...>, <?...> */
	size_t attrs;		/* offset of the text after the name */
	size_t end;		/* offset just past the tag ('>'), or len */
};

static bool html_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f';
}

static void html_put_utf8(struct buf *out, uint32_t cp)
{
	char s[4];

	if (cp == 0 || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff) ||
	    (cp < 0x20 && cp != '\n' && cp != '\t'))
		cp = 0xfffd;
	if (cp < 0x80) {
		buf_putc(out, (char)cp);
	} else if (cp < 0x800) {
		s[0] = (char)(0xc0 | cp >> 6);
		s[1] = (char)(0x80 | (cp & 0x3f));
		buf_append(out, s, 2);
	} else if (cp < 0x10000) {
		s[0] = (char)(0xe0 | cp >> 12);
		s[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
		s[2] = (char)(0x80 | (cp & 0x3f));
		buf_append(out, s, 3);
	} else {
		s[0] = (char)(0xf0 | cp >> 18);
		s[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
		s[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
		s[3] = (char)(0x80 | (cp & 0x3f));
		buf_append(out, s, 4);
	}
}

/* Decode the entity at html[i] (just after '&'); returns the bytes used
 * after '&', or 0 if it is not an entity we know (then '&' is literal). */
static size_t html_entity(const char *html, size_t len, size_t i,
			  struct buf *out)
{
	static const struct { const char *name; uint32_t cp; } names[] = {
		{ "amp", '&' }, { "lt", '<' }, { "gt", '>' }, { "quot", '"' },
		{ "apos", '\'' }, { "nbsp", ' ' }, { "copy", 0xa9 },
		{ "hellip", 0x2026 }, { "mdash", 0x2014 }, { "ndash", 0x2013 },
	};
	char name[12];
	size_t n = 0, k;

	while (i + n < len && n < sizeof(name) - 1 && html[i + n] != ';' &&
	       (isalnum((unsigned char)html[i + n]) || html[i + n] == '#')) {
		name[n] = html[i + n];
		n++;
	}
	if (i + n >= len || html[i + n] != ';' || n == 0)
		return 0;
	name[n] = '\0';
	if (name[0] == '#') {
		unsigned long cp;
		char *end;

		if (name[1] == 'x' || name[1] == 'X')
			cp = strtoul(name + 2, &end, 16);
		else
			cp = strtoul(name + 1, &end, 10);
		if (*end != '\0' || end == name + 1)
			return 0;
		html_put_utf8(out, cp > 0x10ffff ? 0xfffd : (uint32_t)cp);
		return n + 1;
	}
	for (k = 0; k < sizeof(names) / sizeof(names[0]); k++) {
		if (strcmp(name, names[k].name) == 0) {
			html_put_utf8(out, names[k].cp);
			return n + 1;
		}
	}
	return 0;
}

static bool html_in_list(const char *tag, const char *const *list, size_t n)
{
	size_t k;

	for (k = 0; k < n; k++)
		if (strcmp(tag, list[k]) == 0)
			return true;
	return false;
}

static bool html_is_block(const char *tag)
{
	static const char *const blocks[] = {
		"br", "p", "div", "tr", "li", "h1", "h2", "h3", "h4", "h5",
		"h6", "blockquote", "pre", "table", "hr", "ul", "ol", "dt",
		"dd", "section", "article", "header", "footer",
	};

	return html_in_list(tag, blocks, sizeof(blocks) / sizeof(blocks[0]));
}

/* Elements whose content is not shown as text, or is raw text in which
 * a "</div>" is no tag: jumped over to their end tag as a whole. */
static bool html_is_jumped(const char *tag)
{
	static const char *const jumped[] = {
		"script", "style", "head", "title", "textarea", "xmp",
		"iframe", "noembed", "noframes",
	};

	return html_in_list(tag, jumped, sizeof(jumped) / sizeof(jumped[0]));
}

/* Case-insensitive search for needle in hay[from..len); len if absent. */
static size_t html_find_ci(const char *hay, size_t len, size_t from,
			   const char *needle)
{
	size_t n = strlen(needle), i;

	for (i = from; i + n <= len; i++)
		if (strncasecmp(hay + i, needle, n) == 0)
			return i;
	return len;
}

/* The next attribute of a tag, from html[*pos] (HTML5 attribute states);
 * false at the tag's '>' or the end, with *pos there. */
static bool html_next_attr(const char *html, size_t len, size_t *pos,
			   const char **name_r, size_t *name_len_r,
			   const char **value_r, size_t *value_len_r)
{
	size_t i = *pos, start;

	while (i < len && (html_space(html[i]) || html[i] == '/'))
		i++;
	if (i >= len || html[i] == '>') {
		*pos = i;
		return false;
	}
	start = i++;	/* a leading '=' belongs to the name */
	while (i < len && !html_space(html[i]) && html[i] != '/' &&
	       html[i] != '>' && html[i] != '=')
		i++;
	*name_r = html + start;
	*name_len_r = i - start;
	*value_r = "";
	*value_len_r = 0;
	while (i < len && html_space(html[i]))
		i++;
	if (i < len && html[i] == '=') {
		i++;
		while (i < len && html_space(html[i]))
			i++;
		if (i < len && (html[i] == '"' || html[i] == '\'')) {
			char q = html[i++];

			start = i;
			while (i < len && html[i] != q)
				i++;
			*value_r = html + start;
			*value_len_r = i - start;
			if (i < len)
				i++;
		} else {
			start = i;
			while (i < len && !html_space(html[i]) && html[i] != '>')
				i++;
			*value_r = html + start;
			*value_len_r = i - start;
		}
	}
	*pos = i;
	return true;
}

/* The offset of the '>' ending a comment whose text starts at html[i]
 * ("-->" or "--!>"), or len. */
static size_t html_comment_end(const char *html, size_t len, size_t i)
{
	for (; i + 3 <= len; i++) {
		if (html[i] != '-' || html[i + 1] != '-')
			continue;
		if (html[i + 2] == '>')
			return i + 2;
		if (i + 4 <= len && html[i + 2] == '!' && html[i + 3] == '>')
			return i + 3;
	}
	return len;
}

/* Read the markup at html[i] == '<' into *t.  Returns false when the '<'
 * starts no markup (HTML shows it as text). */
static bool html_read_tag(const char *html, size_t len, size_t i,
			  struct html_tag *t)
{
	size_t j = i + 1, n = 0, p;
	const char *an, *av;
	size_t anl, avl;

	memset(t, 0, sizeof(*t));
	if (j < len && (html[j] == '!' || html[j] == '?')) {
		t->comment = true;
		if (html[j] == '!' && len - j >= 3 && memcmp(html + j, "!--", 3) == 0) {
			j += 3;
			/* "<!-->" and "<!--->" are whole (empty) comments */
			if (j < len && html[j] == '>')
				p = j;
			else if (len - j >= 2 && memcmp(html + j, "->", 2) == 0)
				p = j + 1;
			else
				p = html_comment_end(html, len, j);
		} else {
			const char *gt = memchr(html + j, '>', len - j);
			p = gt != NULL ? (size_t)(gt - html) : len;
		}
		t->end = p < len ? p + 1 : len;
		return true;
	}
	if (j < len && html[j] == '/') {
		t->closing = true;
		j++;
		if (j < len && html[j] == '>') {	/* "</>": dropped */
			t->comment = true;
			t->end = j + 1;
			return true;
		}
		if (j < len && !isalpha((unsigned char)html[j])) {
			const char *gt = memchr(html + j, '>', len - j);
			t->comment = true;
			t->end = gt != NULL ? (size_t)(gt - html) + 1 : len;
			return true;
		}
	}
	if (j >= len || !isalpha((unsigned char)html[j]))
		return false;
	while (j < len && !html_space(html[j]) && html[j] != '/' &&
	       html[j] != '>') {
		if (n < sizeof(t->name) - 1)
			t->name[n] = (char)tolower((unsigned char)html[j]);
		n++;
		j++;
	}
	if (n >= sizeof(t->name))
		n = 0;	/* too long to be one we know */
	t->name[n] = '\0';
	t->attrs = j;
	p = j;
	while (html_next_attr(html, len, &p, &an, &anl, &av, &avl))
		;
	t->end = p < len ? p + 1 : len;
	return true;
}

/* The value of attribute name in tag t, or NULL; *vlen_r its length. */
static const char *html_attr(const char *html, const struct html_tag *t,
			     const char *name, size_t *vlen_r)
{
	size_t p = t->attrs, nl = strlen(name), anl;
	const char *an, *av;

	while (html_next_attr(html, t->end, &p, &an, &anl, &av, vlen_r))
		if (anl == nl && strncasecmp(an, name, nl) == 0)
			return av;
	return NULL;
}

/* Does word (length n) equal want, or end in "_" want (Outlook on the web
 * prefixes "x_" to the classes and ids of a mail it quotes)? */
static bool html_word_is(const char *word, size_t n, const char *want)
{
	size_t wl = strlen(want);

	if (n < wl || strncasecmp(word + n - wl, want, wl) != 0)
		return false;
	return n == wl || word[n - wl - 1] == '_';
}

/* Does a class attribute value hold one of the words in list? */
static bool html_class_has(const char *v, size_t vlen, const char *const *list,
			   size_t n)
{
	size_t i = 0, k;

	while (i < vlen) {
		size_t start;

		while (i < vlen && html_space(v[i]))
			i++;
		start = i;
		while (i < vlen && !html_space(v[i]))
			i++;
		for (k = 0; k < n && i > start; k++)
			if (html_word_is(v + start, i - start, list[k]))
				return true;
	}
	return false;
}

enum html_quote {
	HTML_QUOTE_NONE = 0,
	HTML_QUOTE_ELEMENT,	/* the element and its content */
	HTML_QUOTE_TO_END,	/* everything from here on */
};

/* Is the opening tag t where a mail client put quoted text?  Gmail's
 * quote block, Thunderbird's attribution line, Yahoo's quote, any
 * blockquote (type=cite from Thunderbird and Apple Mail, class
 * gmail_quote from Gmail); Outlook puts the quoted mail after its reply
 * header at the end, unmarked, so that runs to the end. */
static enum html_quote html_quote_start(const char *html,
					const struct html_tag *t)
{
	static const char *const classes[] = {
		"gmail_quote", "gmail_quote_container", "moz-cite-prefix",
		"yahoo_quoted",
	};
	const char *v;
	size_t vlen;

	if (t->closing || t->comment)
		return HTML_QUOTE_NONE;
	if (strcmp(t->name, "blockquote") == 0)
		return HTML_QUOTE_ELEMENT;
	if (strcmp(t->name, "div") != 0)
		return HTML_QUOTE_NONE;
	v = html_attr(html, t, "id", &vlen);
	if (v != NULL && (html_word_is(v, vlen, "appendonsend") ||
			  html_word_is(v, vlen, "divRplyFwdMsg")))
		return HTML_QUOTE_TO_END;
	v = html_attr(html, t, "class", &vlen);
	if (v != NULL && html_class_has(v, vlen, classes,
					sizeof(classes) / sizeof(classes[0])))
		return HTML_QUOTE_ELEMENT;
	return HTML_QUOTE_NONE;
}

/* From html[i] (just past an opening tag of a jumped element), the offset
 * past its end tag, or len. */
static size_t html_jump(const char *html, size_t len, size_t i,
			const char *name)
{
	char endtag[24];
	size_t j;

	snprintf(endtag, sizeof(endtag), "</%s", name);
	j = html_find_ci(html, len, i, endtag);
	j = j < len ? html_find_ci(html, len, j, ">") : len;
	return j < len ? j + 1 : len;
}

/* From html[i] (just past the opening tag of a quote element called
 * name), the offset past its matching end tag: same-named elements
 * inside count up and down.  Unclosed: len. */
static size_t html_skip_element(const char *html, size_t len, size_t i,
				const char *name)
{
	size_t depth = 1;
	struct html_tag t;

	while (i < len) {
		const char *lt = memchr(html + i, '<', len - i);

		if (lt == NULL)
			return len;
		i = (size_t)(lt - html);
		if (!html_read_tag(html, len, i, &t)) {
			i++;
			continue;
		}
		i = t.end;
		if (t.comment)
			continue;
		if (!t.closing && html_is_jumped(t.name)) {
			i = html_jump(html, len, i, t.name);
			continue;
		}
		if (strcmp(t.name, name) != 0)
			continue;
		if (!t.closing)
			depth++;
		else if (--depth == 0)
			return i;
	}
	return len;
}

/* ---- rendering: the lines a browser shows ----
 *
 * A clearsigned text pasted into an HTML-only webmail verifies only if
 * its lines come back as typed: every line, the blank ones too, and the
 * blanks a line starts with where they were kept.  So, as a browser
 * lays text out: a <br> ends a line; a block's start or end ends the
 * line it interrupts (an empty block adds none, a block holding only a
 * <br> is one blank line); runs of white space are one space, none at a
 * line's start or end; &nbsp; (and a U+00A0 typed as text) is a space
 * that stays; in <pre> and where a style keeps white space
 * ("white-space: pre", "pre-wrap", "pre-line", "break-spaces") every
 * space and line end stays. */

/* The open elements whose end turns white space back to collapsing. */
#define HTML_PRE_STACK 32

struct html_render {
	struct buf *raw;
	bool line_used;		/* something shown on the current line */
	bool space;		/* a collapsed space waits for the next text */
	char pre_names[HTML_PRE_STACK][16];
	size_t pre_depth;	/* elements in pre_names */
	size_t pre_untracked;	/* deeper ones not kept (past the stack) */
};

/* End the current line if anything is on it: a block's edge. */
static void html_block_edge(struct html_render *r)
{
	if (r->line_used)
		buf_putc(r->raw, '\n');
	r->line_used = false;
	r->space = false;
}

/* A line end the text asks for: <br>, or a line end in <pre>. */
static void html_line_end(struct html_render *r)
{
	buf_putc(r->raw, '\n');
	r->line_used = false;
	r->space = false;
}

/* Before shown text: the collapsed space that waits, if any. */
static void html_before_text(struct html_render *r)
{
	if (r->space && r->line_used)
		buf_putc(r->raw, ' ');
	r->space = false;
	r->line_used = true;
}

/* One marker line per run of dropped quotes. */
static void html_put_quote_mark(struct html_render *r)
{
	static const char mark[] = HTML_QUOTE_MARK "\n";
	size_t n = sizeof(mark) - 1;

	html_block_edge(r);
	if (r->raw->len >= n &&
	    memcmp(r->raw->data + r->raw->len - n, mark, n) == 0)
		return;
	buf_append(r->raw, mark, n);
}

/* Does the tag keep white space: <pre>, or a style saying so? */
static bool html_keeps_space(const char *html, const struct html_tag *t)
{
	const char *v;
	size_t vlen, i;

	if (strcmp(t->name, "pre") == 0 || strcmp(t->name, "xmp") == 0 ||
	    strcmp(t->name, "listing") == 0)
		return true;
	v = html_attr(html, t, "style", &vlen);
	if (v == NULL)
		return false;
	for (i = 0; i + 11 <= vlen; i++) {
		size_t j;

		if (strncasecmp(v + i, "white-space", 11) != 0)
			continue;
		for (j = i + 11; j < vlen && (html_space(v[j]) || v[j] == ':');
		     j++)
			;
		if (j + 3 <= vlen && strncasecmp(v + j, "pre", 3) == 0)
			return true;
		if (j + 12 <= vlen && strncasecmp(v + j, "break-spaces", 12) == 0)
			return true;
	}
	return false;
}

/* Elements with no end tag: never on the stack. */
static bool html_is_void(const char *tag)
{
	static const char *const voids[] = {
		"br", "hr", "img", "meta", "link", "input", "wbr", "col",
		"area", "base", "source", "track", "embed", "param",
	};

	return html_in_list(tag, voids, sizeof(voids) / sizeof(voids[0]));
}

/* Track the tags that keep white space: an opening one is pushed, and
 * its end tag pops it (with anything left open inside it). */
static void html_track_pre(struct html_render *r, const char *html,
			   const struct html_tag *t)
{
	size_t k;

	if (t->name[0] == '\0' || html_is_void(t->name))
		return;
	if (!t->closing) {
		if (!html_keeps_space(html, t))
			return;
		if (r->pre_depth == HTML_PRE_STACK) {
			r->pre_untracked++;
			return;
		}
		snprintf(r->pre_names[r->pre_depth], sizeof(r->pre_names[0]),
			 "%s", t->name);
		r->pre_depth++;
		return;
	}
	if (r->pre_untracked > 0 && r->pre_depth == HTML_PRE_STACK &&
	    strcmp(r->pre_names[r->pre_depth - 1], t->name) != 0) {
		r->pre_untracked--;
		return;
	}
	for (k = r->pre_depth; k > 0; k--)
		if (strcmp(r->pre_names[k - 1], t->name) == 0) {
			r->pre_depth = k - 1;
			return;
		}
}

/* Tidy raw into out: no blanks at line ends (they are never part of what
 * a clearsigned text signs), no blank lines at the start or the end. */
static void html_tidy(const struct buf *raw, struct buf *out)
{
	const char *s = buf_str(raw);
	size_t k = 0, blank = 0;
	bool started = false;

	while (s[k] != '\0') {
		size_t e = k, t;

		while (s[e] != '\0' && s[e] != '\n')
			e++;
		t = e;
		while (t > k && (s[t - 1] == ' ' || s[t - 1] == '\t'))
			t--;
		if (t == k) {
			blank++;
		} else {
			if (started)
				for (; blank > 0; blank--)
					buf_putc(out, '\n');
			blank = 0;
			buf_append(out, s + k, t - k);
			buf_putc(out, '\n');
			started = true;
		}
		if (s[e] == '\0')
			break;
		k = e + 1;
	}
	if (out->data == NULL)
		buf_puts(out, "");
}

void mime_html_to_text(const char *html, size_t len, struct buf *out)
{
	struct buf raw = BUF_INIT;
	struct html_render r;
	size_t i = 0;

	memset(&r, 0, sizeof(r));
	r.raw = &raw;
	while (i < len) {
		char c = html[i];
		bool pre = r.pre_depth > 0 || r.pre_untracked > 0;
		struct html_tag t;

		if (c == '<' && html_read_tag(html, len, i, &t)) {
			enum html_quote q = html_quote_start(html, &t);

			i = t.end;
			if (t.comment)
				continue;
			if (q != HTML_QUOTE_NONE) {
				i = q == HTML_QUOTE_TO_END ? len :
				    html_skip_element(html, len, i, t.name);
				html_put_quote_mark(&r);
				continue;
			}
			if (!t.closing && html_is_jumped(t.name)) {
				i = html_jump(html, len, i, t.name);
				continue;
			}
			if (strcmp(t.name, "br") == 0)
				html_line_end(&r);
			else if (html_is_block(t.name))
				html_block_edge(&r);
			html_track_pre(&r, html, &t);
			continue;
		}
		if (c == '&') {
			struct buf ent = BUF_INIT;
			size_t used = html_entity(html, len, i + 1, &ent);

			if (used > 0) {
				html_before_text(&r);
				buf_append(&raw, ent.data, ent.len);
				buf_free(&ent);
				i += 1 + used;
				continue;
			}
			buf_free(&ent);
		}
		if (c == '\r') {
			i++;
			continue;
		}
		if (pre && c == '\n') {
			html_line_end(&r);
			i++;
			continue;
		}
		if (!pre && (c == ' ' || c == '\t' || c == '\n' || c == '\f')) {
			r.space = true;
			i++;
			continue;
		}
		if ((unsigned char)c < 0x20 && c != '\t') {
			i++;
			continue;
		}
		html_before_text(&r);
		/* a no-break space typed as text shows as a space */
		if ((unsigned char)c == 0xc2 && i + 1 < len &&
		    (unsigned char)html[i + 1] == 0xa0) {
			buf_putc(&raw, ' ');
			i += 2;
			continue;
		}
		buf_putc(&raw, c);
		i++;
	}
	html_tidy(&raw, out);
	buf_free(&raw);
}
