/* template_words.c -- code words said in the reader's language.  The C
 * code fills some variables with the rules' and the store's code words
 * ("white", "double pass", "finished"); a template that writes
 * {{NAME_word}} where NAME is such a variable gets the word for its value
 * from the set's words.txt (so from its translation, file by file, as
 * every template), and a template that writes {{NAME}} still gets the
 * code word, so the English texts and the tests that read them stay as
 * they were.
 *
 * words.txt, like calendar.txt, holds lines KEY = TEXT (blanks around
 * "=" dropped; other lines and comments ignored).  A value's key is the
 * value with every character other than a letter or digit made "_"
 * ("double pass" -> double_pass).  A value the file has no line for
 * reads as itself, so a new code word shows in English rather than as
 * nothing until its translation comes.
 */
#include "render/template_private.h"

#include <string.h>

#define TEMPLATE_WORDS "words.txt"
#define TEMPLATE_WORD_KEY_MAX 64

int template_keyed_value(const char *text, const char *key, struct buf *out)
{
	size_t klen = strlen(key);
	const char *line = text;

	while (*line != '\0') {
		const char *end = strchr(line, '\n'), *p = line, *v, *ve;

		if (end == NULL)
			end = line + strlen(line);
		while (p < end && (*p == ' ' || *p == '\t'))
			p++;
		if ((size_t)(end - p) > klen && strncmp(p, key, klen) == 0) {
			v = p + klen;
			while (v < end && (*v == ' ' || *v == '\t'))
				v++;
			if (v < end && *v == '=') {
				v++;
				while (v < end && (*v == ' ' || *v == '\t'))
					v++;
				ve = end;
				while (ve > v && (ve[-1] == ' ' || ve[-1] == '\t' ||
						  ve[-1] == '\r'))
					ve--;
				buf_append(out, v, (size_t)(ve - v));
				return 0;
			}
		}
		line = *end != '\0' ? end + 1 : end;
	}
	return -1;
}

bool template_word_name(const char *name, size_t len, size_t *base_len_r)
{
	static const char suffix[] = "_word";
	size_t n = sizeof(suffix) - 1;

	if (len <= n || memcmp(name + len - n, suffix, n) != 0)
		return false;
	*base_len_r = len - n;
	return true;
}

int template_word(struct template_set *set, const char *value,
		  struct buf *out, const char **error_r)
{
	char key[TEMPLATE_WORD_KEY_MAX];
	struct template_file *tf;
	struct template_tree tree;
	struct buf words = BUF_INIT;
	size_t i;
	int rc;

	for (i = 0; value[i] != '\0' && i + 1 < sizeof(key); i++)
		key[i] = isalnum((unsigned char)value[i]) ? value[i] : '_';
	key[i] = '\0';
	if (value[i] != '\0' || i == 0) {
		/* Too long (or empty) to be a code word: as it is. */
		buf_puts(out, value);
		return 0;
	}
	tf = template_load(set, TEMPLATE_WORDS, error_r);
	if (tf == NULL)
		return -1;
	tree = tf->tree;
	rc = template_render_tree(set, tf->path, &tree, NULL, &words, error_r);
	if (rc == 0 && template_keyed_value(buf_str(&words), key, out) < 0)
		buf_puts(out, value);
	buf_free(&words);
	return rc;
}
