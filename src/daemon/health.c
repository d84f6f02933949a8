/* health.c -- the daemon's health: facts and thresholds to a state and
 * its lines, as text and as JSON; see health.h. */
#include <config.h>

#include "daemon/health.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "config/club_config.h"
#include "util/buf.h"

const char *health_state_name(enum health_state s)
{
	switch (s) {
	case HEALTH_OK:
		return "OK";
	case HEALTH_WARNING:
		return "WARNING";
	case HEALTH_CRITICAL:
		return "CRITICAL";
	default:
		return "UNKNOWN";
	}
}

/* How bad a state is: CRITICAL above UNKNOWN above WARNING. */
static int health_rank(enum health_state s)
{
	static const int rank[] = { 0, 1, 3, 2 };

	return rank[s];
}

static int64_t ms_to_s(uint64_t ms)
{
	return (int64_t)((ms + 999) / 1000);
}

void health_thresholds_from(const struct config_status *st,
			    struct health_thresholds *t)
{
	t->heartbeat[0] = ms_to_s(st->heartbeat_warning_ms);
	t->heartbeat[1] = ms_to_s(st->heartbeat_critical_ms);
	t->mailbox[0] = ms_to_s(st->mailbox_warning_ms);
	t->mailbox[1] = ms_to_s(st->mailbox_critical_ms);
	t->unsent[0] = ms_to_s(st->unsent_warning_ms);
	t->unsent[1] = ms_to_s(st->unsent_critical_ms);
	t->failed[0] = st->failed_warning;
	t->failed[1] = st->failed_critical;
	t->quarantined[0] = st->quarantined_warning;
	t->quarantined[1] = st->quarantined_critical;
	t->disk_free[0] = (int64_t)st->disk_free_warning;
	t->disk_free[1] = (int64_t)st->disk_free_critical;
	t->window = ms_to_s(st->window_ms);
}

/* "4m2s", "0s": an age in seconds. */
static void health_age(int64_t s, struct buf *out)
{
	if (s <= 0) {
		buf_puts(out, "0s");
		return;
	}
	config_format_duration((uint64_t)s * 1000, out);
}

/* "812 B", "1.2 MiB". */
static void health_size(int64_t bytes, struct buf *out)
{
	static const char *const units[] = { "KiB", "MiB", "GiB", "TiB",
					     "PiB" };
	double v = (double)bytes;
	int u = -1;

	if (bytes < 1024) {
		buf_printf(out, "%" PRId64 " B", bytes < 0 ? 0 : bytes);
		return;
	}
	while (v >= 1024 && u < 4) {
		v /= 1024;
		u++;
	}
	buf_printf(out, "%.1f %s", v, units[u]);
}

static int64_t health_since(int64_t now, int64_t at)
{
	return at > 0 && now > at ? now - at : 0;
}

/* The state of a value against a ceiling (ages, counts) or, with floor,
 * a floor (free disk); 0 thresholds are not checked.  *at_r: the
 * threshold crossed, for the text. */
static enum health_state health_level(int64_t v, const int64_t t[2],
				      bool floor, int64_t *at_r)
{
	for (int i = 1; i >= 0; i--) {
		if (t[i] != 0 && (floor ? v < t[i] : v >= t[i])) {
			*at_r = t[i];
			return i == 1 ? HEALTH_CRITICAL : HEALTH_WARNING;
		}
	}
	*at_r = 0;
	return HEALTH_OK;
}

/* A check named name with its text in b, cut to fit. */
static void health_add(struct health_report *r, const char *name,
		       enum health_state state, struct buf *b)
{
	struct health_check *c;

	if (r->n == HEALTH_CHECKS)
		return;
	c = &r->checks[r->n++];
	c->name = name;
	c->state = state;
	snprintf(c->text, sizeof(c->text), "%s", buf_str(b));
	buf_reset(b);
	if (health_rank(state) > health_rank(r->state))
		r->state = state;
}

/* " (warning at 3m)" after a value that crossed a threshold. */
static void health_crossed(enum health_state s, int64_t at, bool size,
			   struct buf *b)
{
	if (s == HEALTH_OK)
		return;
	buf_printf(b, " (%s %s ", s == HEALTH_CRITICAL ? "critical" :
		   "warning", size ? "below" : "at");
	if (size)
		health_size(at, b);
	else
		health_age(at, b);
	buf_puts(b, ")");
}

