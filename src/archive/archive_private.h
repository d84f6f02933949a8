/* archive_private.h -- what the files of src/archive share: the facts of
 * one game gathered from the store and the keyring (archive_gather.c),
 * the record built from them and the service's ply lines
 * (archive_record.c), verify's check of its clocks (archive_clock.c), how firmly a signed text binds a move to its game
 * (archive_bind.c), MANIFEST (archive_manifest.c) and the file helpers
 * (archive_fs.c).  Not for other modules: they use archive.h.
 */
#ifndef ASHES_ARCHIVE_PRIVATE_H
#define ASHES_ARCHIVE_PRIVATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "archive/archive.h"
#include "core/record.h"
#include "core/record2.h"
#include "mail/pgp.h"
#include "store/store.h"
#include "store/store_conditional.h"
#include "store/store_prune.h"
#include "util/buf.h"

/* The state file of `export --all` in its folder. */
#define ARCHIVE_STATE_FILE ".ashes-archive-state"

/* The kinds of mail we sent about a game that say what a mail did, as
 * bits of archive_mail.sent. */
enum archive_sent {
	ARCHIVE_SENT_YOUR_MOVE = 1 << 0, /* "your-move": the game went on */
	ARCHIVE_SENT_RESULT = 1 << 1,    /* "result": the game ended */
	ARCHIVE_SENT_UNDONE = 1 << 2,    /* "undone": a move taken back */
	ARCHIVE_SENT_OTHER = 1 << 3,     /* challenge, draw, undo, message,
					  * clock, ladder */
};

/* One mail of the game's history, as received and as signed. */
struct archive_mail {
	struct store_inbound *in;   /* the stored mail, raw bytes included */
	enum pgp_signed_kind kind;
	struct buf signed_part;     /* what the signature covers */
	struct buf sig;             /* the detached signature (PGP/MIME) */
	/* For a mail encrypted to the club: the form the archive keeps and
	 * every file is made of (inbound_archive_form); empty: in->raw. */
	struct buf form;
	char sha256[65];            /* of signed_part; "" when unsigned */
	struct pgp_sig pgp;         /* as the daemon's keyring verifies it */
	char *text;                 /* the signed text as the daemon read it */
	char stem[16];              /* its files: "0007", "mail-03" */
	int ply;                    /* the ply it played (0: none) */
	/* It set conditional moves a ply was played from (that ply's
	 * cond=); its files are "cond-NN" unless it played a ply too. */
	bool conditional;
	unsigned refs;              /* 1 << enum store_mail_ref */
	unsigned sent;              /* enum archive_sent bits */
	int sent_ply;               /* the highest ply of a mail we sent */
	char what[96];              /* its first command, for README */
	/* The headers a public copy keeps (CRLF-ended lines): the thread's
	 * game, and nothing of the sender or the way. */
	char *thread_headers;
};

/* One game, everything an archive says of it. */
struct archive_game {
	struct store_game *row;
	char white[64], black[64];  /* the players' names at the end */
	struct store_move *moves;
	size_t nmoves;
	/* The plies played from conditional moves, by ply. */
	struct store_cond_ply *conds;
	size_t nconds;
	struct archive_mail *mails; /* by inbound id */
	size_t nmails;
	struct store_game_message *notes;
	size_t nnotes;
	struct store_clock_event *events;
	size_t nevents;
	struct store_game_club club;
	bool in_club;
	/* The moves replayed, ended by resignation, agreement or time as
	 * the row says. */
	struct core_record core;
	bool core_ok;
	/* The players' keys: the one that signed their plies, else their
	 * first bound key; "" when neither. */
	char white_key[PGP_FPR_MAX + 1], black_key[PGP_FPR_MAX + 1];
};

/* Gather game_id from src into *g (zeroed first; free with
 * archive_game_free even after a failure).  1 found, 0 no such game, -1
 * with *error_r. */
int archive_game_load(const struct archive_source *src, int64_t game_id,
		      struct archive_game *g, const char **error_r);
void archive_game_free(struct archive_game *g);
/* The mail with that inbound id, or NULL. */
struct archive_mail *archive_game_mail(const struct archive_game *g,
				       int64_t inbound_id);

/* notes.txt of src->notes_of's own copy of g (archive_notes.c),
 * appended to out, with the author's name in author: nothing (out and
 * author left empty) for any other copy, a game not over, or no notes.
 * 0 or -1 with *error_r. */
int archive_notes_text(const struct archive_source *src,
		       const struct archive_game *g, struct buf *out,
		       char *author, size_t author_len, const char **error_r);

/* The version 2 record of g into *rec (freed with record2_free); -1 with
 * *error_r. */
int archive_record_build(const struct archive_source *src,
			 const struct archive_game *g, struct record2 *rec,
			 const char **error_r);

/* A clock= the record's own times do not give. */
struct archive_clock_fault {
	enum archive_reason reason; /* ARCHIVE_CLOCK_MISMATCH,
				     * ARCHIVE_LATE_MOVE or
				     * ARCHIVE_RESULT_MISMATCH */
	size_t ply;
	int64_t recorded;           /* its clock= */
	int64_t lo, hi;             /* what the times give (lo == hi when
				     * exact, else the bounds) */
	int64_t deadline;           /* LATE_MOVE: when the flag fell */
	char detail[320];           /* RESULT_MISMATCH: a loss on time the
				     * clocks do not give, said */
};

