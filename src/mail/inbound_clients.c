/* inbound_clients.c -- client habits undone (see inbound_clients.h). */
#include "config.h"

#include "mail/flowed.h"
#include "mail/inbound_clients.h"
#include "mail/mime.h"

void inbound_unflow(const struct mailmime *part, struct buf *text)
{
	if (part == NULL)
		return;
	flowed_decode_buf(mime_param(part, "format"), mime_param(part, "delsp"),
			  text);
}
