#!/bin/sh
# need.sh: make sure a tool is installed. As root it installs the Debian
# package with apt-get; otherwise it prints the one command that would.
# usage: need.sh COMMAND-OR-PATH PACKAGE...
what=$1; shift
case $what in
/*) [ -e "$what" ] && exit 0 ;;
*) command -v "$what" >/dev/null 2>&1 && exit 0 ;;
esac
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
	echo "kobold: installing $* (for $what)" >&2
	export DEBIAN_FRONTEND=noninteractive
	apt-get install -y -qq "$@" >/dev/null 2>&1 && exit 0
	apt-get update -qq >/dev/null 2>&1
	apt-get install -y -qq "$@" >/dev/null && exit 0
	echo "kobold: apt-get install $* failed" >&2
	exit 1
fi
echo "kobold: $what is missing; install it with: sudo apt-get install $*" >&2
exit 1
