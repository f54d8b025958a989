#!/bin/sh
# scenario.sh: busybox's sh on Kobold (tests/test_userspace.py): a pipeline,
# a loop, a redirection into a sysfs attribute, a mount of proc, ps.
echo "pipeline: $(echo one two three | wc -w)"
for i in 1 2 3; do echo "loop $i"; done
echo 1 > /sys/class/sbd/sbd0/ro
echo "ro: $(cat /sys/class/sbd/sbd0/ro)"
echo 0 > /sys/class/sbd/sbd0/ro
mkdir -p /tmp/proc2 && mount -t proc proc /tmp/proc2
echo "proc: $(cut -d' ' -f2 /tmp/proc2/self/stat)"
umount /tmp/proc2
echo "ps: $(ps | grep -c '\[kthreadd\]')"
sleep 0.1 && echo "slept"
echo "args: $0 $#"
