# bench: benchmarks run by make bench.

# bench_core: legal-move generations/s and random playouts/s (rules core).
EXTRA_PROGRAMS += bench/bench_core
bench_bins += bench/bench_core
bench_bench_core_SOURCES = bench/bench_core.c
bench_bench_core_CFLAGS = $(AM_CFLAGS) -O2
bench_bench_core_LDADD = libashes_core.a

# bench_swiss: the time of a Swiss round's pairing, 16 to 256 players.
EXTRA_PROGRAMS += bench/bench_swiss
bench_bins += bench/bench_swiss
bench_bench_swiss_SOURCES = bench/bench_swiss.c
bench_bench_swiss_CFLAGS = $(AM_CFLAGS) -O2
bench_bench_swiss_LDADD = libashes_server.a libashes_util.a

# --- bench_server ---
# bench_server: moves/s through server_handle with 1,000 active games, and
# again with 100,000 finished games in the database.
EXTRA_PROGRAMS += bench/bench_server
bench_bins += bench/bench_server
bench_bench_server_SOURCES = bench/bench_server.c
bench_bench_server_CPPFLAGS = $(AM_CPPFLAGS) \
	-DASHES_SRCDIR_DEFAULT='"$(abs_top_srcdir)"'
bench_bench_server_CFLAGS = $(AM_CFLAGS) -O2
bench_bench_server_LDADD = libashes_server.a libashes_mail.a \
	libashes_render.a libashes_store.a libashes_core.a libashes_util.a \
	$(SQLITE_LIBS) $(RSVG_LIBS) $(ETPAN_LIBS) $(GPGME_LIBS) $(GNUTLS_LIBS)
# --- end bench_server ---

# --- bench_verify ---
# bench_verify: median time of one gpgme_op_verify, and signed PGP/MIME
# mails per second through inbound_parse, side by side.
EXTRA_PROGRAMS += bench/bench_verify
bench_bins += bench/bench_verify
bench_bench_verify_SOURCES = bench/bench_verify.c
bench_bench_verify_CFLAGS = $(AM_CFLAGS) -O2
bench_bench_verify_LDADD = libashes_mail.a libashes_util.a \
	$(ETPAN_LIBS) $(GPGME_LIBS) $(GNUTLS_LIBS)
# --- end bench_verify ---

# --- bench_picture ---
# bench_picture: the board picture's size and drawing time (SVG, PNG) at
# sizes 5 to 13, and the whole "your move" mail at size 7 with each
# picture, against the 40 KB target.
EXTRA_PROGRAMS += bench/bench_picture
bench_bins += bench/bench_picture
bench_bench_picture_SOURCES = bench/bench_picture.c
bench_bench_picture_CPPFLAGS = $(AM_CPPFLAGS) \
	-DASHES_SRCDIR_DEFAULT='"$(abs_top_srcdir)"'
bench_bench_picture_CFLAGS = $(AM_CFLAGS) -O2
bench_bench_picture_LDADD = libashes_server.a libashes_mail.a \
	libashes_render.a libashes_store.a libashes_core.a libashes_util.a \
	$(SQLITE_LIBS) $(RSVG_LIBS) $(ETPAN_LIBS) $(GPGME_LIBS) $(GNUTLS_LIBS)
# --- end bench_picture ---

# --- load_fill ---
# load_fill: bench/e2e-load.sh's helper (no figures of its own): fills a
# database with players and games and writes the signed move mails.
EXTRA_PROGRAMS += bench/load_fill
bench_bins += bench/load_fill
bench_load_fill_SOURCES = bench/load_fill.c
bench_load_fill_CFLAGS = $(AM_CFLAGS) -O2
bench_load_fill_LDADD = libashes_mail.a libashes_store.a libashes_core.a \
	libashes_util.a $(ETPAN_LIBS) $(GPGME_LIBS) $(GNUTLS_LIBS) \
	$(SQLITE_LIBS)
# --- end load_fill ---

# --- bench_bot ---
# bench_bot: each level of the practice opponent against the level below
# (level 1 against random moves): win rates with 95% intervals, and the
# time per move at each level.
EXTRA_PROGRAMS += bench/bench_bot
bench_bins += bench/bench_bot
bench_bench_bot_SOURCES = bench/bench_bot.c
bench_bench_bot_CFLAGS = $(AM_CFLAGS) -O2
bench_bench_bot_LDADD = libashes_ai.a libashes_core.a -lm
# --- end bench_bot ---

# --- bench_analysis ---
# bench_analysis: the analysis of a finished game (analyse GAME) at the
# mail's playout budget, per ply and per game, at N = 5 and N = 7.
EXTRA_PROGRAMS += bench/bench_analysis
bench_bins += bench/bench_analysis
bench_bench_analysis_SOURCES = bench/bench_analysis.c
bench_bench_analysis_CFLAGS = $(AM_CFLAGS) -O2
bench_bench_analysis_LDADD = libashes_ai.a libashes_core.a
# --- end bench_analysis ---

# --- retention ---
# retention.sh: the stored bytes per move of an 80-move game through the
# real ashesd, before and after [retention] (bench/run runs it).
EXTRA_DIST += bench/retention.sh
# --- end retention ---
