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
#include <time.h>

#include "core/variant.h"

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
	/* the bot (<config> bot = on): the daemon's key, its address */
	{ "bot", "B0B0B0B0B0B0B0B0B0B0B0B0B0B0B0B0B0B0B0B0",
	  "bot@ashes.test.invalid" },
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

/* "2026-03-29T01:00Z": that instant (UTC), for a case about dates. */
int parse_instant(const char *s, int64_t *t_r)
{
	int y, mo, d, h, mi, n = 0;
	int64_t yy, era, yoe, doy, doe;

	if (sscanf(s, "%4d-%2d-%2dT%2d:%2dZ%n", &y, &mo, &d, &h, &mi, &n) != 5 ||
	    s[n] != '\0' || mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 ||
	    mi > 59)
		return -1;
	/* days since 1970-01-01 (H. Hinnant's days_from_civil) */
	yy = y - (mo <= 2);
	era = (yy >= 0 ? yy : yy - 399) / 400;
	yoe = yy - era * 400;
	doy = (153 * (mo + (mo > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	*t_r = (era * 146097 + doe - 719468) * 86400 + h * 3600 + mi * 60;
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
		} else if (strcasecmp(name, "Received") == 0) {
			if (parse_offset(v, &m->received_offset) < 0) {
				run_fail(r, s->line, "Received: %s", v);
				goto out;
			}
			m->received_set = true;
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
				else if (strcmp(list[j], "own-key") == 0)
					m->own_key = true;
				else if (strcmp(list[j], "from-mailbox") == 0)
					m->from_mailbox = true;
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
		} else if (strcasecmp(name, "Own-Offered") == 0) {
			m->nown_offered = split_list(k, v, m->own_offered, true);
		} else if (strcasecmp(name, "Offered-Outside") == 0) {
			m->offered_outside = strtoul(v, NULL, 10);
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

/* A config value that must be one of two words: 0 and *on_r (on: the
 * first), or -1 after run_fail(). */
static int one_of(struct run *r, int line, const char *key, const char *v,
		  const char *on, const char *off, bool *on_r)
{
	if (strcasecmp(v, on) == 0 || strcasecmp(v, off) == 0) {
		*on_r = strcasecmp(v, on) == 0;
		return 0;
	}
	run_fail(r, line, "config: %s is %s or %s, not %s", key, on, off, v);
	return -1;
}

/* A whole number from min to max, or -1 after run_fail(). */
static int number(struct run *r, int line, const char *key, const char *v,
		  long min, long max, long *n_r)
{
	char *end;
	long n = strtol(v, &end, 10);

	if (end == v || *end != '\0' || n < min || n > max) {
		run_fail(r, line, "config: %s is a number from %ld to %ld, "
			 "not %s", key, min, max, v);
		return -1;
	}
	*n_r = n;
	return 0;
}

/* reminders = 48,12 (hours left, highest first) or none. */
static int reminders_read(struct run *r, int line, const char *v)
{
	struct server_clock_config *c = &r->cfg.clock;
	const char *p = v;

	c->nreminders = 0;
	if (strcasecmp(v, "none") == 0)
		return 0;
	while (*p != '\0') {
		char word[16];
		size_t len = strcspn(p, ",");
		long h;

		if (c->nreminders == SERVER_REMINDERS_MAX) {
			run_fail(r, line, "config: reminders: at most %d",
				 SERVER_REMINDERS_MAX);
			return -1;
		}
		snprintf(word, sizeof(word), "%.*s", (int)len, p);
		if (number(r, line, "reminders", word, 1, CLOCK_MAX_HOURS,
			   &h) < 0)
			return -1;
		if (c->nreminders > 0 &&
		    h >= c->reminder_hours[c->nreminders - 1]) {
			run_fail(r, line, "config: reminders: highest first, "
				 "no two the same");
			return -1;
		}
		c->reminder_hours[c->nreminders++] = (int)h;
		p += len + (p[len] == ',');
	}
	return 0;
}

/* The keys of the clocks (cfg.clock).  1 if key is none of them, else 0
 * or -1 after run_fail(). */
static int config_clock(struct run *r, int line, const char *key,
			const char *value)
{
	struct server_clock_config *c = &r->cfg.clock;
	bool manual;
	long n;

	if (strcmp(key, "default_clock") == 0) {
		snprintf(r->default_clock, sizeof(r->default_clock), "%s",
			 value);
		c->default_clock = r->default_clock;
		return 0;
	}
	if (strcmp(key, "weekends_off") == 0)
		return one_of(r, line, key, value, "yes", "no",
			      &c->default_weekends_off);
	if (strcmp(key, "reminders") == 0)
		return reminders_read(r, line, value);
	if (strcmp(key, "auto_vacation") == 0)
		return one_of(r, line, key, value, "yes", "no",
			      &c->auto_vacation);
	if (strcmp(key, "timeout_claim") == 0) {
		if (one_of(r, line, key, value, "manual", "auto", &manual) < 0)
			return -1;
		c->manual_claim = manual;
		return 0;
	}
	if (strcmp(key, "outage_grace") == 0) {
		if (number(r, line, key, value, 0, CLOCK_MAX_HOURS, &n) < 0)
			return -1;
		c->outage_grace = n * CLOCK_HOUR;
		return 0;
	}
	if (strcmp(key, "vacation_start") == 0 ||
	    strcmp(key, "vacation_earn") == 0 ||
	    strcmp(key, "vacation_cap") == 0) {
		if (number(r, line, key, value, 0, 366, &n) < 0)
			return -1;
		if (strcmp(key, "vacation_start") == 0)
			c->vacation.start_days = (int)n;
		else if (strcmp(key, "vacation_earn") == 0)
			c->vacation.earn_per_year = (int)n;
		else
			c->vacation.cap_days = (int)n;
		return 0;
	}
	return 1;
}

/* A day as a case writes it, YYYY-MM-DD: its midnight UTC. */
static int day_read(struct run *r, int line, const char *key, const char *v,
		    int64_t *t_r)
{
	struct tm tm;
	int y, m, d;
	char extra;

	if (sscanf(v, "%d-%d-%d%c", &y, &m, &d, &extra) != 3 || m < 1 ||
	    m > 12 || d < 1 || d > 31) {
		run_fail(r, line, "config: %s is a day YYYY-MM-DD, not %s",
			 key, v);
		return -1;
	}
	memset(&tm, 0, sizeof(tm));
	tm.tm_year = y - 1900;
	tm.tm_mon = m - 1;
	tm.tm_mday = d;
	*t_r = (int64_t)timegm(&tm);
	return 0;
}

/* bot = on|off KEY=VALUE...: [bot] as the service gets it (see the
 * README for the keys). */
static int config_bot(struct run *r, int line, const char *value)
{
	struct server_bot_config *b = &r->cfg.bot;
	char copy[256], *save = NULL;

	snprintf(copy, sizeof(copy), "%s", value);
	b->levels = 0x3e; /* 1-5 */
	b->max_games = 10;
	b->rated = false;
	b->name = "Ashes bot";
	for (char *w = strtok_r(copy, " ", &save); w != NULL;
	     w = strtok_r(NULL, " ", &save)) {
		if (strcmp(w, "on") == 0 || strcmp(w, "off") == 0) {
			b->enabled = strcmp(w, "on") == 0;
		} else if (strncmp(w, "levels=", 7) == 0) {
			b->levels = 0;
			for (const char *c = w + 7; *c != '\0'; c++)
				if (*c >= '1' && *c <= '5')
					b->levels |= 1u << (*c - '0');
		} else if (strncmp(w, "max_games=", 10) == 0) {
			b->max_games = strtoul(w + 10, NULL, 10);
		} else if (strncmp(w, "rated=", 6) == 0) {
			b->rated = yes(w + 6);
		} else if (strncmp(w, "max_per_player=", 15) == 0) {
			b->max_games_per_player = strtoul(w + 15, NULL, 10);
		} else if (strncmp(w, "clock=", 6) == 0) {
			snprintf(r->bot_clock, sizeof(r->bot_clock), "%s", w + 6);
			b->clock = r->bot_clock;
		} else if (strncmp(w, "name=", 5) == 0) {
			snprintf(r->bot_name, sizeof(r->bot_name), "%s", w + 5);
			b->name = r->bot_name;
		} else {
			run_fail(r, line, "config: bot: unknown word %s", w);
			return -1;
		}
	}
	return 0;
}

/* league = NAME KEY=VALUE...: a [league NAME] as the service gets it
 * (struct server_league; see the README for the keys). */
static int config_league(struct run *r, int line, const char *value)
{
	size_t n = r->cfg.nleagues;
	struct server_league *l = &r->leagues[n];
	struct league_fault fault;
	char *save = NULL, *w;
	bool have_start = false;

	if (n == CASES_MAX_LEAGUES) {
		run_fail(r, line, "config: at most %d leagues",
			 CASES_MAX_LEAGUES);
		return -1;
	}
	memset(l, 0, sizeof(*l));
	r->league_text[n] = cases_strdup(value);
	league_rules_default(&l->rules);
	l->club.where = "case";
	l->club.variant = r->cfg.default_variant;
	l->club.rated = true;
	l->club.members = r->league_members[n];
	l->club.name = strtok_r(r->league_text[n], " \t", &save);
	if (l->club.name == NULL) {
		run_fail(r, line, "config: league = NAME KEY=VALUE...");
		return -1;
	}
	while ((w = strtok_r(NULL, " \t", &save)) != NULL) {
		char *v = strchr(w, '='), *msave = NULL, *m;
		enum core_error err;
		int64_t secs;
		long num;
		int ret = 0;

		if (v == NULL) {
			run_fail(r, line, "config: league: KEY=VALUE, not %s",
				 w);
			return -1;
		}
		*v++ = '\0';
		if (strcmp(w, "group_size") == 0 || strcmp(w, "promote") == 0 ||
		    strcmp(w, "relegate") == 0) {
			ret = number(r, line, w, v, 0, LEAGUE_MAX_GROUP, &num);
			*(strcmp(w, "group_size") == 0 ? &l->rules.group_size :
			  strcmp(w, "promote") == 0 ? &l->rules.promote :
			  &l->rules.relegate) = (int)num;
		} else if (strcmp(w, "start") == 0) {
			ret = day_read(r, line, w, v, &l->rules.season_start);
			have_start = true;
		} else if (strcmp(w, "length") == 0) {
			if (parse_offset(v, &secs) < 0 || secs <= 0) {
				run_fail(r, line, "config: league: length=%s",
					 v);
				return -1;
			}
			l->rules.season_length = secs;
		} else if (strcmp(w, "members") == 0) {
			for (m = strtok_r(v, ",", &msave); m != NULL;
			     m = strtok_r(NULL, ",", &msave)) {
				if (l->club.nmembers == CASES_MAX_MEMBERS) {
					run_fail(r, line, "config: league: at "
						 "most %d members",
						 CASES_MAX_MEMBERS);
					return -1;
				}
				r->league_members[n][l->club.nmembers++] = m;
			}
		} else if (strcmp(w, "size") == 0) {
			if (core_variant_set_option(&l->club.variant, "size", v,
						    &err) < 0) {
				run_fail(r, line, "config: league: size=%s", v);
				return -1;
			}
		} else if (strcmp(w, "clock") == 0) {
			l->club.clock = v;
		} else if (strcmp(w, "weekends") == 0) {
			ret = one_of(r, line, w, v, "off", "on",
				     &l->club.weekends_off);
		} else if (strcmp(w, "rated") == 0) {
			ret = one_of(r, line, w, v, "yes", "no",
				     &l->club.rated);
		} else if (strcmp(w, "open") == 0) {
			ret = one_of(r, line, w, v, "yes", "no", &l->club.open);
		} else {
			run_fail(r, line, "config: league: unknown key %s", w);
			return -1;
		}
		if (ret < 0)
			return -1;
	}
	if (!have_start) {
		run_fail(r, line, "config: league %s: start=YYYY-MM-DD is "
			 "required", l->club.name);
		return -1;
	}
	if (league_rules_check(&l->rules, &fault) < 0) {
		run_fail(r, line, "config: league %s: %s out of range",
			 l->club.name, fault.field != NULL ? fault.field :
			 league_error_name(fault.error));
		return -1;
	}
	r->cfg.leagues = r->leagues;
	r->cfg.nleagues = n + 1;
	return 0;
}

/* tournament = NAME KEY=VALUE...: a [tournament NAME] as the service
 * gets it (struct server_tournament; see the README for the keys). */
static int config_tournament(struct run *r, int line, const char *value)
{
	size_t n = r->cfg.ntournaments;
	struct server_tournament *t = &r->tournaments[n];
	enum tournament_format format = TOURNAMENT_SWISS;
	struct tournament_fault fault;
	char *save = NULL, *w, *text;
	bool have_start = false;
	long num;

	if (n == CASES_MAX_LEAGUES) {
		run_fail(r, line, "config: at most %d tournaments",
			 CASES_MAX_LEAGUES);
		return -1;
	}
	memset(t, 0, sizeof(*t));
	r->tournament_text[n] = cases_strdup(value);
	text = r->tournament_text[n];
	/* format= first, for the format's default rules */
	if (strstr(value, "format=roundrobin") != NULL)
		format = TOURNAMENT_ROUNDROBIN;
	else if (strstr(value, "format=knockout") != NULL)
		format = TOURNAMENT_KNOCKOUT;
	tournament_rules_default(format, &t->rules);
	t->club.where = "case";
	t->club.variant = r->cfg.default_variant;
	t->club.rated = true;
	t->club.members = r->tournament_members[n];
	t->max_players = TOURNAMENT_MAX_PLAYERS;
	t->standings_mail = true;
	t->club.name = strtok_r(text, " \t", &save);
	if (t->club.name == NULL) {
		run_fail(r, line, "config: tournament = NAME KEY=VALUE...");
		return -1;
	}
	while ((w = strtok_r(NULL, " \t", &save)) != NULL) {
		char *v = strchr(w, '='), *msave = NULL, *m;
		enum core_error err;
		int64_t secs;
		int ret = 0;

		if (v == NULL) {
			run_fail(r, line, "config: tournament: KEY=VALUE, "
				 "not %s", w);
			return -1;
		}
		*v++ = '\0';
		if (strcmp(w, "format") == 0) {
			continue; /* read above */
		} else if (strcmp(w, "rounds") == 0) {
			ret = number(r, line, w, v, 1, TOURNAMENT_MAX_ROUNDS,
				     &num);
			t->rules.rounds = (int)num;
		} else if (strcmp(w, "bye") == 0) {
			ret = number(r, line, w, v, 0, 2, &num);
			t->rules.bye_points = (int)num;
		} else if (strcmp(w, "max") == 0) {
			ret = number(r, line, w, v, 2, TOURNAMENT_MAX_PLAYERS,
				     &num);
			t->max_players = (size_t)num;
		} else if (strcmp(w, "start") == 0) {
			ret = day_read(r, line, w, v, &t->start);
			have_start = true;
		} else if (strcmp(w, "signup") == 0) {
			ret = day_read(r, line, w, v, &t->signup_until);
		} else if (strcmp(w, "deadline") == 0) {
			if (parse_offset(v, &secs) < 0 || secs <= 0) {
				run_fail(r, line, "config: tournament: "
					 "deadline=%s", v);
				return -1;
			}
			t->round_deadline = secs;
		} else if (strcmp(w, "tiebreaks") == 0) {
			t->rules.ntiebreaks = 0;
			for (m = strtok_r(v, ",", &msave); m != NULL;
			     m = strtok_r(NULL, ",", &msave)) {
				if (t->rules.ntiebreaks ==
					    TOURNAMENT_MAX_TIEBREAKS ||
				    tournament_tiebreak_parse(m,
					&t->rules.tiebreaks[
						t->rules.ntiebreaks]) < 0) {
					run_fail(r, line, "config: tournament: "
						 "tiebreaks: %s", m);
					return -1;
				}
				t->rules.ntiebreaks++;
			}
		} else if (strcmp(w, "members") == 0) {
			for (m = strtok_r(v, ",", &msave); m != NULL;
			     m = strtok_r(NULL, ",", &msave)) {
				if (t->club.nmembers == CASES_MAX_MEMBERS) {
					run_fail(r, line, "config: tournament: "
						 "at most %d members",
						 CASES_MAX_MEMBERS);
					return -1;
				}
				r->tournament_members[n][t->club.nmembers++] =
					m;
			}
		} else if (strcmp(w, "size") == 0) {
			if (core_variant_set_option(&t->club.variant, "size", v,
						    &err) < 0) {
				run_fail(r, line, "config: tournament: size=%s",
					 v);
				return -1;
			}
		} else if (strcmp(w, "clock") == 0) {
			t->club.clock = v;
		} else if (strcmp(w, "double") == 0) {
			ret = one_of(r, line, w, v, "yes", "no",
				     &t->rules.twice);
		} else if (strcmp(w, "rated") == 0) {
			ret = one_of(r, line, w, v, "yes", "no",
				     &t->club.rated);
		} else if (strcmp(w, "open") == 0) {
			ret = one_of(r, line, w, v, "yes", "no", &t->club.open);
		} else {
			run_fail(r, line, "config: tournament: unknown key %s",
				 w);
			return -1;
		}
		if (ret < 0)
			return -1;
	}
	if (!have_start) {
		run_fail(r, line, "config: tournament %s: start=YYYY-MM-DD is "
			 "required", t->club.name);
		return -1;
	}
	if (t->signup_until == 0 || t->signup_until > t->start)
		t->signup_until = t->start;
	if (tournament_rules_check(&t->rules, &fault) < 0) {
		run_fail(r, line, "config: tournament %s: %s out of range",
			 t->club.name, fault.field != NULL ? fault.field :
			 tournament_error_name(fault.error));
		return -1;
	}
	r->cfg.tournaments = r->tournaments;
	r->cfg.ntournaments = n + 1;
	return 0;
}

int config_read(struct run *r, const struct cases_section *s)
{
	const char *p = s->content;
	int line = s->line;
	bool leagues_read = false, tournaments_read = false;
	char text[512];

	while (cases_next_line(&p, &line, text, sizeof(text))) {
		char key[64], value[256];

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
		else if (strcmp(key, "mails_per_hour") == 0)
			r->cfg.limits.mails_per_hour =
				(unsigned)strtoul(value, NULL, 10);
		else if (strcmp(key, "bytes_per_hour") == 0)
			r->cfg.limits.bytes_per_hour =
				strtoull(value, NULL, 10);
		else if (strcmp(key, "hints_per_hour") == 0)
			r->cfg.limits.hints_per_hour =
				(unsigned)strtoul(value, NULL, 10);
		else if (strcmp(key, "challenges_per_day") == 0)
			r->cfg.limits.challenges_per_day =
				(unsigned)strtoul(value, NULL, 10);
		else if (strcmp(key, "open_challenges") == 0)
			r->cfg.limits.open_challenges =
				(unsigned)strtoul(value, NULL, 10);
		else if (strcmp(key, "draw_default") == 0)
			r->cfg.default_variant.draw_offers = yes(value);
		else if (strcmp(key, "require_signature") == 0)
			r->cfg.require_signature = yes(value);
		else if (strcmp(key, "our_address") == 0) {
			snprintf(r->our_address, sizeof(r->our_address), "%s",
				 value);
			r->cfg.our_address = r->our_address;
		} else if (strcmp(key, "bot") == 0) {
			if (config_bot(r, line, value) < 0)
				return -1;
		} else if (strcmp(key, "league") == 0) {
			/* A section's leagues replace those of the one before
			 * (a reload). */
			if (!leagues_read) {
				for (size_t i = 0; i < CASES_MAX_LEAGUES; i++) {
					free(r->league_text[i]);
					r->league_text[i] = NULL;
				}
				r->cfg.nleagues = 0;
				leagues_read = true;
			}
			if (config_league(r, line, value) < 0)
				return -1;
		} else if (strcmp(key, "tournament") == 0) {
			if (!tournaments_read) {
				for (size_t i = 0; i < CASES_MAX_LEAGUES; i++) {
					free(r->tournament_text[i]);
					r->tournament_text[i] = NULL;
				}
				r->cfg.ntournaments = 0;
				tournaments_read = true;
			}
			if (config_tournament(r, line, value) < 0)
				return -1;
		} else {
			int c = config_clock(r, line, key, value);
			if (c < 0)
				return -1;
			if (c > 0) {
				run_fail(r, line, "config: unknown key %s",
					 key);
				return -1;
			}
		}
	}
	return 0;
}

int capture_read(struct run *r, const struct cases_section *s)
{
	const char *p = s->content;
	int line = s->line;
	char text[512];

	while (cases_next_line(&p, &line, text, sizeof(text))) {
		char name[32];
		int at = 0;

		if (sscanf(text, "%31s %n", name, &at) != 1 || text[at] == '\0') {
			run_fail(r, line, "capture: NAME REGEX");
			return -1;
		}
		if (rule_add(r, name, text + at, line) < 0)
			return -1;
	}
	return 0;
}
