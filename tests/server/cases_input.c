/* cases_input.c -- a case's own text, read into what the driver runs:
 * the personas a case names, its variables and capture rules, {{...}} in
 * the mails it sends, and its <mail>, <config> and <capture> sections
 * (see cases_run.h; tests/server/cases/README for the format). */
#include <check.h>
#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cases_run.h"

/* ---- personas ---------------------------------------------------------- */

/* The senders a case names by name: a key and an address each. */
static const struct persona personas[] = {
	{ "alice", "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", "alice@example.org" },
	{ "bob", "BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB", "bob@example.net" },
	{ "carol", "CCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCC", "carol@example.com" },
	/* a player of a club that takes unsigned mail: no key */
	{ "dave", NULL, "dave@example.org" },
	{ "eve", "EEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEE", "eve@evil.example" },
};

const struct persona *persona_find(const char *name)
{
	for (size_t i = 0; i < sizeof(personas) / sizeof(personas[0]); i++)
		if (strcasecmp(personas[i].name, name) == 0)
			return &personas[i];
	return NULL;
}

const struct persona *persona_by_address(const char *address)
{
	for (size_t i = 0; i < sizeof(personas) / sizeof(personas[0]); i++)
		if (strcasecmp(personas[i].address, address) == 0)
			return &personas[i];
	return NULL;
}

/* ---- variables and capture rules --------------------------------------- */

const char *var_get(const struct run *r, const char *name)
{
	for (size_t i = 0; i < r->nvars; i++)
		if (strcmp(r->vars[i].name, name) == 0)
			return r->vars[i].value;
	return NULL;
}

static void var_set(struct run *r, const char *name, const char *value)
{
	for (size_t i = 0; i < r->nvars; i++)
		if (strcmp(r->vars[i].name, name) == 0) {
			free(r->vars[i].value);
			r->vars[i].value = cases_strdup(value);
			return;
		}
	ck_assert_uint_lt(r->nvars, CASES_MAX_VARS);
	snprintf(r->vars[r->nvars].name, sizeof(r->vars[0].name), "%s", name);
	r->vars[r->nvars].value = cases_strdup(value);
	r->nvars++;
}

/* A capture rule binds NAME to its group's text; binding it to a new
 * value keeps the old one as NAME_prev. */
void var_capture(struct run *r, const char *name, const char *value)
{
	const char *old = var_get(r, name);
	char prev[48];

	if (old != NULL && strcmp(old, value) == 0)
		return;
	if (old != NULL) {
		snprintf(prev, sizeof(prev), "%s_prev", name);
		var_set(r, prev, old);
	}
	var_set(r, name, value);
}

int rule_add(struct run *r, const char *name, const char *regex, int line)
{
	struct rule *u;
	int e;

	if (r->nrules == CASES_MAX_RULES) {
		run_fail(r, line, "too many capture rules");
		return -1;
	}
	u = &r->rules[r->nrules];
	snprintf(u->name, sizeof(u->name), "%s", name);
	e = regcomp(&u->re, regex, REG_EXTENDED | REG_NEWLINE);
	if (e != 0) {
		char msg[128];
		regerror(e, &u->re, msg, sizeof(msg));
		run_fail(r, line, "capture %s: %s", name, msg);
		return -1;
	}
	if (u->re.re_nsub != 1) {
		regfree(&u->re);
		run_fail(r, line, "capture %s: needs exactly one group", name);
		return -1;
	}
	r->nrules++;
	return 0;
}

/* ---- the mails a case sends -------------------------------------------- */

/* Expand {{NAME}}, {{NAME|lower}}, {{sent N}}, {{mail N}} and
 * {{game N}} in text of an input mail.  -1 for an unknown one. */
int expand(struct run *r, const char *text, struct buf *out, int line)
{
	const char *p = text;

	while (*p != '\0') {
		const char *open = strstr(p, "{{"), *close;
		char word[64];
		int n;

		if (open == NULL) {
			buf_puts(out, p);
			break;
		}
		close = strstr(open, "}}");
		if (close == NULL || close - open - 2 >= (long)sizeof(word)) {
			run_fail(r, line, "unclosed {{ in \"%s\"", text);
			return -1;
		}
		buf_append(out, p, (size_t)(open - p));
		snprintf(word, sizeof(word), "%.*s", (int)(close - open - 2),
			 open + 2);
		if (sscanf(word, "sent %d", &n) == 1) {
			if (n < 1 || (size_t)n > r->nsent) {
				run_fail(r, line, "{{%s}}: only %zu mails sent",
					 word, r->nsent);
				return -1;
			}
			buf_printf(out, "<%s>", r->sent_ids[n - 1]);
		} else if (sscanf(word, "mail %d", &n) == 1) {
			buf_printf(out, "<mail%d@client.test>", n);
		} else if (sscanf(word, "game %d", &n) == 1) {
			struct store_game *g = NULL;
			const char *error;
			if (store_game_load(r->st, n, &g, &error) != 1 ||
			    g->thread_message_id == NULL) {
				store_game_free(&g);
				run_fail(r, line, "{{%s}}: no such thread", word);
				return -1;
			}
			buf_printf(out, "<%s>", g->thread_message_id);
			store_game_free(&g);
		} else {
			char *bar = strchr(word, '|');
			const char *v;
			if (bar != NULL)
				*bar = '\0';
			v = var_get(r, word);
			if (v == NULL) {
				run_fail(r, line, "{{%s}} is not bound", word);
				return -1;
			}
			if (bar != NULL && strcmp(bar + 1, "lower") == 0) {
				for (; *v != '\0'; v++)
					buf_putc(out, (char)tolower((unsigned char)*v));
			} else if (bar != NULL) {
				run_fail(r, line, "{{%s|%s}}: unknown filter", word,
					 bar + 1);
				return -1;
			} else {
				buf_puts(out, v);
			}
		}
		p = close + 2;
	}
	return 0;
}

