/* smtp.c -- send finished messages over SMTP with libcurl (see smtp.h). */
#include "mail/smtp.h"

#include <stdlib.h>
#include <string.h>

#include <curl/curl.h>

#include "util/buf.h"
#include "util/xstr.h"

struct smtp_sender {
	CURL *curl;
	char *url;
	char *ca_file;
	char *user;
	char *password;
	enum smtp_security security;
	bool tls_no_verify;
	unsigned int timeout_ms;
	char errbuf[CURL_ERROR_SIZE];
	struct buf line;	/* server reply line being received */
	struct buf reply;	/* the current (possibly multi-line) reply */
	struct buf last;	/* the last complete reply */
	struct buf fail;	/* the last 4xx/5xx reply of this send */
	const char *rd;		/* message bytes left to upload */
	size_t rd_left;
	bool used;		/* a send since the last disconnect */
};

static size_t smtp_read_cb(char *ptr, size_t size, size_t nmemb, void *data)
{
	struct smtp_sender *ss = data;
	size_t n = size * nmemb;

	if (n > ss->rd_left)
		n = ss->rd_left;
	memcpy(ptr, ss->rd, n);
	ss->rd += n;
	ss->rd_left -= n;
	return n;
}

/* One complete line from the server: "250-..." continues a reply,
 * "250 ..." ends it. */
static void smtp_reply_line(struct smtp_sender *ss, const char *line,
			    size_t len)
{
	while (len > 0 && (line[len - 1] == '\r' || line[len - 1] == '\n'))
		len--;
	if (ss->reply.len > 0)
		buf_putc(&ss->reply, ' ');
	buf_append(&ss->reply, line, len);
	if (len >= 3 && (len == 3 || line[3] == ' ')) {
		buf_reset(&ss->last);
		buf_append(&ss->last, buf_str(&ss->reply), ss->reply.len);
		/* libcurl says QUIT after a refusal: keep the refusal. */
		if (line[0] == '4' || line[0] == '5') {
			buf_reset(&ss->fail);
			buf_append(&ss->fail, buf_str(&ss->reply),
				   ss->reply.len);
		}
		buf_reset(&ss->reply);
	}
}

/* libcurl shows us the server's replies (HEADER_IN) through its debug
 * hook; what we send (HEADER_OUT, with AUTH data) is not kept. */
static int smtp_debug_cb(CURL *curl, curl_infotype type, char *data,
			 size_t size, void *userp)
{
	struct smtp_sender *ss = userp;
	size_t i;

	if (type != CURLINFO_HEADER_IN)
		return 0;
	for (i = 0; i < size; i++) {
		buf_putc(&ss->line, data[i]);
		if (data[i] == '\n') {
			smtp_reply_line(ss, buf_str(&ss->line), ss->line.len);
			buf_reset(&ss->line);
		}
	}
	return 0;
}

int smtp_sender_new(const struct smtp_settings *set,
		    struct smtp_sender **sender_r, const char **error_r)
{
	static bool global_done;
	struct smtp_sender *ss;
	struct buf url = BUF_INIT;
	unsigned int port;

