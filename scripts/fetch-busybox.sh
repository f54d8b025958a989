#!/bin/sh
# fetch-busybox.sh: Debian's busybox-static for i386, unpacked into DIR
# (DIR/bin/busybox), with `apt-get download` after `dpkg --add-architecture
# i386`. As root it adds the architecture and updates the lists when needed;
# otherwise it names the commands to run.
# usage: fetch-busybox.sh DIR
set -e
dir=$1
mkdir -p "$dir"
sudo=sudo
[ "$(id -u)" = 0 ] && sudo=
if ! dpkg --print-foreign-architectures | grep -qx i386; then
	if [ -n "$sudo" ] || [ "${KOBOLD_NO_INSTALL:-0}" = 1 ]; then
		echo "kobold: busybox-static:i386 needs the i386 architecture: sudo dpkg --add-architecture i386 && sudo apt-get update" >&2
		exit 1
	fi
	echo "kobold: adding the i386 architecture for busybox-static:i386" >&2
	dpkg --add-architecture i386
	apt-get -o DPkg::Lock::Timeout=600 update -qq >/dev/null
fi
rm -f "$dir"/busybox-static_*.deb
if ! (cd "$dir" && apt-get download -q busybox-static:i386 >/dev/null 2>&1); then
	if [ -n "$sudo" ]; then
		echo "kobold: apt-get download busybox-static:i386 failed; try: sudo apt-get update" >&2
		exit 1
	fi
	apt-get -o DPkg::Lock::Timeout=600 update -qq >/dev/null
	(cd "$dir" && apt-get download -q busybox-static:i386 >/dev/null 2>&1) || {
		echo "kobold: apt-get download busybox-static:i386 failed" >&2
		exit 1
	}
fi
dpkg-deb -x "$dir"/busybox-static_*.deb "$dir"
test -x "$dir/bin/busybox"
