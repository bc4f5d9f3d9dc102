#!/bin/sh
# Install the Debian packages interloper needs, once: as root, apt-get
# installs whatever is missing; as anyone else, print the exact command.
#
#   sh scripts/deps.sh PACKAGE...          what the build needs: missing and
#                                          not root is an error
#   sh scripts/deps.sh --test PACKAGE...   what only tests need (slurm-wlm,
#                                          munge, parallel): not root, they
#                                          are named and the tests that need
#                                          them skip
#
# Test packages must not start daemons on the machine: Debian starts munge
# and slurmd on install.  So while they install, /usr/sbin/policy-rc.d
# answers 101 (no start; invoke-rc.d and deb-systemd-invoke ask it), and
# the services they ship are not enabled at boot either; a policy-rc.d
# that was there is put back as it was.
set -eu
test_only=0
if [ "${1:-}" = --test ]; then
	test_only=1
	shift
fi
missing=""
for p in "$@"; do
	st=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
	case "$st" in
	*" installed") ;;
	*) missing="$missing $p" ;;
	esac
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" -ne 0 ]; then
	if [ "$test_only" -eq 1 ]; then
		echo "interloper: tests that need$missing will be skipped; as root: apt-get install -y$missing" >&2
		exit 0
	fi
	echo "interloper: missing Debian packages:$missing" >&2
	echo "interloper: run as root: apt-get install -y$missing" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
policy=/usr/sbin/policy-rc.d
saved=''
if [ "$test_only" -eq 1 ]; then
	if [ -e "$policy" ]; then
		saved=$(mktemp "$policy.interloper.XXXXXX")
		cp -p "$policy" "$saved"
	fi
	restore() {
		if [ -n "$saved" ]; then
			mv "$saved" "$policy"
		else
			rm -f "$policy"
		fi
	}
	trap restore EXIT
	printf '#!/bin/sh\n# interloper scripts/deps.sh: no daemon starts while test packages install\nexit 101\n' >"$policy"
	chmod 755 "$policy"
	echo "interloper: installing Debian packages for tests, no service started:$missing" >&2
else
	echo "interloper: installing Debian packages:$missing" >&2
fi
installed() { dpkg-query -W -f='${Package} ${Status}\n' | sed -n 's/ install ok installed$//p' | sort; }
before=$(installed)
apt-get update -qq >/dev/null
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $missing >/dev/null
if [ "$test_only" -eq 1 ] && command -v systemctl >/dev/null; then
	# nor at the next boot: the services of every package this installed,
	# those pulled in included (slurm-wlm's slurmd, slurmctld)
	installed | while IFS= read -r p; do
		case "$(printf '%s\n' "$before" | grep -Fx -- "$p")" in
		'') dpkg -L "$p" 2>/dev/null | sed -n 's|^/lib/systemd/system/\([^/]*\.service\)$|\1|p' ;;
		esac
	done | while IFS= read -r unit; do
		systemctl disable --quiet "$unit" 2>/dev/null || :
	done
fi