/* "+90", "+2h", "-40d": seconds. */
int parse_offset(const char *s, int64_t *secs_r)
{
	char *end;
	long long v = strtoll(s, &end, 10);

	if (end == s)
		return -1;
	switch (*end) {
	case '\0': case 's': break;
	case 'm': v *= 60; break;
	case 'h': v *= 3600; break;
	case 'd': v *= 86400; break;
	default: return -1;
	}
	if (*end != '\0' && end[1] != '\0')
		return -1;
	*secs_r = v;
	return 0;
}

/* A fingerprint as a case writes it: a persona's name or hex. */
static const char *key_of(const char *word)
{
	const struct persona *p = persona_find(word);
	return p != NULL ? p->fingerprint : word;
}

static const char *keep(struct strings *k, char *s)
{
	ck_assert_uint_lt(k->n, 64);
	k->s[k->n++] = s;
	return s;
}

void strings_free(struct strings *k)
{
	for (size_t i = 0; i < k->n; i++)
		free(k->s[i]);
	k->n = 0;
}

static size_t split_list(struct strings *k, const char *value,
			 const char **list, bool keys)
{
	size_t n = 0;
	const char *p = value;

	while (*p != '\0' && n < CASES_MAX_LIST) {
		size_t len;
		char *w;
		while (*p == ' ' || *p == ',')
			p++;
		len = strcspn(p, " ,");
		if (len == 0)
			break;
		w = calloc(1, len + 1);
		if (w == NULL)
			abort();
		memcpy(w, p, len);
		keep(k, w);
		list[n++] = keys ? key_of(w) : w;
		p += len;
	}
	return n;
}

/* A <mail> section into m.  -1 when the case is wrong. */
int mail_read(struct run *r, const struct cases_section *s,
	      struct inmail *m, struct strings *k)
{
	struct cases_header *h = NULL;
	size_t n = 0;
	char *body = NULL, err[256];
	struct buf b = BUF_INIT;
	bool from_seen = false;
	int ret = -1;

