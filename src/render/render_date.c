/* render_date.c -- a date and time in words, in a template set's
 * language.  The month and weekday names and the order a date is written
 * in come from the template calendar.txt (so from its translation, file
 * by file as every template), never from the C library's locale, which
 * may not be installed and is one for the whole process.
 *
 * calendar.txt holds lines NAME = TEXT (blanks around "=" are dropped;
 * other lines, and comments, are ignored): month_1 .. month_12 (January
 * .. December), weekday_1 .. weekday_7 (Monday .. Sunday), and date, a
 * line of the template language with the variables weekday, day, month,
 * month_number, year, time (HH:MM) and zone ("CET").  It is rendered
 * twice: once for the names, then with them for the date line.  Its
 * span line words a span of time (render_span()), as a clock's time left
 * is told to a player. */
#include "render/render.h"

#include <stdio.h>
#include <string.h>

#define RENDER_CALENDAR "calendar.txt"

int render_date(struct template_set *set, const struct render_date *d,
		struct buf *out, const char **error_r)
{
	static _Thread_local char error[160];
	struct template_ctx *ctx = NULL;
	struct buf names = BUF_INIT, rendered = BUF_INIT, v = BUF_INIT;
	char key[32];
	int ret = -1;

	if (d->month < 1 || d->month > 12 || d->weekday < 1 ||
	    d->weekday > 7) {
		snprintf(error, sizeof(error), "no such date: month %d, "
			 "weekday %d", d->month, d->weekday);
		*error_r = error;
		return -1;
	}
	if (template_render(set, RENDER_CALENDAR, NULL, &names, error_r) < 0)
		goto out;
	ctx = template_ctx_new();
	snprintf(key, sizeof(key), "month_%d", d->month);
	if (template_keyed_value(buf_str(&names), key, &v) < 0)
		goto missing;
	template_ctx_set(ctx, "month", buf_str(&v));
	buf_reset(&v);
	snprintf(key, sizeof(key), "weekday_%d", d->weekday);
	if (template_keyed_value(buf_str(&names), key, &v) < 0)
		goto missing;
	template_ctx_set(ctx, "weekday", buf_str(&v));
	template_ctx_set_int(ctx, "day", d->day);
	template_ctx_set_int(ctx, "month_number", d->month);
	template_ctx_set_int(ctx, "year", d->year);
	template_ctx_setf(ctx, "time", "%02d:%02d", d->hour, d->minute);
	template_ctx_set(ctx, "zone", d->zone != NULL ? d->zone : "");
	if (template_render(set, RENDER_CALENDAR, ctx, &rendered, error_r) < 0)
		goto out;
	snprintf(key, sizeof(key), "date");
	if (template_keyed_value(buf_str(&rendered), key, out) < 0)
		goto missing;
	ret = 0;
	goto out;
missing:
	snprintf(error, sizeof(error), "%s (%s): no line '%s = ...'",
		 RENDER_CALENDAR, template_set_lang(set), key);
	*error_r = error;
out:
	template_ctx_free(&ctx);
	buf_free(&names);
	buf_free(&rendered);
	buf_free(&v);
	return ret;
}

int render_span(struct template_set *set, int64_t seconds, struct buf *out,
		const char **error_r)
{
	static _Thread_local char error[160];
	struct template_ctx *ctx = template_ctx_new();
	struct buf rendered = BUF_INIT;
	int64_t d, h, m;
	int ret = -1;

	if (seconds < 0)
		seconds = 0;
	d = seconds / 86400;
	h = seconds % 86400 / 3600;
	m = seconds % 3600 / 60;
	template_ctx_setf(ctx, "days", "%lld", (long long)d);
	template_ctx_setf(ctx, "hours", "%lld", (long long)h);
	template_ctx_setf(ctx, "minutes", "%lld", (long long)m);
	template_ctx_set_bool(ctx, "days_one", d == 1);
	template_ctx_set_bool(ctx, "hours_one", h == 1);
	template_ctx_set_bool(ctx, "minutes_one", m == 1);
	template_ctx_set_bool(ctx, "with_days", d > 0);
	template_ctx_set_bool(ctx, "with_hours", d == 0 && h > 0);
	template_ctx_set_bool(ctx, "minutes_only", d == 0 && h == 0);
	if (template_render(set, RENDER_CALENDAR, ctx, &rendered, error_r) < 0)
		goto out;
	if (template_keyed_value(buf_str(&rendered), "span", out) < 0) {
		snprintf(error, sizeof(error), "%s (%s): no line 'span = ...'",
			 RENDER_CALENDAR, template_set_lang(set));
		*error_r = error;
		goto out;
	}
	ret = 0;
out:
	template_ctx_free(&ctx);
	buf_free(&rendered);
	return ret;
}
