#!/bin/sh
# need.sh: make sure a tool is installed. As root it installs the Debian
# packages with apt-get; otherwise (or with KOBOLD_NO_INSTALL=1) it prints the
# one command that would, and fails.
# usage: need.sh WHAT PACKAGE...
#   WHAT: a command on PATH, an absolute path, or py:MODULE (for /usr/bin/python3)
what=$1; shift

have() {
	case $what in
	py:*) /usr/bin/python3 -c "import ${what#py:}" >/dev/null 2>&1 ;;
	/*) [ -e "$what" ] ;;
	*) command -v "$what" >/dev/null 2>&1 ;;
	esac
}

have && exit 0
if [ "$(id -u)" = 0 ] && [ "${KOBOLD_NO_INSTALL:-0}" != 1 ] && command -v apt-get >/dev/null 2>&1; then
	echo "kobold: installing $* (for $what)" >&2
	export DEBIAN_FRONTEND=noninteractive
	apt="apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends"
	$apt "$@" >/dev/null 2>&1 || { apt-get -o DPkg::Lock::Timeout=600 update -qq >/dev/null 2>&1; $apt "$@" >/dev/null; }
	have && exit 0
	echo "kobold: apt-get install $* did not give $what" >&2
	exit 1
fi
sudo=sudo
[ "$(id -u)" = 0 ] && sudo=
echo "kobold: $what is missing; install it with: ${sudo:+$sudo }apt-get install $*" >&2
exit 1