/* The same for a count. */
static void health_crossed_count(enum health_state s, int64_t at,
				 struct buf *b)
{
	if (s != HEALTH_OK)
		buf_printf(b, " (%s at %" PRId64 ")",
			   s == HEALTH_CRITICAL ? "critical" : "warning", at);
}

static void health_daemon_checks(const struct health_facts *f,
				 const struct health_thresholds *t,
				 struct health_report *r, struct buf *b)
{
	enum health_state s = HEALTH_OK;
	int64_t age, at;

	if (!f->recorded) {
		buf_puts(b, "no daemon has recorded its health in this "
			 "database yet");
		health_add(r, "daemon", HEALTH_UNKNOWN, b);
		return;
	}
	switch (f->process) {
	case HEALTH_PROCESS_RUNNING:
		buf_printf(b, "running as pid %" PRId64 ", up ", f->pid);
		health_age(health_since(f->now, f->started), b);
		break;
	case HEALTH_PROCESS_STOPPED:
		buf_printf(b, "pid %" PRId64 " is stopped (state %c), not "
			   "running normally", f->pid,
			   f->process_state ? f->process_state : 'T');
		s = HEALTH_CRITICAL;
		break;
	case HEALTH_PROCESS_GONE:
		buf_printf(b, "not running (pid %" PRId64 " is gone)", f->pid);
		s = HEALTH_CRITICAL;
		break;
	case HEALTH_PROCESS_EXITED:
		buf_puts(b, "not running (stopped cleanly ");
		health_age(health_since(f->now, f->heartbeat), b);
		buf_puts(b, " ago)");
		s = HEALTH_CRITICAL;
		break;
	}
	health_add(r, "process", s, b);

	age = health_since(f->now, f->heartbeat);
	s = health_level(age, t->heartbeat, false, &at);
	buf_puts(b, "heartbeat ");
	health_age(age, b);
	buf_puts(b, " old");
	health_crossed(s, at, false, b);
	health_add(r, "heartbeat", s, b);

	/* Never reached since the start: the time since the start counts. */
	age = health_since(f->now, f->mailbox_contact ? f->mailbox_contact :
			   f->started);
	s = health_level(age, t->mailbox, false, &at);
	if (f->mailbox_contact) {
		buf_puts(b, "mailbox reached ");
		health_age(age, b);
		buf_puts(b, " ago");
	} else {
		buf_puts(b, "mailbox not reached since the start ");
		health_age(age, b);
		buf_puts(b, " ago");
	}
	health_crossed(s, at, false, b);
	if (f->mailbox_waiting >= 0)
		buf_printf(b, ", %" PRId64 " mail%s waiting", f->mailbox_waiting,
			   f->mailbox_waiting == 1 ? "" : "s");
	health_add(r, "mailbox", s, b);
}

void health_evaluate(const struct health_facts *f,
		     const struct health_thresholds *t,
		     struct health_report *r)
{
	struct buf b = BUF_INIT;
	enum health_state s;
	int64_t age, at;
	bool first = true;

	memset(r, 0, sizeof(*r));
	if (f->unknown != NULL) {
		buf_puts(&b, f->unknown);
		health_add(r, "database", HEALTH_UNKNOWN, &b);
		goto summary;
	}
	health_daemon_checks(f, t, r, &b);

	age = f->oldest_unsent ? health_since(f->now, f->oldest_unsent) : 0;
	s = f->unsent > 0 ? health_level(age, t->unsent, false, &at) : HEALTH_OK;
	if (f->unsent == 0) {
		buf_puts(&b, "no reply unsent");
	} else {
		buf_printf(&b, "%" PRId64 " repl%s unsent, the oldest ",
			   f->unsent, f->unsent == 1 ? "y" : "ies");
		health_age(age, &b);
		buf_puts(&b, " old");
		health_crossed(s, at, false, &b);
	}
	health_add(r, "outbox", s, &b);

	s = health_level(f->failed, t->failed, false, &at);
	buf_printf(&b, "%" PRId64 " repl%s failed in the last ", f->failed,
		   f->failed == 1 ? "y" : "ies");
	health_age(t->window, &b);
	health_crossed_count(s, at, &b);
	health_add(r, "failed", s, &b);