	memset(m, 0, sizeof(*m));
	if (cases_mail_parse(s->content, &h, &n, &body, err, sizeof(err)) < 0) {
		run_fail(r, s->line, "%s", err);
		return -1;
	}
	if (expand(r, body, &b, s->line) < 0)
		goto out;
	m->body = keep(k, buf_steal(&b));
	for (size_t i = 0; i < n; i++) {
		const char *name = h[i].name;
		const char *v;

		buf_reset(&b);
		if (expand(r, h[i].value, &b, s->line) < 0)
			goto out;
		v = keep(k, buf_steal(&b));
		if (strcasecmp(name, "From") == 0) {
			const struct persona *p = persona_find(v);
			m->from = p != NULL ? p->address : v;
			if (p != NULL)
				m->fingerprint = p->fingerprint;
			from_seen = true;
		} else if (strcasecmp(name, "Key") == 0) {
			m->fingerprint = strcasecmp(v, "none") == 0 ? NULL :
					 key_of(v);
		} else if (strcasecmp(name, "Subject") == 0) {
			m->subject = v;
		} else if (strcasecmp(name, "References") == 0) {
			m->references = v;
		} else if (strcasecmp(name, "Message-ID") == 0) {
			if (strcasecmp(v, "none") == 0)
				m->no_message_id = true;
			else
				m->message_id = v;
		} else if (strcasecmp(name, "Time") == 0) {
			if (parse_offset(v, &m->delay) < 0) {
				run_fail(r, s->line, "Time: %s: not +N[smhd]", v);
				goto out;
			}
		} else if (strcasecmp(name, "Signature-Time") == 0) {
			if (parse_offset(v, &m->signature_offset) < 0) {
				run_fail(r, s->line, "Signature-Time: %s", v);
				goto out;
			}
			m->signature_time_set = true;
		} else if (strcasecmp(name, "Flags") == 0) {
			const char *list[CASES_MAX_LIST];
			size_t c = split_list(k, v, list, false);
			for (size_t j = 0; j < c; j++) {
				if (strcmp(list[j], "weak") == 0)
					m->weak = true;
				else if (strcmp(list[j], "strong") == 0)
					m->strong = true;
				else if (strcmp(list[j], "key-offered") == 0)
					m->key_offered = true;
				else if (strcmp(list[j], "unsigned-text-ignored") == 0)
					m->unsigned_text_ignored = true;
				else if (strcmp(list[j], "raw-truncated") == 0)
					m->raw_truncated = true;
				else if (strcmp(list[j], "crlf") == 0)
					m->crlf = true;
				else {
					run_fail(r, s->line, "unknown flag %s",
						 list[j]);
					goto out;
				}
			}
		} else if (strcasecmp(name, "Refusal") == 0) {
			m->refusal = v;
		} else if (strcasecmp(name, "Signer") == 0) {
			m->signer = key_of(v);
		} else if (strcasecmp(name, "Problem") == 0) {
			m->problem = v;
		} else if (strcasecmp(name, "Size") == 0) {
			m->size = strtoul(v, NULL, 10);
		} else if (strcasecmp(name, "Size-Limit") == 0) {
			m->size_limit = strtoul(v, NULL, 10);
		} else if (strcasecmp(name, "Silent") == 0) {
			m->silent = v;
		} else if (strcasecmp(name, "Bounce-IDs") == 0) {
			m->nbounce = split_list(k, v, m->bounce, false);
		} else if (strcasecmp(name, "Revoked") == 0) {
			m->nrevoked = split_list(k, v, m->revoked, true);
		} else if (strcasecmp(name, "Offered") == 0) {
			m->noffered = split_list(k, v, m->offered, true);
		} else if (strcasecmp(name, "Raw") == 0) {
			m->raw = v;
		} else if (strcasecmp(name, "Signed") == 0) {
			m->signed_text = v;
		} else {
			run_fail(r, s->line, "unknown mail header %s", name);
			goto out;
		}
	}
	if (!from_seen) {
		run_fail(r, s->line, "a mail needs From:");
		goto out;
	}
	ret = 0;
out:
	buf_free(&b);
	free(body);
	cases_headers_free(&h, n);
	return ret;
}

/* ---- <config> and <capture> -------------------------------------------- */

static bool yes(const char *v)
{
	return strcasecmp(v, "yes") == 0 || strcmp(v, "1") == 0 ||
	       strcasecmp(v, "true") == 0;
}

int config_read(struct run *r, const struct cases_section *s)
{
	const char *p = s->content;
	int line = s->line;

	while (*p != '\0') {
		char key[64], value[256];
		size_t len = strcspn(p, "\n");
		char text[512];

		line++;
		snprintf(text, sizeof(text), "%.*s", (int)len, p);
		p += len + (p[len] == '\n');
		if (text[0] == '\0' || text[0] == '#')
			continue;
		if (sscanf(text, " %63[a-z_] = %255[^\n]", key, value) != 2) {
			run_fail(r, line, "config: \"%s\" is not KEY = VALUE", text);
			return -1;
		}
		if (strcmp(key, "max_listed_moves") == 0)
			r->cfg.max_listed_moves = strtoul(value, NULL, 10);
		else if (strcmp(key, "max_commands") == 0)
			r->cfg.max_commands = strtoul(value, NULL, 10);
		else if (strcmp(key, "sender_rate_limit") == 0)
			r->cfg.sender_rate_limit = (unsigned)strtoul(value, NULL, 10);
		else if (strcmp(key, "registrations_per_hour") == 0)
			r->cfg.registrations_per_hour =
				(unsigned)strtoul(value, NULL, 10);
		else if (strcmp(key, "draw_default") == 0)
			r->cfg.default_variant.draw_offers = yes(value);
		else if (strcmp(key, "require_signature") == 0)
			r->cfg.require_signature = yes(value);
		else if (strcmp(key, "our_address") == 0) {
			snprintf(r->our_address, sizeof(r->our_address), "%s",
				 value);
			r->cfg.our_address = r->our_address;
		} else {
			run_fail(r, line, "config: unknown key %s", key);
			return -1;
		}
	}
	return 0;
}

int capture_read(struct run *r, const struct cases_section *s)
{
	const char *p = s->content;
	int line = s->line;

	while (*p != '\0') {
		size_t len = strcspn(p, "\n");
		char text[512], name[32];
		int at = 0;

		line++;
		snprintf(text, sizeof(text), "%.*s", (int)len, p);
		p += len + (p[len] == '\n');
		if (text[0] == '\0' || text[0] == '#')
			continue;
		if (sscanf(text, "%31s %n", name, &at) != 1 || text[at] == '\0') {
			run_fail(r, line, "capture: NAME REGEX");
			return -1;
		}
		if (rule_add(r, name, text + at, line) < 0)
			return -1;
	}
	return 0;
}
