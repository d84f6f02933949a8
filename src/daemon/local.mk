# src/daemon: ashesd -- signals, pid file, systemd glue, and (in loop.c)
# the mail loop that wires mail -> server -> store.  The config, its
# mapping onto the layers' settings and the logger are src/config.
noinst_LIBRARIES += libashes_daemon.a
libashes_daemon_a_SOURCES = \
	src/daemon/daemon.c src/daemon/daemon.h \
	src/daemon/pidfile.c src/daemon/pidfile.h \
	src/daemon/timing.c src/daemon/timing.h \
	src/daemon/test_hooks.c src/daemon/test_hooks.h \
	src/daemon/worker.c src/daemon/worker.h \
	src/daemon/health.c src/daemon/health.h

sbin_PROGRAMS += ashesd
ashesd_SOURCES = src/daemon/main.c src/daemon/loop.c \
	src/daemon/loop_keys.c src/daemon/loop_private.h \
	src/daemon/loop_batch.c src/daemon/loop_verify.c \
	src/daemon/loop_timers.c src/daemon/loop_health.c \
	src/daemon/guard.c src/daemon/guard.h \
	src/daemon/outbox.c src/daemon/outbox.h \
	src/daemon/outbox_thread.c src/daemon/outbox_thread.h \
	src/daemon/outbox_archive.c src/daemon/outbox_archive.h \
	src/daemon/bot_thread.c src/daemon/bot_thread.h
ashesd_CPPFLAGS = $(AM_CPPFLAGS) $(GPGME_CFLAGS) $(CURL_CFLAGS) $(ETPAN_CFLAGS)
# Higher layers first, down to core and util.
ashesd_LDADD = libashes_daemon.a libashes_config.a libashes_archive.a \
	libashes_server.a libashes_mail.a libashes_store.a libashes_render.a libashes_core.a \
	libashes_util.a \
	$(ETPAN_LIBS) $(GPGME_LIBS) $(CURL_LIBS) $(GNUTLS_LIBS) $(SQLITE_LIBS) \
	$(RSVG_LIBS) -lpthread

# Tests: Check binaries, run by make check: test_daemon (log, pid file,
# signals, sd_notify, in process), test_ashesd (the real binary and the
# systemd files).  (tests/config/test_config* are in src/config/local.mk.)
check_PROGRAMS += tests/daemon/test_daemon tests/daemon/test_ashesd \
	tests/daemon/test_settings
TESTS += tests/daemon/test_daemon tests/daemon/test_ashesd \
	tests/daemon/test_settings
daemon_test_ldadd = libashes_daemon.a libashes_config.a libashes_server.a \
	libashes_core.a libashes_util.a $(CHECK_LIBS)
tests_daemon_test_daemon_SOURCES = tests/daemon/test_daemon.c tests/daemon/daemon_test.h \
	tests/daemon/notify_test.c tests/daemon/notify_test.h
tests_daemon_test_daemon_LDADD = $(daemon_test_ldadd)
tests_daemon_test_ashesd_SOURCES = tests/daemon/test_ashesd.c tests/daemon/daemon_test.h \
	tests/daemon/notify_test.c tests/daemon/notify_test.h
tests_daemon_test_ashesd_LDADD = $(daemon_test_ldadd)
tests_daemon_test_settings_LDADD = $(daemon_test_ldadd)
EXTRA_DIST += tests/daemon/broken.conf
# The health `ashes status` reports (health.h): facts and thresholds to a
# state, its lines, perfdata and JSON.
check_PROGRAMS += tests/daemon/test_health
TESTS += tests/daemon/test_health
tests_daemon_test_health_LDADD = $(daemon_test_ldadd)
# The threads' shared shape (worker.h): wake, drain, stop.
check_PROGRAMS += tests/daemon/test_worker
TESTS += tests/daemon/test_worker
tests_daemon_test_worker_LDADD = libashes_daemon.a $(CHECK_LIBS) -lpthread
# `ashes status` of the real ashesd on the private Dovecot + Postfix:
# OK, stopped (SIGSTOP), a clean stop, a hung loop, killed, no database.
dist_check_SCRIPTS += tests/daemon/test_status.sh
TESTS += tests/daemon/test_status.sh
# The mails waiting verified several at once, committed in mailbox order
# (the real ashesd --once over a folder of signed mails; real gpg).
dist_check_SCRIPTS += tests/daemon/test_verify_parallel.sh
TESTS += tests/daemon/test_verify_parallel.sh