	*sender_r = NULL;
	if (set->host == NULL || set->host[0] == '\0') {
		*error_r = "smtp: no host given";
		return -1;
	}
	if (set->port > 65535) {
		*error_r = "smtp: bad port";
		return -1;
	}
	if ((set->user == NULL) != (set->password == NULL)) {
		*error_r = "smtp: user and password go together";
		return -1;
	}
	if (!global_done) {
		/* Not thread-safe: the first sender is made at start-up. */
		if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
			*error_r = "smtp: curl_global_init failed";
			return -1;
		}
		global_done = true;
	}
	ss = calloc(1, sizeof(*ss));
	if (ss == NULL)
		abort();
	ss->curl = curl_easy_init();
	if (ss->curl == NULL) {
		free(ss);
		*error_r = "smtp: curl_easy_init failed";
		return -1;
	}
	port = set->port ? set->port :
	       set->security == SMTP_IMPLICIT_TLS ? 465 : 25;
	/* An IPv6 literal needs brackets in a URL. */
	buf_printf(&url, strchr(set->host, ':') ? "%s://[%s]:%u/%s" :
		   "%s://%s:%u/%s",
		   set->security == SMTP_IMPLICIT_TLS ? "smtps" : "smtp",
		   set->host, port, set->helo_name ? set->helo_name : "");
	ss->url = buf_steal(&url);
	ss->ca_file = xstrdup(set->ca_file);
	ss->user = xstrdup(set->user);
	ss->password = xstrdup(set->password);
	ss->security = set->security;
	ss->tls_no_verify = set->tls_no_verify;
	ss->timeout_ms = set->timeout_ms ? set->timeout_ms : 60000;
	*sender_r = ss;
	return 0;
}

/* The options that stay the same for every message of the batch. */
static void smtp_setup(struct smtp_sender *ss)
{
	CURL *c = ss->curl;

	curl_easy_setopt(c, CURLOPT_URL, ss->url);
	curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(c, CURLOPT_ERRORBUFFER, ss->errbuf);
	curl_easy_setopt(c, CURLOPT_VERBOSE, 1L);
	curl_easy_setopt(c, CURLOPT_DEBUGFUNCTION, smtp_debug_cb);
	curl_easy_setopt(c, CURLOPT_DEBUGDATA, ss);
	curl_easy_setopt(c, CURLOPT_UPLOAD, 1L);
	curl_easy_setopt(c, CURLOPT_READFUNCTION, smtp_read_cb);
	curl_easy_setopt(c, CURLOPT_READDATA, ss);
	curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT_MS, (long)ss->timeout_ms);
	curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, (long)ss->timeout_ms);
	switch (ss->security) {
	case SMTP_STARTTLS_REQUIRED:
		curl_easy_setopt(c, CURLOPT_USE_SSL, (long)CURLUSESSL_ALL);
		break;
	case SMTP_STARTTLS_OPTIONAL:
		curl_easy_setopt(c, CURLOPT_USE_SSL, (long)CURLUSESSL_TRY);
		break;
	case SMTP_PLAIN:
		curl_easy_setopt(c, CURLOPT_USE_SSL, (long)CURLUSESSL_NONE);
		break;
	case SMTP_IMPLICIT_TLS:
		break;
	}
	if (ss->ca_file != NULL)
		curl_easy_setopt(c, CURLOPT_CAINFO, ss->ca_file);
	curl_easy_setopt(c, CURLOPT_SSL_VERIFYPEER, ss->tls_no_verify ? 0L : 1L);
	curl_easy_setopt(c, CURLOPT_SSL_VERIFYHOST, ss->tls_no_verify ? 0L : 2L);
	if (ss->user != NULL) {
		curl_easy_setopt(c, CURLOPT_USERNAME, ss->user);
		curl_easy_setopt(c, CURLOPT_PASSWORD, ss->password);
	}
}

/* Failures an operator fixes (TLS, trust, login): never the message's
 * fault, so never a reason to drop it. */
static bool smtp_is_setup_error(CURLcode res)
{
	switch (res) {
	case CURLE_LOGIN_DENIED:
	case CURLE_USE_SSL_FAILED:
	case CURLE_SSL_CONNECT_ERROR:
	case CURLE_PEER_FAILED_VERIFICATION:
	case CURLE_SSL_CACERT_BADFILE:
	case CURLE_SSL_CERTPROBLEM:
	case CURLE_SSL_CIPHER:
	case CURLE_SSL_ENGINE_NOTFOUND:
	case CURLE_SSL_ISSUER_ERROR:
	case CURLE_SSL_CRL_BADFILE:
	case CURLE_COULDNT_CONNECT:
	case CURLE_COULDNT_RESOLVE_HOST:
	case CURLE_OPERATION_TIMEDOUT:
		return true;
	default:
		return false;
	}
}