/* Run the clocks again from the record alone, as the service ran them
 * (server/game_record.c): the TimeControl tag, the first turn from the accepting
 * mail's comment (else Date), each ply's at=, the operator's clock
 * comments and the vacation days, the swap; hold each ply's clock=
 * against them and each at= against the deadline (a "clock-flag"
 * comment before a ply says its flag fell unclaimed).  Where the record
 * lacks what the store had (weekends=off without the players' zones, a
 * vacation's dates) clock= is only held within bounds, and the late move
 * not checked.  Termination: time is held against the clocks too: the
 * loser must be the player to move after the last ply, and their flag
 * due (after the comments past that ply) by the time the record says it
 * fell (the last "clock-flag" comment's at=, else EndDate); else
 * ARCHIVE_RESULT_MISMATCH with detail.  One line per ply and a summary
 * on out (saying what was not checked, and why).  0, or 1 with *f_r.
 * The moves must replay. */
int archive_clock_check(const struct record2 *rec, FILE *out,
			struct archive_clock_fault *f_r);

/* How firmly a signed text binds a move to a game and ply. */
enum archive_binding {
	ARCHIVE_BIND_NONE = 0,  /* the text holds no such move */
	ARCHIVE_BIND_HEADER,    /* a bare move: game and ply only from the
				 * unsigned In-Reply-To / References */
	ARCHIVE_BIND_GAME,      /* a bare move in a text that names the
				 * game but quotes no "move GAME PLY" line
				 * of this ply: the ply from the headers */
	ARCHIVE_BIND_TEXT,      /* "move GAME PLY MOVE", or a bare move
				 * quoting "move GAME PLY MOVE" */
};

/* Does the signed text (UTF-8, LF line ends) play `move` (canonical, on
 * pos, the position before the ply) as ply `ply` of game `game`?  The
 * commands are read as the daemon reads them (server/command.h), a bare
 * move taken as the thread's.  The binding into *bind_r; *other_r (may
 * be NULL) gets the text's own game, ply and move when it names another
 * ("move 12 7 c3-e5"), for the message.  Never fails. */
void archive_bind(const char *text, const struct core_position *pos,
		  int64_t game, size_t ply, const char *move,
		  enum archive_binding *bind_r, char *other_r,
		  size_t other_len);
/* Does the signed text resign game: ARCHIVE_BIND_TEXT for a `resign`
 * in a text that names the game ("resign 12", or a quote of its mail),
 * ARCHIVE_BIND_HEADER for a `resign` the thread's headers alone give its
 * game, ARCHIVE_BIND_NONE for no resignation of it. */
enum archive_binding archive_bind_resign(const char *text, int64_t game);

/* MANIFEST: "SHA256  NAME\n" per file, by name, as sha256sum writes it. */
struct archive_manifest_entry {
	char sha256[65];
	char *name;
};
struct archive_manifest {
	struct archive_manifest_entry *items;
	size_t count, cap;
};
void archive_manifest_free(struct archive_manifest *m);
/* Add a file's name and the sha256 of its bytes. */
void archive_manifest_add(struct archive_manifest *m, const char *name,
			  const void *data, size_t len);
/* The text of m, sorted by name, appended to *out. */
void archive_manifest_format(struct archive_manifest *m, struct buf *out);
/* Read a MANIFEST text: 0, or -1 with the 1-based *line_r of a line that
 * is not "64 hex digits, two blanks, a plain file name" (no '/', no
 * leading '.', no blank or control character), or that names a file
 * twice. */
int archive_manifest_parse(const char *text, size_t len,
			   struct archive_manifest *m, size_t *line_r);
/* The same with the names name_ok takes (an event's MANIFEST lists
 * games/N/NAME too: archive_event.h). */
int archive_manifest_parse_names(const char *text, size_t len,
				 bool (*name_ok)(const char *name),
				 struct archive_manifest *m, size_t *line_r);
/* Is name a plain file name an archive may hold (see above)? */
bool archive_name_ok(const char *name);

/* ---- files (archive_fs.c) ---- */

/* Write len bytes to dir/name (created, mode 0644, fsync'ed).  -1 with
 * errno. */
int archive_write_file(const char *dir, const char *name, const void *data,
		       size_t len);
/* Read dir/name, a regular file (a symbolic link is refused), of at most
 * max bytes, into *out (appended, NUL-terminated).  -1 with errno (ENOENT
 * when it is not there, EFBIG when larger). */
int archive_read_file(const char *dir, const char *name, size_t max,
		      struct buf *out);
/* Remove dir and everything in it (no symbolic link followed); no error
 * when it is not there. */
void archive_remove_tree(const char *dir);
/* The names of the plain files in dir (sorted; no subfolders allowed:
 * -1 with errno ENOTDIR... naming the first), NULL-terminated; free with
 * archive_names_free. */
