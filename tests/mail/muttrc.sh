# tests/mail/muttrc.sh -- mutt_rc DIR FPR FROM NAME: the muttrc with which
# mutt signs a mail by its own code (crypt_use_gpgme + crypt_autosign) as
# FPR, from FROM, and hands it to DIR/sendmail.sh, its files in DIR.
# POSIX sh: sourced by gpg-helper.sh (run with sh) and e2e/lib-inbound.sh.
mutt_rc() {
	cat <<MUTTRC
set crypt_use_gpgme=yes crypt_autosign=yes pgp_sign_as="$2" pgp_autoinline=no crypt_opportunistic_encrypt=no
set sendmail="$1/sendmail.sh" from="$3" realname="$4" use_from=yes charset="utf-8" send_charset="utf-8"
set copy=no record="" postpone=no abort_unmodified=no editor="true" edit_headers=no
set spoolfile=/dev/null folder="$1" tmpdir="$1"
MUTTRC
}
