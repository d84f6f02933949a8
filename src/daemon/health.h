/* health.h -- the daemon's health as `ashes status` reports it: the facts
 * gathered (the daemon's row, src/store/store_health.h; its process; the
 * outbox and the quarantine; the database's size and free disk) and the
 * thresholds of [status] in, a state and one line per check out, in the
 * monitoring-plugin convention (Nagios, Icinga: exit 0 OK, 1 WARNING,
 * 2 CRITICAL, 3 UNKNOWN; a first line "ASHESD STATE - what | perfdata").
 * A pure function of its inputs: no clock, no files (src/cli/status.c
 * gathers the facts), so the tests give it any facts they like.
 *
 * The JSON form (health_json) is versioned: HEALTH_JSON_VERSION, raised
 * when a field changes meaning or goes; a new field does not raise it.
 * man/ashes.1 documents it.
 */
#ifndef ASHES_DAEMON_HEALTH_H
#define ASHES_DAEMON_HEALTH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct buf;
struct config_status;

#define HEALTH_JSON_VERSION 1

/* In the order of their exit statuses. */
enum health_state {
	HEALTH_OK = 0,
	HEALTH_WARNING = 1,
	HEALTH_CRITICAL = 2,
	HEALTH_UNKNOWN = 3,
};

/* What became of the process the daemon's row (or its pid file) names. */
enum health_process {
	HEALTH_PROCESS_RUNNING = 0, /* there, and not stopped */
	HEALTH_PROCESS_STOPPED,     /* there, stopped (SIGSTOP, a debugger) */
	HEALTH_PROCESS_GONE,        /* no such process, or another program */
	HEALTH_PROCESS_EXITED,      /* the daemon said it stopped cleanly */
};

/* Everything the report says, gathered by the caller.  Times are epoch
 * seconds; 0 means "never" / "none" where it is said so. */
struct health_facts {
	int64_t now;
	const char *db_path;
	/* Unknown: why nothing more could be read (no database, a schema
	 * without the daemon's row, an I/O error); NULL when it was read. */
	const char *unknown;
	bool recorded;              /* the daemon ever wrote its row */
	int64_t pid;                /* the row's (or the pid file's) pid */
	enum health_process process;
	char process_state;         /* /proc's letter (R, S, D, T...), or 0 */
	int64_t started;
	int64_t heartbeat;
	int64_t mailbox_contact;    /* 0: none since the start */
	int64_t mailbox_waiting;    /* -1: not looked yet */
	int64_t unsent;
	int64_t oldest_unsent;      /* its created; 0: none */
	int64_t failed;             /* within the window */
	int64_t quarantined;        /* within the window */
	int64_t db_bytes;           /* the file and its write-ahead log */
	int64_t disk_free;          /* bytes free to the daemon; -1: unknown */
};

/* [status] in seconds, counts and bytes (0: not checked); [0] warning,
 * [1] critical.  disk_free is a floor, the others ceilings. */
struct health_thresholds {
	int64_t heartbeat[2];
	int64_t mailbox[2];
	int64_t unsent[2];
	int64_t failed[2];
	int64_t quarantined[2];
	int64_t disk_free[2];
	int64_t window;
};

/* The thresholds of a config's [status] (milliseconds to seconds). */
void health_thresholds_from(const struct config_status *st,
			    struct health_thresholds *t_r);

#define HEALTH_CHECKS 7

struct health_check {
	const char *name;   /* "process", "heartbeat", "mailbox", ... */
	enum health_state state;
	char text[200];     /* "heartbeat 4m2s old (critical at 10m)" */
};

struct health_report {
	enum health_state state;    /* the worst of the checks */
	struct health_check checks[HEALTH_CHECKS];
	size_t n;
	char summary[600];          /* "ASHESD CRITICAL - ..." (no perfdata) */
};

/* The checks and their state; the state is the worst of them, CRITICAL
 * before UNKNOWN before WARNING (a daemon that is down is down, even if
 * something else could not be read). */
void health_evaluate(const struct health_facts *f,
		     const struct health_thresholds *t,
		     struct health_report *r_r);

/* The text form: the summary line with its perfdata after " | ", then
 * one line per check, "NAME: STATE text". */
void health_text(const struct health_facts *f,
		 const struct health_thresholds *t,
		 const struct health_report *r, struct buf *out);
/* The JSON form: one object, one line, ending in a newline. */
void health_json(const struct health_facts *f,
		 const struct health_thresholds *t,
		 const struct health_report *r, struct buf *out);

/* "OK", "WARNING", "CRITICAL", "UNKNOWN". */
const char *health_state_name(enum health_state s);

#endif
