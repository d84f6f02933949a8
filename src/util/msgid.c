/* msgid.c -- Message-IDs without their angle brackets; see msgid.h. */
#include "util/msgid.h"

#include <string.h>

const char *msgid_bare(const char *id, char *buf, size_t len)
{
	size_t n;

	if (id == NULL)
		return NULL;
	if (*id == '<')
		id++;
	n = strlen(id);
	if (n > 0 && id[n - 1] == '>')
		n--;
	if (n >= len)
		n = len - 1;
	memcpy(buf, id, n);
	buf[n] = '\0';
	return buf;
}

bool msgid_bracketed(const char *id)
{
	size_t n = strlen(id);

	return n >= 3 && id[0] == '<' && id[n - 1] == '>';
}
