#!/bin/sh
# tests/mail/crypt-helper.sh SRCDIR DIR -- the fixtures of test_crypt,
# made at test time with real gpg (nothing secret is committed):
#   club/   the club's keyring: its secret key (ed25519 signing primary,
#           cv25519 encryption subkey) and alice's public key
#   alice/  alice's secret key, the public keys of club and other
#   other/  a key that is not the club's (to encrypt to)
#   sub/    a key whose primary only certifies and a subkey signs;
#           outlook-sub.eml is its mail as GpgOL writes it (key attached
#           as an octet-stream .asc)
#   fpr.NAME  primary fingerprints;  body.txt  a move;
#   tb.eml tb2.eml dc.eml inline.eml  signed+encrypted mails as
#           Thunderbird (its default one layer, its two MIME layers),
#           Delta Chat and gpg -sea write them (client-mail.py)
#   other.eml  encrypted to other;  bomb.gpg  encrypted to club, holding
#           nested compressed packets of 4 GiB of zeros (pgp-bomb.py,
#           gpg --no-literal)
# `crypt-helper.sh --kill DIR` stops the agents.
set -eu
if [ "$1" = "--kill" ]; then
	for h in club alice other sub; do
		gpgconf --homedir "$2/$h" --kill gpg-agent 2>/dev/null || true
	done
	exit 0
fi
S=$1
D=$2
now=$(date +%s)
cd "$D"
g() {
	home=$1
	shift
	gpg --homedir "$home" --batch --quiet --no-tty --pinentry-mode loopback \
		--passphrase '' --trust-model always "$@" 2>>gpg.log
}
for h in club alice other sub; do
	mkdir -p $h
	chmod 700 $h
done
past=$((now - 30 * 86400))
g club --faked-system-time $past --quick-gen-key "Club <club@example.org>" ed25519 sign never
g alice --faked-system-time $past --quick-gen-key "Alice <alice@example.org>" ed25519 sign never
g other --faked-system-time $past --quick-gen-key "Other <other@example.org>" ed25519 sign never
# sub signs with a subkey, its primary only certifies (as many keys do)
g sub --faked-system-time $past --quick-gen-key "Sub <sub@example.org>" ed25519 cert never
for h in club alice other sub; do
	g $h --list-keys --with-colons | awk -F: '/^fpr/ { print $10; exit }' > fpr.$h
done
g club --faked-system-time $past --quick-add-key "$(cat fpr.club)" cv25519 encr never
g other --faked-system-time $past --quick-add-key "$(cat fpr.other)" cv25519 encr never
g sub --faked-system-time $past --quick-add-key "$(cat fpr.sub)" ed25519 sign never
g sub --list-keys --with-colons | awk -F: '/^fpr/ { n++; if (n == 2) print $10 }' > fpr.subkey
g club --export club@example.org > club.pub
g other --export other@example.org > other.pub
g alice --export alice@example.org > alice.pub
g alice --import club.pub other.pub
g club --import alice.pub
printf 'move e2e4\n' > body.txt
for shape in tb tb-encrypted-two-layers:tb2 dc inline; do
	name=${shape#*:} shape=${shape%:*}
	case $shape in *-*) ;; *) shape=$shape-encrypted ;; esac
	python3 "$S/tests/mail/client-mail.py" $shape --home alice \
		--signer alice@example.org --recipient club@example.org \
		--from alice@example.org --to club@example.org body.txt > $name.eml
done
python3 "$S/tests/mail/client-mail.py" inline-encrypted --home alice \
	--signer alice@example.org --recipient other@example.org \
	--from alice@example.org --to club@example.org body.txt > other.eml
python3 "$S/tests/mail/client-mail.py" autocrypt --home alice \
	--signer alice@example.org --from alice@example.org \
	--to club@example.org body.txt > autocrypt.eml
python3 "$S/tests/mail/client-mail.py" outlook --home sub \
	--signer sub@example.org --from sub@example.org \
	--to club@example.org body.txt > outlook-sub.eml
python3 "$S/tests/mail/pgp-bomb.py" bomb 4 > bomb.bin
g alice --no-literal --encrypt --recipient club@example.org \
	--compress-algo none -o bomb.gpg bomb.bin