int archive_list_dir(const char *dir, char ***names_r, size_t *count_r,
		     const char **bad_r);
void archive_names_free(char ***names, size_t count);
/* The bounds of an unpacking: an archive is a stranger's file. */
struct archive_untar_limits {
	uint64_t max_file;   /* bytes of one file */
	uint64_t max_total;  /* bytes of all files */
	size_t max_entries;  /* files and folders */
};
/* Unpack the .tar.gz at path into the folder into (gzip inflates; we
 * read the tar stream): one folder of plain files of names an archive
 * gives, nothing else (no link, device, long name, folder in it).  Each
 * header is checked before anything of its entry is written, every byte
 * counted, and at the first breach of lim, or anything else, it stops
 * (gzip killed): the files written so far stay for the caller to remove
 * with into.  0 with the folder's path in dir; -1 with *error_r (a
 * buffer of the module, valid until the next call). */
int archive_untar(const char *path, const char *into,
		  const struct archive_untar_limits *lim, char *dir,
		  size_t dir_len, const char **error_r);
/* Does s end with suffix? */
bool archive_ends_with(const char *s, const char *suffix);

/* ---- verify (archive_verify.c, archive_verify_mail.c) ---- */

/* The largest file verify reads, and unpacks (the daemon's own limit
 * for a mail is lower). */
#define VERIFY_FILE_MAX (32 * 1024 * 1024)

/* One signed mail of the archive as verify read it. */
struct verify_mail {
	char stem[16];
	enum pgp_signed_kind kind;
	char sha256[65];   /* of its signed part; "" when unsigned */
	struct pgp_sig sig;
	char *text;        /* the signed text, as the daemon reads it */
	char *subject;     /* unsigned headers, for the weakest binding */
	char *thread;      /* In-Reply-To and References */
	bool named;        /* a ply or a comment of the record names it */
};

struct verify {
	const char *dir;
	FILE *out;
	struct pgp_ctx *pgp;
	struct archive_verdict *v;
	struct record2 rec;
	int64_t game;
	char **names;          /* the archive's files, sorted */
	size_t nnames;
	int64_t max_age, max_future;
	struct verify_mail *mails;
	size_t nmails;
};

/* Record the first discrepancy and return 1. */
int verify_fail(struct verify *v, enum archive_reason reason, size_t ply,
		const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* Is name among the archive's files? */
bool verify_has(const struct verify *v, const char *name);
/* Read and check the mail of files stem.*: its signature, that the .eml
 * holds what is signed, its text.  0 with *m_r (owned by v); 1 with the
 * verdict (missing: the reason when its files are not there, ply: the
 * ply it is for, or 0); -1 with *error_r when gpg could not run. */
int verify_mail_load(struct verify *v, const char *stem,
		     enum archive_reason missing, size_t ply,
		     struct verify_mail **m_r, const char **error_r);
/* The mail whose signed part has that sha256, or NULL. */
struct verify_mail *verify_mail_by_sha(const struct verify *v,
				       const char *sha256);
/* The value of "name=" among the words of an other-kind comment, into
 * out (len bytes): false when there is none, or it does not fit
 * (archive_verify.c). */
bool verify_word(const char *text, const char *name, char *out,
		 size_t len);
/* The mail of files stem.* if it was loaded, or NULL. */
struct verify_mail *verify_mail_by_stem(const struct verify *v,
					const char *stem);
/* The signer of ply i (mover's key, by m): key= and the mover's
 * WhiteKey / BlackKey.  0, or 1 with the verdict (archive_verify.c). */
int verify_signer(struct verify *v, size_t i, enum core_color mover,
		  const struct verify_mail *m);
/* Ply i, played from the mover's conditional moves (cond=), at core's
 * position: the mail its sha256 names, signed by the mover, received
 * and signed before the opponent's move that began its line, its line
 * naming exactly these plies from the position it was set in; the move
 * played into core.  0, 1 with the verdict, -1
 * (archive_verify_cond.c). */
int verify_cond_ply(struct verify *v, size_t i, enum core_color mover,
		    struct core_record *core, const char **error_r);
void verify_mails_free(struct verify *v);
/* "PGP/MIME", "inline", "unsigned". */
const char *verify_form(enum pgp_signed_kind kind);
/* The check of archive_verify(), in the child it forks, with tmp its
 * temporary folder (made; removed by the parent): 0, 1,
 * ARCHIVE_VERIFY_UNPINNED or -1 as archive_verify() returns
 * (archive_verify.c). */
int verify_in(const char *path, const char *tmp,
	      const struct archive_verify_opts *opts, FILE *out,
	      struct archive_verdict *v_r, const char **error_r);
/* MANIFEST lists every other file of the archive, each sum right, and
 * MANIFEST.asc is a good signature over it (by daemon_key, 40 or 64 hex
 * digits, blanks and case ignored, when not NULL), said on v->out.  0,
 * 1 with the verdict, -1 with *error_r when gpg could not run
 * (archive_manifest.c). */
int verify_manifest(struct verify *v, const char *daemon_key,
		    const char **error_r);

#endif
