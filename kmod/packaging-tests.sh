#!/usr/bin/env bash
# Tests what installing pinmx.ko on a real host relies on, on this host: `dkms build` of dkms.conf against
# every Debian kernel whose headers are under /usr/src (6.1 and 6.12: installed here when missing), each
# built module's modinfo (version = dkms.conf's PACKAGE_VERSION, abi_version = the uapi header's
# PINMX_ABI_VERSION, vermagic = that kernel), and udev/60-pinmx.rules through `udevadm test`. Everything
# happens in temporary trees (dkms --dkmstree/--sourcetree) and, for udev, in a private mount namespace over
# scratch /dev, /run, rules directory and group file, so the host's dkms state, devices and groups are left
# alone. Needs root (installs dkms when missing). Prints one "ok"/"not ok" line per check and last
# "packaging: N passed, N failed"; the exit status is 0 only if every check passed.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/../scripts/lib.sh"

passed=0 failed=0
check() { # check DESCRIPTION COMMAND...: runs COMMAND, prints ok/not ok and its output on failure
  local what=$1 out; shift
  if out=$("$@" 2>&1); then
    echo "ok - $what"; passed=$((passed + 1))
  else
    echo "not ok - $what"; sed 's/^/#   /' <<<"$out" | tail -n 20; failed=$((failed + 1))
  fi
}

[ "$(id -u)" -eq 0 ] || { echo "packaging-tests: needs root (dkms, mount namespaces)" >&2; exit 2; }
pinmx_need_packages dkms udev
# The headers of both series Debian 12 ships (the VM harness boots the same kernels; on a fresh host this step
# comes first, so it installs them itself).
for series in 6.1 6.12; do
  pinmx_kernel_release "$series" >/dev/null || echo "packaging-tests: no $series headers (see above)" >&2
done

version=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"$/\1/p' "$here/dkms.conf")
abi=$(sed -n 's/^#define PINMX_ABI_VERSION[[:space:]]*\([0-9]*\).*/\1/p' "$here/include/uapi/pinmx.h")
work=$(mktemp -d "${TMPDIR:-/tmp}/pinmx-packaging.XXXXXX")
trap 'rm -rf "$work"' EXIT

# The source tree dkms would get from `cp -r kmod /usr/src/pinmx-VERSION`, without the VM harness or build outputs.
src=$work/src/pinmx-$version
mkdir -p "$src" "$work/dkms"
(cd "$here" && tar --exclude=./vm --exclude='*.o' --exclude='*.ko' --exclude='.*.cmd' --exclude='*.mod' \
  --exclude='*.mod.c' --exclude=Module.symvers --exclude=modules.order -cf - .) | tar -xf - -C "$src"

modinfo_is() { # modinfo_is KO FIELD EXPECTED
  local got
  got=$(/sbin/modinfo -F "$2" "$1")
  [ "$got" = "$3" ] || { echo "$1: modinfo $2 is '$got', expected '$3'"; return 1; }
}
dkms_build() { # dkms_build KERNEL_RELEASE HEADERS
  dkms build -m pinmx -v "$version" -k "$1" --kernelsourcedir "$2" --dkmstree "$work/dkms" --sourcetree "$work/src"
}

kernels=0
for headers in /usr/src/linux-headers-*-amd64; do
  [ -f "$headers/Makefile" ] || continue
  release=${headers#/usr/src/linux-headers-}
  kernels=$((kernels + 1))
  check "dkms build against $release" dkms_build "$release" "$headers"
  # 6.12's Debian config compresses modules (pinmx.ko.xz); modinfo reads either.
  ko=$(ls "$work/dkms/pinmx/$version/$release/x86_64/module/"pinmx.ko* 2>/dev/null | head -n 1)
  ko=${ko:-$work/dkms/pinmx/$version/$release/x86_64/module/pinmx.ko}
  check "modinfo of the $release module: version $version, abi_version $abi" \
    bash -c "$(declare -f modinfo_is); modinfo_is '$ko' version '$version' && modinfo_is '$ko' abi_version '$abi'"
  check "the $release module's vermagic names $release" bash -c "/sbin/modinfo -F vermagic '$ko' | grep -q '^$release '"
done
check "kernel headers of 6.1 and 6.12 present (found $kernels amd64 header trees)" \
  bash -c "ls -d /usr/src/linux-headers-6.1.*-amd64 /usr/src/linux-headers-6.12.*-amd64"

# udev: the rule as shipped must parse cleanly; the same rule matched to a misc device this host has (fuse)
# must give it group pinmx and mode 0660. udevadm test applies permissions, so /dev and /run are scratch
# tmpfs in a private mount namespace, holding only a copy of that device node.
udev_rule_applies() {
  local dir=$work/udev rule=$here/udev/60-pinmx.rules
  mkdir -p "$dir/rules" "$dir/shipped"
  cp "$rule" "$dir/shipped/"
  sed 's/KERNEL=="pinmx"/KERNEL=="fuse"/' "$rule" > "$dir/rules/60-pinmx.rules"
  grep -q 'KERNEL=="fuse"' "$dir/rules/60-pinmx.rules" || { echo "rule does not match KERNEL==\"pinmx\""; return 1; }
  { cat /etc/group; echo "pinmx:x:64999:"; } > "$dir/group"
  [ -e /sys/class/misc/fuse ] || { echo "no /sys/class/misc/fuse to apply the rule to"; return 1; }
  local dev
  dev=$(cat /sys/class/misc/fuse/dev)
  unshare -m bash -c '
    set -e
    mount --make-rprivate /
    mount -t tmpfs none /dev && mknod /dev/fuse c '"${dev%:*} ${dev#*:}"'
    mount -t tmpfs none /run
    mount --bind '"$dir"'/group /etc/group
    mount --bind '"$dir"'/shipped /etc/udev/rules.d
    udevadm test --action=add /sys/class/misc/fuse > '"$dir"'/shipped.log 2>&1
    mount --bind '"$dir"'/rules /etc/udev/rules.d
    udevadm test --action=add /sys/class/misc/fuse > '"$dir"'/applied.log 2>&1
    stat -c "%G %a" /dev/fuse > '"$dir"'/result'
  if grep -n "60-pinmx.rules" "$dir/shipped.log" | grep -iv "reading rules file"; then
    echo "udevadm complained about the shipped rule (above)"; return 1
  fi
  grep -q "60-pinmx.rules:[0-9]* GROUP 64999" "$dir/applied.log" || { cat "$dir/applied.log"; return 1; }
  [ "$(cat "$dir/result")" = "pinmx 660" ] || { echo "device became $(cat "$dir/result"), expected pinmx 660"; return 1; }
}
check "udev rule: parses, gives the device to group pinmx with mode 0660" udev_rule_applies

echo "packaging: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
