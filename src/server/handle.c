/* handle.c -- the mail in hand: refusals of a command, rendering of
 * templates, failures that roll the mail back, and the small address
 * and text helpers every file of the service uses. */
#include "server/server_private.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "store/store_bot.h"

const char *server_player_address(const struct store_player *p)
{
	for (size_t i = 0; i < p->n_addresses; i++)
		if (!p->addresses[i].failing)
			return p->addresses[i].address;
	return p->n_addresses > 0 ? p->addresses[0].address : NULL;
}

bool server_address_usable(const char *addr)
{
	const char *at;
	size_t n, i;

	if (addr == NULL)
		return false;
	n = strlen(addr);
	at = strchr(addr, '@');
	if (n < 3 || n > STORE_ADDRESS_MAX || at == NULL || at == addr ||
	    at[1] == '\0' || strchr(at + 1, '@') != NULL)
		return false;
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)addr[i];
		if (c <= 0x20 || c == 0x7f || c == '<' || c == '>' ||
		    c == ',' || c == ';')
			return false;
	}
	return true;
}

/* Characters a player's text (a message, a note) may not hold: controls would let it rewrite the
 * lines around it (in a mail, or on the operator's terminal in `ashes
 * game show`); bidi overrides and isolates reorder what the reader sees
 * ("resign" shown as "ngiser"), and invisible ones hide text or make two
 * notes look the same.  The name is for the refusal. */
static const char *handle_char_name(uint32_t c)
{
	static const struct {
		uint32_t c;
		const char *name;
	} names[] = {
		{ 0x061C, "ARABIC LETTER MARK" },
		{ 0x200B, "ZERO WIDTH SPACE" },
		{ 0x200C, "ZERO WIDTH NON-JOINER" },
		{ 0x200D, "ZERO WIDTH JOINER" },
		{ 0x200E, "LEFT-TO-RIGHT MARK" },
		{ 0x200F, "RIGHT-TO-LEFT MARK" },
		{ 0x2028, "LINE SEPARATOR" },
		{ 0x2029, "PARAGRAPH SEPARATOR" },
		{ 0x202A, "LEFT-TO-RIGHT EMBEDDING" },
		{ 0x202B, "RIGHT-TO-LEFT EMBEDDING" },
		{ 0x202C, "POP DIRECTIONAL FORMATTING" },
		{ 0x202D, "LEFT-TO-RIGHT OVERRIDE" },
		{ 0x202E, "RIGHT-TO-LEFT OVERRIDE" },
		{ 0x2060, "WORD JOINER" },
		{ 0x2066, "LEFT-TO-RIGHT ISOLATE" },
		{ 0x2067, "RIGHT-TO-LEFT ISOLATE" },
		{ 0x2068, "FIRST STRONG ISOLATE" },
		{ 0x2069, "POP DIRECTIONAL ISOLATE" },
		{ 0xFEFF, "ZERO WIDTH NO-BREAK SPACE" },
	};

	if ((c < 0x20 && c != '\t') || c == 0x7f)
		return "a control character";
	if (c >= 0x80 && c <= 0x9f)
		return "a C1 control character";
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (names[i].c == c)
			return names[i].name;
	return NULL;
}

/* Bytes that are not UTF-8 are refused too (the mail layer hands over
 * UTF-8; anything else is not text). */
bool server_text_bad_char(const char *text, char *what, size_t whatlen)
{
	const unsigned char *p = (const unsigned char *)text;

	while (*p != '\0') {
		uint32_t c;
		size_t n, k;
		const char *name;

		if (*p < 0x80) {
			c = *p;
			n = 1;
		} else if ((*p & 0xe0) == 0xc0) {
			c = *p & 0x1f;
			n = 2;
		} else if ((*p & 0xf0) == 0xe0) {
			c = *p & 0x0f;
			n = 3;
		} else if ((*p & 0xf8) == 0xf0) {
			c = *p & 0x07;
			n = 4;
		} else {
			snprintf(what, whatlen, "0x%02X (not UTF-8)", *p);
			return true;
		}
		for (k = 1; k < n; k++) {
			if ((p[k] & 0xc0) != 0x80) {
				snprintf(what, whatlen, "0x%02X (not UTF-8)", *p);
				return true;
			}
			c = (c << 6) | (p[k] & 0x3f);
		}
		name = handle_char_name(c);
		if (name != NULL) {
			snprintf(what, whatlen, "U+%04X (%s)", (unsigned)c, name);
			return true;
		}
		p += n;
	}
	return false;
}

int server_refuse(struct handle *h, const char *code)
{
	template_ctx_free(&h->refusal);
	h->refusal = template_ctx_new();
	template_ctx_set_bool(h->refusal, code, true);
	template_ctx_set(h->refusal, "code", code);
	return REFUSED;
}

int server_store_fail(struct handle *h, const char *error)
{
	h->error = error != NULL ? error : "store failure";
	return -1;
}

int server_render(struct handle *h, const char *name,
		  const struct template_ctx *ctx, struct buf *out)
{
	const char *error;

	if (template_render(h->ts, name, ctx, out, &error) < 0) {
		snprintf(h->srv->errbuf, sizeof(h->srv->errbuf), "%s", error);
		h->error = h->srv->errbuf;
		return -1;
	}
	return 0;
}

int server_render_line(struct handle *h, const char *name,
		       const struct template_ctx *ctx, struct buf *out)
{
	int ret = server_render(h, name, ctx, out);

	while (out->len > 0 && (out->data[out->len - 1] == '\n' ||
				out->data[out->len - 1] == '\r'))
		out->data[--out->len] = '\0';
	return ret;
}

/* Trailing newlines are dropped so values compose inside other
 * templates. */
int server_render_into(struct handle *h, const char *name,
		       const struct template_ctx *src, struct template_ctx *dst,
		       const char *key)
{
	struct buf b = BUF_INIT;
	int ret = server_render(h, name, src, &b);

	if (ret == 0) {
		while (b.len > 0 && b.data[b.len - 1] == '\n')
			b.data[--b.len] = '\0';
		template_ctx_set(dst, key, buf_str(&b));
	}
	buf_free(&b);
	return ret;
}

void server_set_utc(struct template_ctx *ctx, const char *key, int64_t t,
		    bool seconds)
{
	time_t tt = (time_t)t;
	struct tm tm;
	char text[64];

	gmtime_r(&tt, &tm);
	if (seconds)
		strftime(text, sizeof(text), "%Y-%m-%d %H:%M:%S UTC", &tm);
	else
		strftime(text, sizeof(text), "%Y-%m-%d %H:%M UTC", &tm);
	template_ctx_set(ctx, key, text);
}

int server_bot_id(struct handle *h, int64_t *id_r)
{
	const char *error;

	if (store_bot_player(h->srv->store, id_r, &error) < 0)
		return server_store_fail(h, error);
	return 0;
}

int server_is_bot(struct handle *h, int64_t pid)
{
	int64_t bot;

	if (pid == 0)
		return 0;
	if (server_bot_id(h, &bot) < 0)
		return -1;
	return bot != 0 && bot == pid;
}

struct template_set *server_default_set(const struct server *srv)
{
	struct template_set *ts = template_set_language(srv->cfg.templates,
							srv->cfg.language);

	return ts != NULL ? ts : srv->cfg.templates;
}

void server_handle_at(struct server *server, struct handle *h, int64_t now)
{
	memset(h, 0, sizeof(*h));
	h->srv = server;
	h->ts = server_default_set(server);
	h->now = now;
	h->received = now;
}
