/* cases_driver.c -- case files of the service's data-driven tests: their
 * sections, mail headers, a unified diff and the rewriter (see
 * cases_driver.h). */
#include "cases_driver.h"

#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/buf.h"

char *cases_strdup(const char *s)
{
	char *copy = strdup(s != NULL ? s : "");

	if (copy == NULL) {
		fprintf(stderr, "out of memory\n");
		abort();
	}
	return copy;
}

static void *cases_alloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size);

	if (p == NULL) {
		fprintf(stderr, "out of memory\n");
		abort();
	}
	return p;
}

/* ---- sections ----------------------------------------------------------- */

/* Does the line [p, p+len) read "<name attrs>" (close: "</name>")?  The
 * name into name (lower case letters, digits, '-'), the attributes'
 * offset into *attrs_r. */
static bool tag_line(const char *p, size_t len, bool close, char *name,
		     size_t name_len, size_t *attrs_r)
{
	size_t i = close ? 2 : 1, n = 0;

	if (len < i + 2 || p[0] != '<' || (close && p[1] != '/') ||
	    p[len - 1] != '>')
		return false;
	if (!(p[i] >= 'a' && p[i] <= 'z'))
		return false;
	while (i < len - 1 && (islower((unsigned char)p[i]) ||
			       isdigit((unsigned char)p[i]) || p[i] == '-')) {
		if (n + 1 >= name_len)
			return false;
		name[n++] = p[i++];
	}
	name[n] = '\0';
	if (close)
		return i == len - 1;
	if (i < len - 1 && p[i] != ' ')
		return false;
	*attrs_r = i < len - 1 ? i + 1 : i;
	return true;
}

int cases_file_load(const char *path, struct cases_file *f, char *err,
		    size_t errlen)
{
	FILE *in;
	struct buf b = BUF_INIT;
	char chunk[8192];
	size_t n, pos, cap = 0;
	int lineno = 0;
	struct cases_section *open = NULL;
	size_t content_from = 0;

	memset(f, 0, sizeof(*f));
	in = fopen(path, "r");
	if (in == NULL) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	while ((n = fread(chunk, 1, sizeof(chunk), in)) > 0)
		buf_append(&b, chunk, n);
	fclose(in);
	f->path = cases_strdup(path);
	f->len = b.len;
	f->text = b.len > 0 ? buf_steal(&b) : cases_strdup("");
	buf_free(&b);

	for (pos = 0; pos < f->len;) {
		const char *line = f->text + pos;
		const char *nl = memchr(line, '\n', f->len - pos);
		size_t len = nl != NULL ? (size_t)(nl - line) : f->len - pos;
		size_t next = pos + len + (nl != NULL);
		char name[32];
		size_t attrs;

		lineno++;
		if (open != NULL) {
			if (tag_line(line, len, true, name, sizeof(name), &attrs) &&
			    strcmp(name, open->name) == 0) {
				open->content = cases_alloc(pos - content_from + 1, 1);
				memcpy(open->content, f->text + content_from,
				       pos - content_from);
				open->end = next;
				open = NULL;
			}
		} else if (tag_line(line, len, false, name, sizeof(name), &attrs)) {
			if (f->count == cap) {
				cap = cap ? cap * 2 : 16;
				f->sections = realloc(f->sections,
						      cap * sizeof(*f->sections));
				if (f->sections == NULL) {
					fprintf(stderr, "out of memory\n");
					abort();
				}
			}
			open = &f->sections[f->count++];
			memset(open, 0, sizeof(*open));
			snprintf(open->name, sizeof(open->name), "%s", name);
			open->attrs = cases_alloc(len - attrs + 1, 1);
			memcpy(open->attrs, line + attrs, len - 1 - attrs);
			open->line = lineno;
			open->start = pos;
			content_from = next;
		} else if (tag_line(line, len, true, name, sizeof(name), &attrs)) {
			snprintf(err, errlen, "%s:%d: </%s> closes no section",
				 path, lineno, name);
			cases_file_free(f);
			return -1;
		}
		pos = next;
	}
	if (open != NULL) {
		snprintf(err, errlen, "%s:%d: <%s> is never closed", path,
			 open->line, open->name);
		open->content = cases_strdup("");
		cases_file_free(f);
		return -1;
	}
	return 0;
}

void cases_file_free(struct cases_file *f)
{
	for (size_t i = 0; i < f->count; i++) {
		free(f->sections[i].attrs);
		free(f->sections[i].content);
	}
	free(f->sections);
	free(f->text);
	free(f->path);
	memset(f, 0, sizeof(*f));
}

bool cases_section_generated(const char *name)
{
	return strcmp(name, "sent") == 0 || strcmp(name, "outcome") == 0;
}

bool cases_section_step(const char *name)
{
	return strcmp(name, "mail") == 0 || strcmp(name, "digests") == 0 ||
	       strcmp(name, "tick") == 0;
}

