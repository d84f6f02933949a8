/* classify.c -- loop, auto-reply and bounce filters; see classify.h. */
#include "config.h"

#include "mail/classify.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

const char *classify_verdict_name(enum classify_verdict v)
{
	switch (v) {
	case CLASSIFY_NORMAL: return "normal";
	case CLASSIFY_FROM_SELF: return "from-self";
	case CLASSIFY_AUTO_SUBMITTED: return "auto-submitted";
	case CLASSIFY_PRECEDENCE: return "precedence";
	case CLASSIFY_LIST: return "list";
	case CLASSIFY_X_LOOP: return "x-loop";
	case CLASSIFY_BOUNCE: return "bounce";
	case CLASSIFY_OVERSIZED: return "oversized";
	}
	return "normal";
}

/* Trim spaces, tabs and one pair of <> from [*s, *e). */
static void classify_trim_addr(const char **s, const char **e)
{
	while (*s < *e && isspace((unsigned char)**s))
		(*s)++;
	while (*e > *s && isspace((unsigned char)(*e)[-1]))
		(*e)--;
	if (*e - *s >= 2 && **s == '<' && (*e)[-1] == '>') {
		(*s)++;
		(*e)--;
	}
}

bool classify_addr_equal(const char *a, const char *b)
{
	const char *ae, *be;

	if (a == NULL || b == NULL)
		return false;
	ae = a + strlen(a);
	be = b + strlen(b);
	classify_trim_addr(&a, &ae);
	classify_trim_addr(&b, &be);
	return ae - a > 0 && ae - a == be - b &&
	       strncasecmp(a, b, (size_t)(ae - a)) == 0;
}

static bool classify_is_ours(const char *addr, const char *const *ours)
{
	size_t i;

	if (addr == NULL || ours == NULL)
		return false;
	for (i = 0; ours[i] != NULL; i++)
		if (classify_addr_equal(addr, ours[i]))
			return true;
	return false;
}

/* First token of a header value (up to space, ';' or '('), compared
 * case-insensitively with word. */
static bool classify_token_is(const char *value, const char *word)
{
	size_t n = strlen(word);

	while (isspace((unsigned char)*value))
		value++;
	return strncasecmp(value, word, n) == 0 &&
	       (value[n] == '\0' || value[n] == ';' || value[n] == '(' ||
		isspace((unsigned char)value[n]));
}

/* X-Loop values are usually a bare address, sometimes with a comment. */
static bool classify_x_loop_ours(const char *value, const char *const *ours)
{
	char addr[320];
	size_t n = 0;

	while (isspace((unsigned char)*value) || *value == '<')
		value++;
	while (*value != '\0' && *value != '>' && *value != '(' &&
	       !isspace((unsigned char)*value) && n < sizeof(addr) - 1)
		addr[n++] = *value++;
	addr[n] = '\0';
	return classify_is_ours(addr, ours);
}

static bool classify_local_part_is(const char *addr, const char *name)
{
	const char *at;
	size_t n;

	if (addr == NULL)
		return false;
	while (*addr == '<' || isspace((unsigned char)*addr))
		addr++;
	at = strchr(addr, '@');
	n = at ? (size_t)(at - addr) : strlen(addr);
	return n == strlen(name) && strncasecmp(addr, name, n) == 0;
}

enum classify_verdict classify_headers(const struct classify_headers *h,
				       const char *const *our_addrs)
{
	size_t i;

	if (classify_is_ours(h->from_addr, our_addrs))
		return CLASSIFY_FROM_SELF;
	/* A bounce: a delivery report, or mail from the mailer daemon.  Before
	 * Auto-Submitted, since MTAs mark their reports auto-replied (Postfix,
	 * Exim do), and a bounce must be recorded as one. */
	if (h->content_type != NULL &&
	    strcmp(h->content_type, "multipart/report") == 0 &&
	    h->report_type != NULL &&
	    strcasecmp(h->report_type, "delivery-status") == 0)
		return CLASSIFY_BOUNCE;
	if (classify_local_part_is(h->from_addr, "mailer-daemon") ||
	    classify_local_part_is(h->from_addr, "postmaster"))
		return CLASSIFY_BOUNCE;
	if (h->auto_submitted != NULL && !classify_token_is(h->auto_submitted, "no"))
		return CLASSIFY_AUTO_SUBMITTED;
	if (h->precedence != NULL &&
	    (classify_token_is(h->precedence, "bulk") ||
	     classify_token_is(h->precedence, "list") ||
	     classify_token_is(h->precedence, "junk")))
		return CLASSIFY_PRECEDENCE;
	if (h->list)
		return CLASSIFY_LIST;
	for (i = 0; i < h->x_loop_count; i++)
		if (classify_x_loop_ours(h->x_loop[i], our_addrs))
			return CLASSIFY_X_LOOP;
	/* The null reverse path (RFC 5321 4.5.5: only notifications use it)
	 * counts only after Auto-Submitted: a vacation reply comes from <>
	 * too (RFC 5230 5.5), and its address is not failing. */
	if (h->return_path != NULL && h->return_path[0] == '\0')
		return CLASSIFY_BOUNCE;
	return CLASSIFY_NORMAL;
}

