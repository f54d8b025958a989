#!/bin/sh
# classroom-setup.sh: GitHub Classroom's runner (Ubuntu) gets the packages that the
# labs' checkers need, those missing only (labs/classroom/.github/workflows/classroom.yml).
set -e
cd "$(dirname "$0")/.."
missing=""
for pair in make:make gcc:gcc nm:binutils qemu-system-i386:qemu-system-x86 python3:python3 \
	py:pexpect:python3-pexpect; do
	pkg=${pair##*:}
	tool=${pair%:*}
	case $tool in
	py:*) /usr/bin/python3 -c "import ${tool#py:}" 2>/dev/null || missing="$missing $pkg" ;;
	*) command -v "$tool" >/dev/null 2>&1 || missing="$missing $pkg" ;;
	esac
done
ls /usr/lib/gcc/x86_64-linux-gnu/*/32/libgcc.a >/dev/null 2>&1 || missing="$missing gcc-multilib"
if [ -z "$missing" ]; then
	echo "classroom-setup: every package is here"
	exit 0
fi
sudo=
[ "$(id -u)" = 0 ] || sudo=sudo
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends $missing
