/* template_lang.c -- the languages of a template set.  English is the
 * top-level files of the folders; another language L is the sub-folder
 * L/ of the override or the default folder, holding as many of the files
 * as are translated (the rest fall back to English, file by file:
 * template.c's lookup).  The English set holds one set per language
 * found, made with it and freed with it, so a daemon that lends its set
 * to its threads lends every language with it.
 */
#include "render/template_private.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "util/xalloc.h"
#include "util/xstr.h"

/* A language's folder is named by a primary language subtag (RFC 5646:
 * two or three letters, written in lower case), never "en". */
bool template_lang_name_ok(const char *name)
{
	size_t n = 0;

	if (name == NULL)
		return false;
	for (; name[n] != '\0'; n++)
		if (n >= 3 || name[n] < 'a' || name[n] > 'z')
			return false;
	return n >= 2;
}

static int template_lang_cmp(const void *a, const void *b)
{
	const struct template_set *const *x = a, *const *y = b;

	return strcmp((*x)->lang, (*y)->lang);
}

static bool template_lang_known(const struct template_set *set,
				const char *lang)
{
	for (size_t i = 0; i < set->nlangs; i++)
		if (strcmp(set->langs[i]->lang, lang) == 0)
			return true;
	return false;
}

/* Add a set for each language sub-folder of dir not known yet. */
static void template_langs_in(struct template_set *set, const char *dir)
{
	DIR *d;
	struct dirent *de;

	if (dir == NULL || (d = opendir(dir)) == NULL)
		return;
	while ((de = readdir(d)) != NULL &&
	       set->nlangs < TEMPLATE_LANGUAGES_MAX - 1) {
		struct template_set *ls;
		struct stat st;
		struct buf path = BUF_INIT;
		bool dir_ok;

		if (!template_lang_name_ok(de->d_name) ||
		    strcmp(de->d_name, "en") == 0 ||
		    template_lang_known(set, de->d_name))
			continue;
		buf_printf(&path, "%s/%s", dir, de->d_name);
		dir_ok = stat(buf_str(&path), &st) == 0 && S_ISDIR(st.st_mode);
		buf_free(&path);
		if (!dir_ok)
			continue;
		ls = xzalloc(sizeof(*ls));
		pthread_mutex_init(&ls->lock, NULL);
		ls->override_dir = set->override_dir != NULL ?
			xstrdup(set->override_dir) : NULL;
		ls->default_dir = xstrdup(set->default_dir);
		ls->lang = xstrdup(de->d_name);
		set->langs = xrealloc(set->langs, (set->nlangs + 1) *
				      sizeof(*set->langs));
		set->langs[set->nlangs++] = ls;
	}
	closedir(d);
}

void template_langs_scan(struct template_set *set)
{
	template_langs_in(set, set->override_dir);
	template_langs_in(set, set->default_dir);
	if (set->nlangs > 1)
		qsort(set->langs, set->nlangs, sizeof(*set->langs),
		      template_lang_cmp);
}

void template_langs_free(struct template_set *set)
{
	for (size_t i = 0; i < set->nlangs; i++)
		template_set_free(&set->langs[i]);
	free(set->langs);
	set->langs = NULL;
	set->nlangs = 0;
}

struct template_set *template_set_language(struct template_set *set,
					   const char *lang)
{
	if (set == NULL || lang == NULL || lang[0] == '\0' ||
	    strcasecmp(lang, "en") == 0)
		return set;
	for (size_t i = 0; i < set->nlangs; i++)
		if (strcasecmp(set->langs[i]->lang, lang) == 0)
			return set->langs[i];
	return NULL;
}

const char *template_set_lang(const struct template_set *set)
{
	return set->lang != NULL ? set->lang : "en";
}

size_t template_set_languages(const struct template_set *set,
			      const char **langs, size_t max)
{
	size_t n = 0;

	if (max > 0)
		langs[n++] = "en";
	for (size_t i = 0; i < set->nlangs && n < max; i++)
		langs[n++] = set->langs[i]->lang;
	return n;
}

/* ---- Content-Language (RFC 3282) ---- */

/* A header is read this far, and this many tags of it. */
#define TEMPLATE_LANG_HEADER_MAX 256
#define TEMPLATE_LANG_TAGS_MAX 8
/* RFC 5646's longest well-formed tags are well under this. */
#define TEMPLATE_LANG_TAG_MAX 35

const char *template_set_pick_language(const struct template_set *set,
				       const char *header)
{
	const char *p = header, *end;
	size_t tags = 0;

	if (set == NULL || header == NULL)
		return NULL;
	end = header + strnlen(header, TEMPLATE_LANG_HEADER_MAX);
	while (p < end && tags < TEMPLATE_LANG_TAGS_MAX) {
		const char *tag, *q;
		char primary[4];
		size_t n = 0, len;
		bool ok = true;

		while (p < end && (*p == ' ' || *p == '\t' || *p == ',' ||
				   *p == '\r' || *p == '\n'))
			p++;
		if (p == end)
			break;
		tag = p;
		while (p < end && *p != ',' && *p != ' ' && *p != '\t')
			p++;
		len = (size_t)(p - tag);
		tags++;
		if (len > TEMPLATE_LANG_TAG_MAX)
			continue;
		/* The primary subtag: letters up to the first '-'. */
		for (q = tag; q < p && *q != '-'; q++) {
			char c = (char)tolower((unsigned char)*q);

			if (n >= 3 || c < 'a' || c > 'z') {
				ok = false;
				break;
			}
			primary[n++] = c;
		}
		/* What follows must look like subtags (letters, digits). */
		for (; ok && q < p; q++)
			if (!isalnum((unsigned char)*q) && *q != '-')
				ok = false;
		if (!ok || n < 2)
			continue;
		primary[n] = '\0';
		if (strcmp(primary, "en") == 0)
			return "en";
		for (size_t i = 0; i < set->nlangs; i++)
			if (strcmp(set->langs[i]->lang, primary) == 0)
				return set->langs[i]->lang;
	}
	return NULL;
}