bool cases_next_line(const char **p, int *line, char *text, size_t size)
{
	while (**p != '\0') {
		size_t len = strcspn(*p, "\n");

		(*line)++;
		snprintf(text, size, "%.*s", (int)len, *p);
		*p += len + ((*p)[len] == '\n');
		if (text[0] != '\0' && text[0] != '#')
			return true;
	}
	return false;
}

static bool all_blank(const char *p, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (!isspace((unsigned char)p[i]))
			return false;
	return true;
}

int cases_file_rewrite(const struct cases_file *f, char *const *after,
		       size_t nafter, char *err, size_t errlen)
{
	struct buf out = BUF_INIT;
	size_t pos = 0, mail = 0;
	char tmp[4096];
	FILE *o;
	int ret = -1;

	for (size_t i = 0; i < f->count; i++) {
		const struct cases_section *s = &f->sections[i];
		bool drop = cases_section_generated(s->name);
		/* the text before this section: dropped with it when it is
		 * only the blank space after a mail or a generated section */
		bool gap_after_mail = i > 0 &&
			(cases_section_step(f->sections[i - 1].name) ||
			 cases_section_generated(f->sections[i - 1].name));

		if (!(drop && gap_after_mail &&
		      all_blank(f->text + pos, s->start - pos)))
			buf_append(&out, f->text + pos, s->start - pos);
		if (!drop)
			buf_append(&out, f->text + s->start, s->end - s->start);
		if (cases_section_step(s->name)) {
			if (s->end > 0 && f->text[s->end - 1] != '\n')
				buf_putc(&out, '\n');
			if (mail < nafter && after[mail] != NULL)
				buf_puts(&out, after[mail]);
			mail++;
		}
		pos = s->end;
	}
	buf_append(&out, f->text + pos, f->len - pos);

	snprintf(tmp, sizeof(tmp), "%s.new", f->path);
	o = fopen(tmp, "w");
	if (o == NULL) {
		snprintf(err, errlen, "%s: %s", tmp, strerror(errno));
		goto out;
	}
	if (fwrite(buf_str(&out), 1, out.len, o) != out.len) {
		snprintf(err, errlen, "%s: %s", tmp, strerror(errno));
		fclose(o);
		goto out;
	}
	if (fclose(o) != 0 || rename(tmp, f->path) != 0) {
		snprintf(err, errlen, "%s: %s", f->path, strerror(errno));
		goto out;
	}
	ret = 0;
out:
	buf_free(&out);
	return ret;
}

/* ---- mail headers ----------------------------------------------------- */

int cases_mail_parse(const char *content, struct cases_header **headers_r,
		     size_t *count_r, char **body_r, char *err, size_t errlen)
{
	const char *p = content;
	size_t n = 0, cap = 0;
	struct cases_header *h = NULL;

	*headers_r = NULL;
	*count_r = 0;
	*body_r = NULL;
	while (*p != '\0' && *p != '\n') {
		const char *nl = strchr(p, '\n');
		size_t len = nl != NULL ? (size_t)(nl - p) : strlen(p);
		const char *colon = memchr(p, ':', len);
		size_t nlen, vstart;

		if (colon == NULL || colon == p) {
			snprintf(err, errlen, "not a \"Name: value\" header: "
				 "\"%.*s\" (the body follows an empty line)",
				 (int)len, p);
			cases_headers_free(&h, n);
			return -1;
		}
		if (n == cap) {
			cap = cap ? cap * 2 : 8;
			h = realloc(h, cap * sizeof(*h));
			if (h == NULL) {
				fprintf(stderr, "out of memory\n");
				abort();
			}
		}
		nlen = (size_t)(colon - p);
		vstart = nlen + 1;
		while (vstart < len && p[vstart] == ' ')
			vstart++;
		h[n].name = cases_alloc(nlen + 1, 1);
		memcpy(h[n].name, p, nlen);
		h[n].value = cases_alloc(len - vstart + 1, 1);
		memcpy(h[n].value, p + vstart, len - vstart);
		n++;
		p += len;
		if (*p == '\n')
			p++;
	}
	if (*p == '\n')
		p++;
	*headers_r = h;
	*count_r = n;
	*body_r = cases_strdup(p);
	return 0;
}

void cases_headers_free(struct cases_header **headers, size_t count)
{
	if (*headers == NULL)
		return;
	for (size_t i = 0; i < count; i++) {
		free((*headers)[i].name);
		free((*headers)[i].value);
	}
	free(*headers);
	*headers = NULL;
}

/* ---- a unified diff --------------------------------------------------- */

struct lines {
	const char **p;
	size_t *len;
	size_t n;
	bool last_has_nl;
};