/* Iterate over the lines of text, unfolding none (DSN fields we read are
 * short).  fn gets each line without its line end. */
static void classify_lines(const char *text, size_t len,
			   void (*fn)(const char *line, size_t n, void *ctx),
			   void *ctx)
{
	size_t i = 0;

	while (i < len) {
		size_t e = i;

		while (e < len && text[e] != '\n')
			e++;
		fn(text + i, (e > i && text[e - 1] == '\r') ? e - i - 1 : e - i,
		   ctx);
		i = e + 1;
	}
}

struct classify_dsn {
	void (*fn)(const char *addr, void *ctx);
	void *ctx;
	char final[320];
	char original[320];
	bool have_final, have_original;
};

/* "Final-Recipient: rfc822; a@b" -> "a@b" in out. */
static bool classify_field(const char *line, size_t n, const char *name,
			   char *out, size_t outlen)
{
	size_t k = strlen(name), o = 0;
	const char *v, *e = line + n, *semi;

	if (n <= k || strncasecmp(line, name, k) != 0 || line[k] != ':')
		return false;
	v = line + k + 1;
	semi = memchr(v, ';', (size_t)(e - v));
	if (semi != NULL)
		v = semi + 1;
	classify_trim_addr(&v, &e);
	while (v < e && o < outlen - 1)
		out[o++] = *v++;
	out[o] = '\0';
	return o > 0;
}

static void classify_dsn_flush(struct classify_dsn *d)
{
	if (d->have_final)
		d->fn(d->final, d->ctx);
	else if (d->have_original)
		d->fn(d->original, d->ctx);
	d->have_final = d->have_original = false;
}

static void classify_dsn_line(const char *line, size_t n, void *ctx)
{
	struct classify_dsn *d = ctx;

	/* Each recipient's fields form one block; a blank line ends it. */
	if (n == 0) {
		classify_dsn_flush(d);
		return;
	}
	if (classify_field(line, n, "Final-Recipient", d->final, sizeof(d->final)))
		d->have_final = true;
	else if (classify_field(line, n, "Original-Recipient", d->original,
				sizeof(d->original)))
		d->have_original = true;
}

void classify_dsn_recipients(const char *text, size_t len,
			     void (*fn)(const char *addr, void *ctx),
			     void *ctx)
{
	struct classify_dsn d = { .fn = fn, .ctx = ctx };

	classify_lines(text, len, classify_dsn_line, &d);
	classify_dsn_flush(&d);
}

struct classify_ids {
	void (*fn)(const char *msgid, void *ctx);
	void *ctx;
};

static void classify_id_line(const char *line, size_t n, void *ctx)
{
	struct classify_ids *d = ctx;
	const char *lt, *gt, *e = line + n;
	char id[512];

	/* quoted bounces indent or prefix the returned headers */
	while (line < e && (isspace((unsigned char)*line) || *line == '>'))
		line++;
	n = (size_t)(e - line);
	if (n < 11 || strncasecmp(line, "Message-ID:", 11) != 0)
		return;
	lt = memchr(line, '<', n);
	if (lt == NULL)
		return;
	gt = memchr(lt, '>', (size_t)(e - lt));
	if (gt == NULL || (size_t)(gt - lt) + 2 > sizeof(id) || gt - lt < 3)
		return;
	memcpy(id, lt, (size_t)(gt - lt) + 1);
	id[gt - lt + 1] = '\0';
	d->fn(id, d->ctx);
}

void classify_find_message_ids(const char *text, size_t len,
			       void (*fn)(const char *msgid, void *ctx),
			       void *ctx)
{
	struct classify_ids d = { .fn = fn, .ctx = ctx };

	classify_lines(text, len, classify_id_line, &d);
}