	s = health_level(f->quarantined, t->quarantined, false, &at);
	buf_printf(&b, "%" PRId64 " mail%s quarantined in the last ",
		   f->quarantined, f->quarantined == 1 ? "" : "s");
	health_age(t->window, &b);
	health_crossed_count(s, at, &b);
	health_add(r, "quarantine", s, &b);

	buf_puts(&b, "database ");
	health_size(f->db_bytes, &b);
	if (f->disk_free < 0) {
		buf_puts(&b, ", free disk unknown");
		s = HEALTH_UNKNOWN;
	} else {
		s = health_level(f->disk_free, t->disk_free, true, &at);
		buf_puts(&b, ", ");
		health_size(f->disk_free, &b);
		buf_puts(&b, " free");
		health_crossed(s, at, true, &b);
	}
	health_add(r, "disk", s, &b);
summary:
	/* The checks that are not OK, worst first; all is well: the
	 * process and the heartbeat. */
	buf_printf(&b, "ASHESD %s - ", health_state_name(r->state));
	for (int rank = 3; rank >= 1; rank--) {
		for (size_t i = 0; i < r->n; i++) {
			if (health_rank(r->checks[i].state) != rank)
				continue;
			buf_printf(&b, "%s%s", first ? "" : ", ",
				   r->checks[i].text);
			first = false;
		}
	}
	for (size_t i = 0; first && i < r->n && i < 2; i++)
		buf_printf(&b, "%s%s", i ? ", " : "", r->checks[i].text);
	snprintf(r->summary, sizeof(r->summary), "%s", buf_str(&b));
	buf_free(&b);
}

/* One perfdata item: label=VALUEunit;warn;crit (0 thresholds empty; a
 * floor as "N:", alert below N). */
static void health_perf(struct buf *out, const char *label, int64_t v,
			const char *unit, const int64_t t[2], bool floor)
{
	buf_printf(out, " %s=%" PRId64 "%s", label, v, unit);
	if (t == NULL)
		return;
	for (int i = 0; i < 2; i++) {
		buf_puts(out, ";");
		if (t[i] != 0)
			buf_printf(out, "%" PRId64 "%s", t[i], floor ? ":" : "");
	}
}

void health_text(const struct health_facts *f,
		 const struct health_thresholds *t,
		 const struct health_report *r, struct buf *out)
{
	buf_puts(out, r->summary);
	if (f->unknown == NULL) {
		buf_puts(out, " |");
		if (f->recorded) {
			health_perf(out, "heartbeat",
				    health_since(f->now, f->heartbeat), "s",
				    t->heartbeat, false);
			health_perf(out, "waiting", f->mailbox_waiting < 0 ? 0 :
				    f->mailbox_waiting, "", NULL, false);
		}
		health_perf(out, "unsent", f->unsent, "", NULL, false);
		health_perf(out, "oldest_unsent", f->oldest_unsent ?
			    health_since(f->now, f->oldest_unsent) : 0, "s",
			    t->unsent, false);
		health_perf(out, "failed", f->failed, "", t->failed, false);
		health_perf(out, "quarantined", f->quarantined, "",
			    t->quarantined, false);
		health_perf(out, "db_size", f->db_bytes, "B", NULL, false);
		if (f->disk_free >= 0)
			health_perf(out, "disk_free", f->disk_free, "B",
				    t->disk_free, true);
	}
	buf_puts(out, "\n");
	for (size_t i = 0; i < r->n; i++)
		buf_printf(out, "%-10s %-8s %s\n", r->checks[i].name,
			   health_state_name(r->checks[i].state),
			   r->checks[i].text);
}

/* A JSON string: quotes, backslashes and control bytes escaped (the
 * path is the operator's; the rest is ours).  Written here rather than
 * with a JSON library: one flat object, output only. */
static void json_str(struct buf *out, const char *s)
{
	buf_puts(out, "\"");
	for (; s != NULL && *s != '\0'; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			buf_printf(out, "\\%c", c);
		else if (c < 0x20 || c == 0x7f)
			buf_printf(out, "\\u%04x", c);
		else
			buf_append(out, s, 1);
	}
	buf_puts(out, "\"");
}