static void split_lines(const char *text, struct lines *l)
{
	size_t cap = 16;

	l->p = cases_alloc(cap, sizeof(*l->p));
	l->len = cases_alloc(cap, sizeof(*l->len));
	l->n = 0;
	l->last_has_nl = true;
	while (*text != '\0') {
		const char *nl = strchr(text, '\n');
		size_t len = nl != NULL ? (size_t)(nl - text) : strlen(text);

		if (l->n == cap) {
			cap *= 2;
			l->p = realloc(l->p, cap * sizeof(*l->p));
			l->len = realloc(l->len, cap * sizeof(*l->len));
			if (l->p == NULL || l->len == NULL) {
				fprintf(stderr, "out of memory\n");
				abort();
			}
		}
		l->p[l->n] = text;
		l->len[l->n] = len;
		l->n++;
		l->last_has_nl = nl != NULL;
		text += len + (nl != NULL);
	}
}

static bool same_line(const struct lines *a, size_t i, const struct lines *b,
		      size_t j)
{
	return a->len[i] == b->len[j] &&
	       memcmp(a->p[i], b->p[j], a->len[i]) == 0;
}

enum { OP_SAME, OP_DEL, OP_ADD };

#define DIFF_CONTEXT 3
/* Beyond this many cells the LCS table is not built: both texts are
 * printed whole instead. */
#define DIFF_MAX_CELLS (40u * 1000 * 1000)

static void print_line(FILE *out, char mark, const struct lines *l, size_t i)
{
	fprintf(out, "%c%.*s\n", mark, (int)l->len[i], l->p[i]);
	if (i + 1 == l->n && !l->last_has_nl)
		fputs("\\ No newline at end\n", out);
}

void cases_diff(FILE *out, const char *label_expected, const char *expected,
		const char *label_actual, const char *actual)
{
	struct lines a, b;
	uint32_t *lcs;
	unsigned char *ops;
	size_t *ai, *bi, nops = 0, i, j, w;

	if (strcmp(expected, actual) == 0)
		return;
	split_lines(expected, &a);
	split_lines(actual, &b);
	fprintf(out, "--- %s\n+++ %s\n", label_expected, label_actual);
	if ((double)(a.n + 1) * (double)(b.n + 1) > DIFF_MAX_CELLS) {
		fprintf(out, "@@ too long to diff: expected %zu lines, got "
			"%zu @@\n", a.n, b.n);
		for (i = 0; i < a.n; i++)
			print_line(out, '-', &a, i);
		for (j = 0; j < b.n; j++)
			print_line(out, '+', &b, j);
		goto out;
	}
	/* lcs[i][j]: the longest common subsequence of a[i..] and b[j..] */
	w = b.n + 1;
	lcs = cases_alloc((a.n + 1) * w, sizeof(*lcs));
	for (i = a.n; i-- > 0;)
		for (j = b.n; j-- > 0;)
			lcs[i * w + j] = same_line(&a, i, &b, j) ?
				lcs[(i + 1) * w + j + 1] + 1 :
				(lcs[(i + 1) * w + j] >= lcs[i * w + j + 1] ?
				 lcs[(i + 1) * w + j] : lcs[i * w + j + 1]);
	ops = cases_alloc(a.n + b.n + 1, 1);
	ai = cases_alloc(a.n + b.n + 1, sizeof(*ai));
	bi = cases_alloc(a.n + b.n + 1, sizeof(*bi));
	for (i = 0, j = 0; i < a.n || j < b.n;) {
		ai[nops] = i;
		bi[nops] = j;
		if (i < a.n && j < b.n && same_line(&a, i, &b, j)) {
			ops[nops++] = OP_SAME;
			i++;
			j++;
		} else if (i < a.n && (j == b.n ||
				       lcs[(i + 1) * w + j] >= lcs[i * w + j + 1])) {
			ops[nops++] = OP_DEL;
			i++;
		} else {
			ops[nops++] = OP_ADD;
			j++;
		}
	}
	free(lcs);
	/* hunks: runs of changes with DIFF_CONTEXT lines around them, joined
	 * when the context between two runs would overlap */
	for (size_t k = 0; k < nops;) {
		size_t first, last, m, na = 0, nb = 0;

		if (ops[k] == OP_SAME) {
			k++;
			continue;
		}
		first = k >= DIFF_CONTEXT ? k - DIFF_CONTEXT : 0;
		last = k;
		for (m = k; m < nops; m++) {
			if (ops[m] != OP_SAME)
				last = m;
			else if (m - last > 2 * DIFF_CONTEXT)
				break;
		}
		last = last + DIFF_CONTEXT < nops ? last + DIFF_CONTEXT : nops - 1;
		for (m = first; m <= last; m++) {
			na += ops[m] != OP_ADD;
			nb += ops[m] != OP_DEL;
		}
		fprintf(out, "@@ -%zu,%zu +%zu,%zu @@\n",
			ai[first] + (na > 0), na, bi[first] + (nb > 0), nb);
		for (m = first; m <= last; m++) {
			if (ops[m] == OP_SAME)
				print_line(out, ' ', &a, ai[m]);
			else if (ops[m] == OP_DEL)
				print_line(out, '-', &a, ai[m]);
			else
				print_line(out, '+', &b, bi[m]);
		}
		k = last + 1;
	}
	free(ops);
	free(ai);
	free(bi);
out:
	free(a.p);
	free(a.len);
	free(b.p);
	free(b.len);
}