# The outbox's html template and tests (they compile
# src/daemon/outbox.c, which is ashesd's).
nobase_dist_pkgdata_DATA += templates/mail/board.html
outbox_test_ldadd = libashes_daemon.a libashes_config.a libashes_archive.a \
	libashes_mail.a \
	libashes_server.a libashes_store.a libashes_render.a libashes_core.a \
	libashes_util.a \
	$(CHECK_LIBS) $(ETPAN_LIBS) $(GPGME_LIBS) $(CURL_LIBS) $(GNUTLS_LIBS) \
	$(SQLITE_LIBS) $(RSVG_LIBS)
check_PROGRAMS += tests/daemon/test_outbox tests/daemon/test_outbox_stack
TESTS += tests/daemon/test_outbox tests/daemon/test_outbox_stack
tests_daemon_test_outbox_SOURCES = tests/daemon/test_outbox.c \
	tests/daemon/outbox_test.h src/daemon/outbox.c \
	src/daemon/outbox_archive.c
tests_daemon_test_outbox_CPPFLAGS = $(AM_CPPFLAGS) $(GPGME_CFLAGS) $(CURL_CFLAGS)
tests_daemon_test_outbox_LDADD = $(outbox_test_ldadd)
tests_daemon_test_outbox_stack_SOURCES = tests/daemon/test_outbox_stack.c \
	tests/daemon/outbox_test.h src/daemon/outbox.c \
	src/daemon/outbox_archive.c \
	tests/mail/test_imap_stack.c tests/mail/test_imap_stack.h
tests_daemon_test_outbox_stack_CPPFLAGS = $(AM_CPPFLAGS) $(GPGME_CFLAGS) \
	$(CURL_CFLAGS) -I$(top_srcdir)/tests/mail
tests_daemon_test_outbox_stack_LDADD = $(outbox_test_ldadd)
EXTRA_DIST += tests/daemon/outbox_check.py \
	tests/daemon/outbox-golden/reply.eml \
	tests/daemon/outbox-golden/your-move.eml \
	tests/daemon/outbox-golden/your-move-png.eml \
	tests/daemon/outbox-golden/observer.eml \
	tests/daemon/outbox-golden/reply-in-game.eml \
	tests/daemon/outbox-golden/result-utf8-from.eml \
	tests/daemon/outbox-golden/notice-no-from-name.eml
dist_check_SCRIPTS += tests/daemon/test_outbox_e2e.sh
TESTS += tests/daemon/test_outbox_e2e.sh
# `archive GAME`: the real ashesd attaches the game's archive at send
# time, to an SMTP sink; it verifies; without a daemon key, the mail says so.
dist_check_SCRIPTS += tests/daemon/test_outbox_archive.sh
TESTS += tests/daemon/test_outbox_archive.sh
# The outbox on its own thread: reading never waits for a slow SMTP
# server (tests/daemon/smtp_server.py, 1 s per mail), one connection across
# batches, SIGTERM and kill -9 while a mail is in the server's hands.
dist_check_SCRIPTS += tests/daemon/test_outbox_thread.sh
TESTS += tests/daemon/test_outbox_thread.sh
EXTRA_DIST += tests/daemon/smtp_server.py