/* A number, or null when `have` is false. */
static void json_num(struct buf *out, const char *key, int64_t v, bool have)
{
	buf_printf(out, "\"%s\":", key);
	if (have)
		buf_printf(out, "%" PRId64, v);
	else
		buf_puts(out, "null");
}

static void json_pair(struct buf *out, const char *key, const int64_t t[2])
{
	buf_printf(out, "\"%s\":[%" PRId64 ",%" PRId64 "]", key, t[0], t[1]);
}

void health_json(const struct health_facts *f,
		 const struct health_thresholds *t,
		 const struct health_report *r, struct buf *out)
{
	static const char *const process_names[] = { "running", "stopped",
						     "gone", "exited" };
	bool known = f->unknown == NULL, rec = known && f->recorded;
	char letter[2] = { f->process_state, '\0' };

	buf_printf(out, "{\"version\":%d,\"state\":", HEALTH_JSON_VERSION);
	json_str(out, health_state_name(r->state));
	buf_printf(out, ",\"exit\":%d,\"summary\":", (int)r->state);
	json_str(out, r->summary);
	buf_puts(out, ",\"unknown\":");
	if (known)
		buf_puts(out, "null");
	else
		json_str(out, f->unknown);
	buf_printf(out, ",\"now\":%" PRId64 ",\"database\":{\"path\":", f->now);
	json_str(out, f->db_path);
	buf_puts(out, ",");
	json_num(out, "bytes", f->db_bytes, known);
	buf_puts(out, ",");
	json_num(out, "disk_free", f->disk_free, known && f->disk_free >= 0);
	buf_printf(out, "},\"daemon\":{\"recorded\":%s,", rec ? "true" : "false");
	json_num(out, "pid", f->pid, rec);
	buf_puts(out, ",\"process\":");
	if (rec)
		json_str(out, process_names[f->process]);
	else
		buf_puts(out, "null");
	buf_puts(out, ",\"process_state\":");
	if (rec && f->process_state)
		json_str(out, letter);
	else
		buf_puts(out, "null");
	buf_puts(out, ",");
	json_num(out, "started", f->started, rec);
	buf_puts(out, ",");
	json_num(out, "heartbeat", f->heartbeat, rec);
	buf_puts(out, ",");
	json_num(out, "heartbeat_age", health_since(f->now, f->heartbeat), rec);
	buf_puts(out, "},\"mailbox\":{");
	json_num(out, "contact", f->mailbox_contact, rec && f->mailbox_contact);
	buf_puts(out, ",");
	json_num(out, "contact_age", health_since(f->now, f->mailbox_contact),
		 rec && f->mailbox_contact);
	buf_puts(out, ",");
	json_num(out, "waiting", f->mailbox_waiting, rec && f->mailbox_waiting >= 0);
	buf_puts(out, "},\"outbox\":{");
	json_num(out, "unsent", f->unsent, known);
	buf_puts(out, ",");
	json_num(out, "oldest_unsent_age", health_since(f->now, f->oldest_unsent),
		 known && f->oldest_unsent);
	buf_puts(out, ",");
	json_num(out, "failed", f->failed, known);
	buf_puts(out, "},");
	json_num(out, "quarantined", f->quarantined, known);
	buf_printf(out, ",\"window\":%" PRId64 ",\"thresholds\":{", t->window);
	{
		const struct { const char *key; const int64_t *t; } pairs[] = {
			{ "heartbeat", t->heartbeat }, { "mailbox", t->mailbox },
			{ "unsent", t->unsent }, { "failed", t->failed },
			{ "quarantined", t->quarantined },
			{ "disk_free", t->disk_free },
		};

		for (size_t i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++) {
			buf_puts(out, i ? "," : "");
			json_pair(out, pairs[i].key, pairs[i].t);
		}
	}
	buf_puts(out, "},\"checks\":[");
	for (size_t i = 0; i < r->n; i++) {
		buf_puts(out, i ? ",{\"name\":" : "{\"name\":");
		json_str(out, r->checks[i].name);
		buf_puts(out, ",\"state\":");
		json_str(out, health_state_name(r->checks[i].state));
		buf_puts(out, ",\"text\":");
		json_str(out, r->checks[i].text);
		buf_puts(out, "}");
	}
	buf_puts(out, "]}\n");
}