enum smtp_result smtp_send(struct smtp_sender *ss, const char *from,
			   const char *const *rcpts, size_t n_rcpts,
			   const void *data, size_t size,
			   const char **reply_r, int *code_r)
{
	struct curl_slist *list = NULL;
	enum smtp_result result;
	long code = 0;
	CURLcode res;
	size_t i;

	if (n_rcpts == 0) {
		buf_reset(&ss->last);
		buf_puts(&ss->last, "no recipient given");
		*reply_r = buf_str(&ss->last);
		if (code_r != NULL)
			*code_r = 0;
		return SMTP_PERMFAIL;
	}
	smtp_setup(ss);
	for (i = 0; i < n_rcpts; i++) {
		struct curl_slist *l = curl_slist_append(list, rcpts[i]);

		if (l == NULL)
			abort();
		list = l;
	}
	buf_reset(&ss->line);
	buf_reset(&ss->reply);
	buf_reset(&ss->last);
	buf_reset(&ss->fail);
	ss->errbuf[0] = '\0';
	ss->rd = data;
	ss->rd_left = size;
	curl_easy_setopt(ss->curl, CURLOPT_MAIL_FROM, from);
	curl_easy_setopt(ss->curl, CURLOPT_MAIL_RCPT, list);
	curl_easy_setopt(ss->curl, CURLOPT_INFILESIZE_LARGE, (curl_off_t)size);
	ss->used = true;
	res = curl_easy_perform(ss->curl);
	curl_easy_getinfo(ss->curl, CURLINFO_RESPONSE_CODE, &code);
	/* The list must not outlive this call inside the handle. */
	curl_easy_setopt(ss->curl, CURLOPT_MAIL_RCPT, NULL);
	curl_slist_free_all(list);

	if (res == CURLE_OK)
		result = SMTP_SENT;
	else if (smtp_is_setup_error(res))
		result = SMTP_TEMPFAIL;
	else if (code >= 500 && code <= 599)
		result = SMTP_PERMFAIL;
	else
		result = SMTP_TEMPFAIL;

	if (res != CURLE_OK && ss->fail.len > 0) {
		buf_reset(&ss->last);
		buf_append(&ss->last, ss->fail.data, ss->fail.len);
	} else if (ss->last.len == 0 || (res != CURLE_OK && code == 0)) {
		buf_reset(&ss->last);
		buf_puts(&ss->last, ss->errbuf[0] ? ss->errbuf :
			 curl_easy_strerror(res));
	}
	if (code_r != NULL)
		*code_r = (int)code;
	*reply_r = buf_str(&ss->last);
	return result;
}

void smtp_sender_disconnect(struct smtp_sender *ss)
{
	if (ss == NULL || !ss->used)
		return;
	/* A fresh handle: the old one's cleanup says QUIT and closes its
	 * connection cache. */
	curl_easy_cleanup(ss->curl);
	ss->curl = curl_easy_init();
	if (ss->curl == NULL)
		abort();
	ss->used = false;
}

const char *smtp_result_name(enum smtp_result result)
{
	switch (result) {
	case SMTP_SENT:
		return "sent";
	case SMTP_TEMPFAIL:
		return "temporary failure";
	case SMTP_PERMFAIL:
		return "permanent failure";
	}
	return "?";
}

void smtp_sender_free(struct smtp_sender **senderp)
{
	struct smtp_sender *ss = *senderp;

	if (ss == NULL)
		return;
	*senderp = NULL;
	curl_easy_cleanup(ss->curl);	/* sends QUIT on an open connection */
	free(ss->url);
	free(ss->ca_file);
	free(ss->user);
	if (ss->password != NULL) {
		explicit_bzero(ss->password, strlen(ss->password));
		free(ss->password);
	}
	buf_free(&ss->line);
	buf_free(&ss->reply);
	buf_free(&ss->last);
	buf_free(&ss->fail);
	free(ss);
}