# Documentation and the example configuration.
dist_man_MANS += man/ashesd.8 man/ashesd.conf.5
ashesd_exampledir = $(docdir)/examples
dist_ashesd_example_DATA = contrib/ashesd.conf
# The threat model goes with every install: what stops each attack.
dist_doc_DATA = SECURITY.md

# systemd: the unit, a sysusers.d and a tmpfiles.d snippet.  The
# directories come from systemd's pkg-config file, under this build's
# $(prefix) (/usr/local/lib/systemd/system for the default prefix, which
# systemd searches too; /usr/lib/systemd/system with --prefix=/usr), so
# `make install` and distcheck stay inside the prefix; without systemd.pc,
# $(prefix)/lib/... .  Override on the command line, e.g.
#   make install systemdsystemunitdir=/lib/systemd/system
# The unit names /usr/sbin/ashesd and /etc/ashesd; installing rewrites
# them to this build's $(sbindir) and $(sysconfdir).
EXTRA_DIST += systemd/ashesd.service systemd/ashesd.sysusers systemd/ashesd.tmpfiles
ashesd_systemd_var = $(PKG_CONFIG) --define-variable=prefix='$(prefix)' \
	--define-variable=rootprefix='$(prefix)' --variable
systemdsystemunitdir = $$($(ashesd_systemd_var)=systemdsystemunitdir systemd 2>/dev/null || echo '$(prefix)/lib/systemd/system')
sysusersdir = $$($(ashesd_systemd_var)=sysusersdir systemd 2>/dev/null || echo '$(prefix)/lib/sysusers.d')
tmpfilesdir = $$($(ashesd_systemd_var)=tmpfilesdir systemd 2>/dev/null || echo '$(prefix)/lib/tmpfiles.d')
install-data-local: install-ashesd-systemd
uninstall-local: uninstall-ashesd-systemd
install-ashesd-systemd:
	@unitdir="$(systemdsystemunitdir)"; test -n "$$unitdir" || unitdir='$(prefix)/lib/systemd/system'; \
	usersdir="$(sysusersdir)"; test -n "$$usersdir" || usersdir='$(prefix)/lib/sysusers.d'; \
	tmpdir="$(tmpfilesdir)"; test -n "$$tmpdir" || tmpdir='$(prefix)/lib/tmpfiles.d'; \
	echo " installing ashesd.service in $(DESTDIR)$$unitdir"; \
	$(MKDIR_P) "$(DESTDIR)$$unitdir" "$(DESTDIR)$$usersdir" "$(DESTDIR)$$tmpdir" && \
	sed -e 's|/usr/sbin/ashesd|$(sbindir)/ashesd|g' -e 's|/etc/ashesd|$(sysconfdir)/ashesd|g' \
		$(srcdir)/systemd/ashesd.service > "$(DESTDIR)$$unitdir/ashesd.service" && \
	chmod 644 "$(DESTDIR)$$unitdir/ashesd.service" && \
	$(INSTALL_DATA) $(srcdir)/systemd/ashesd.sysusers "$(DESTDIR)$$usersdir/ashesd.conf" && \
	$(INSTALL_DATA) $(srcdir)/systemd/ashesd.tmpfiles "$(DESTDIR)$$tmpdir/ashesd.conf"
uninstall-ashesd-systemd:
	@unitdir="$(systemdsystemunitdir)"; test -n "$$unitdir" || unitdir='$(prefix)/lib/systemd/system'; \
	usersdir="$(sysusersdir)"; test -n "$$usersdir" || usersdir='$(prefix)/lib/sysusers.d'; \
	tmpdir="$(tmpfilesdir)"; test -n "$$tmpdir" || tmpdir='$(prefix)/lib/tmpfiles.d'; \
	rm -f "$(DESTDIR)$$unitdir/ashesd.service" "$(DESTDIR)$$usersdir/ashesd.conf" \
		"$(DESTDIR)$$tmpdir/ashesd.conf"
.PHONY: install-ashesd-systemd uninstall-ashesd-systemd
