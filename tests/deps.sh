#!/bin/sh
# Install the Debian packages schedlab needs, if any is missing.
# As root: apt-get install them. Otherwise: say exactly what to run.
missing=""
for p in "$@"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" = 0 ]; then
	echo "schedlab: installing:$missing"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq >/dev/null || { echo "schedlab: apt-get update failed" >&2; exit 1; }
	apt-get install -y -qq --no-install-recommends $missing >/dev/null || {
		echo "schedlab: error: apt-get install$missing failed" >&2; exit 1; }
else
	echo "schedlab: error: missing packages; run as root: apt-get install$missing" >&2
	exit 1
fi
