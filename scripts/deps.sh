#!/bin/sh
# Install the Debian packages interloper needs, once: as root, apt-get
# installs whatever is missing; as anyone else, print the exact command.
set -eu
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
	echo "interloper: missing Debian packages:$missing" >&2
	echo "interloper: run as root: apt-get install -y$missing" >&2
	exit 1
fi
echo "interloper: installing Debian packages:$missing" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >/dev/null
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $missing >/dev/null
