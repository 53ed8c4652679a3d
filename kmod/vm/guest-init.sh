#!/bin/busybox sh
# /init of the pinmx test VM (busybox, PID 1). Loads the 9p modules packed next to it,
# mounts the host root read-only, builds the guest layout under it, chroots into it to
# run guest-stage2.sh and prints the sentinel the host waits for, then powers off.
# The kernel command line hands over pinmx_stage2, pinmx_env, pinmx_nonce and pinmx_keep.
# shellcheck shell=sh

/bin/busybox --install -s /bin
export PATH=/bin

say() { echo "# vm: $*"; }

finish() {
	echo "PINMX-VM-EXIT-${pinmx_nonce:-unset} $1"
	sync
	poweroff -f
	# poweroff -f never returns; if it did, leaving PID 1 panics and qemu exits (-no-reboot).
	exit "$1"
}

must() {
	"$@" || { say "init: failed: $*"; finish 125; }
}

must mount -t proc proc /proc
must mount -t sysfs sysfs /sys
must mount -t devtmpfs devtmpfs /dev

for ko in /modules/*.ko; do
	[ -e "$ko" ] || continue
	must insmod "$ko"
done

must mkdir -p /host
# Read-only host root; cache=loose is safe because nothing writes through this mount and
# it makes class loading and exec from 9p several times faster.
must mount -t 9p -o trans=virtio,version=9p2000.L,ro,msize=262144,cache=loose host /host

must mount -t proc proc /host/proc
must mount -t sysfs sysfs /host/sys
must mount -t debugfs debugfs /host/sys/kernel/debug
must mount -t devtmpfs devtmpfs /host/dev
must mkdir -p /host/dev/pts /host/dev/shm
must mount -t devpts -o newinstance,ptmxmode=0666 devpts /host/dev/pts
must mount -t tmpfs -o mode=1777 tmpfs /host/dev/shm
# devtmpfs has no /dev/fd; bash process substitution (bin/pinmx-run) needs it.
must ln -s /proc/self/fd /host/dev/fd
# The host's copies of these directories stay reachable under /orig so that the trees the
# run needs (pinmx_keep: the repo and its build dir, e.g. a CI clone under /tmp) can be
# bound back in on top of the guest's empty tmpfs.
for d in /tmp /run /var/tmp; do
	must mkdir -p "/orig$d"
	must mount --bind "/host$d" "/orig$d"
	must mount -t tmpfs -o mode=1777 tmpfs "/host$d"
done
for keep in $(echo "${pinmx_keep:-}" | tr ':' ' '); do
	for d in /tmp /run /var/tmp; do
		case "$keep" in
		"$d"/*)
			must mkdir -p "/host$keep"
			must mount --bind "/orig$keep" "/host$keep"
			;;
		esac
	done
done

must ip link set lo up

# The kernel's own module requests (ip link add ... type veth, tc ... netem) run the
# modprobe helper in this root, not in the chroot: send them to the host's modprobe.
must printf '#!/bin/sh\nexec chroot /host /sbin/modprobe "$@"\n' >/bin/modprobe-host
must chmod 755 /bin/modprobe-host
must sh -c 'echo /bin/modprobe-host >/proc/sys/kernel/modprobe'

if [ -z "${pinmx_stage2:-}" ] || [ -z "${pinmx_env:-}" ]; then
	say "init: pinmx_stage2 or pinmx_env missing from the kernel command line"
	finish 125
fi
chroot /host /bin/bash "$pinmx_stage2" "$pinmx_env"
finish $?
