#!/usr/bin/env bash
# Builds pinmx.ko and its C tests for one of Debian 12's kernels, boots that kernel under
# qemu (TCG) with a busybox initramfs and the host root shared read-only over 9p, loads
# the module and runs the C tests, a command or Java tests inside; see README.md.
# The last line is `vm-<series>: N passed, N failed`; exits non-zero on any failure.
set -euo pipefail

vm_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source-path=SCRIPTDIR source=../../scripts/lib.sh
source "$vm_dir/../../scripts/lib.sh"
repo=$PINMX_ROOT

usage() {
	cat <<EOF
usage: kmod/vm/run-tests.sh [--kernel 6.1|6.12] [--module-params "..."]
                            [--cmd CMD | --java MODULES | --shell]
                            [--timeout SECONDS] [--keep-log FILE]
  --kernel         kernel series to boot (default 6.1)
  --module-params  parameters for insmod pinmx.ko, e.g. "pin_mode=2 budget=1024"
  (default)        run the C tests: kmod/tests/run-guest-tests.sh
  --cmd CMD        run CMD with bash in the guest's chroot (cwd: the repo); its status is the result
  --java MODULES   run the JUnit 5 tests of these comma-separated Maven modules in the guest
  --shell          interactive root shell in the guest instead (serial console; Ctrl-A X quits qemu)
  --timeout SEC    kill the guest and fail after SEC seconds (default 600, 1800 with --java)
  --keep-log FILE  save the guest's whole serial console log to FILE
environment: PINMX_BUILD (build dir, default <repo>/build), PINMX_KMOD_SRC (module source,
default <repo>/kmod), PINMX_VM_MEM (guest RAM, default 4G), PINMX_VM_SMP (guest CPUs, default 2),
PINMX_VM_TCG_THREAD (single: all vCPUs on one host thread, the default; multi: one each),
PINMX_VM_JAVA_OPTS (guest JVM options for --java, default "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC"),
PINMX_VM_JAVA_SELECT (--java runs only these comma-separated test classes or Class#method),
PINMX_VM_JAVA_EXCLUDE_TAGS (--java leaves out the test classes and tests with these comma-separated JUnit tags)
EOF
}

die() {
	echo "vm: $*" >&2
	exit 2
}

series=6.1 module_params="" mode=tests cmd="" java_modules="" timeout="" keep_log=""
while [ $# -gt 0 ]; do
	case $1 in
	--kernel) series=${2:?--kernel needs 6.1 or 6.12}; shift 2 ;;
	--module-params) module_params=${2?--module-params needs a value}; shift 2 ;;
	--cmd) mode=cmd cmd=${2:?--cmd needs a command}; shift 2 ;;
	--java) mode=java java_modules=${2:?--java needs comma-separated Maven modules}; shift 2 ;;
	--shell) mode=shell; shift ;;
	--timeout) timeout=${2:?--timeout needs seconds}; shift 2 ;;
	--keep-log) keep_log=${2:?--keep-log needs a file}; shift 2 ;;
	-h | --help) usage; exit 0 ;;
	*) usage >&2; die "unknown argument: $1" ;;
	esac
done
case $series in 6.1 | 6.12) ;; *) die "--kernel must be 6.1 or 6.12, not '$series'" ;; esac
[[ ${timeout:=$([ "$mode" = java ] && echo 1800 || echo 600)} =~ ^[0-9]+$ ]] || die "--timeout must be a number of seconds"
tag="vm-$series"

# --- packages and kernel -------------------------------------------------------------

# liburing-dev: the guest runs the host's root read-only, and kmod/bench compares with io_uring there.
pinmx_need_packages qemu-system-x86 busybox-static cpio xz-utils iproute2 kmod make gcc git liburing-dev

release=$(pinmx_kernel_release "$series") || die "no $series kernel to boot (see above)"
kernel_image=/boot/vmlinuz-$release
headers=/usr/src/linux-headers-$release
[ -r "$kernel_image" ] || die "cannot read $kernel_image (Debian installs it mode 0600): run as root"
echo "# vm: kernel $release"

# --- build directory ------------------------------------------------------------------

build_root=${PINMX_BUILD:-$repo/build}
mkdir -p "$build_root"
build_root=$(cd "$build_root" && pwd)
kmod_src=${PINMX_KMOD_SRC:-$repo/kmod}
work=$build_root/vm/$release
mkdir -p "$work"
work=$(cd "$work" && pwd)
# Paths travel on the kernel command line and are word-split in the guest.
for p in "$work" "$vm_dir" "$repo" "$build_root"; do
	[[ $p =~ ^[A-Za-z0-9._/+-]+$ ]] || die "path '$p' has characters the guest command line cannot carry; set PINMX_BUILD to a plain path"
done

exec {lock_fd}>"$work/lock"
if ! flock -n "$lock_fd"; then
	echo "# vm: another run uses $work; waiting for it (at most 30 min)"
	flock -w 1800 "$lock_fd" || die "gave up waiting for the lock on $work"
fi

qemu_pid="" follow_pid="" run_dir=""
cleanup() {
	if [ -n "$qemu_pid" ] && kill -0 "$qemu_pid" 2>/dev/null; then
		kill "$qemu_pid" 2>/dev/null || true
		wait "$qemu_pid" 2>/dev/null || true
	fi
	if [ -n "$follow_pid" ]; then
		kill "$follow_pid" 2>/dev/null || true
		wait "$follow_pid" 2>/dev/null || true
	fi
	[ -z "$run_dir" ] || rm -rf "$run_dir"
}
trap cleanup EXIT
trap 'echo "vm: interrupted" >&2; exit 130' INT
trap 'echo "vm: terminated" >&2; exit 143' TERM

# --- module and C tests -----------------------------------------------------------------

# Mirrors the module's source files (git's view: tracked or untracked-not-ignored, minus
# vm/) into $2 with their timestamps, so kbuild rebuilds only what changed; files that
# left the source since the last sync are removed from the copy.
sync_sources() {
	local src=$1 dst=$2 list old
	list=$(mktemp) old=$dst/.pinmx-sources
	git -C "$src" ls-files --cached --others --exclude-standard -z . \
		| tr '\0' '\n' | grep -v '^vm/' | while IFS= read -r f; do [ -e "$src/$f" ] && echo "$f"; done \
		| sort >"$list"
	[ -s "$list" ] || die "no source files in $src (is it inside a git work tree?)"
	mkdir -p "$dst"
	tar -C "$src" -cf - -T "$list" | tar -C "$dst" -xpf -
	if [ -f "$old" ]; then
		comm -23 "$old" "$list" | while IFS= read -r f; do rm -f "$dst/$f"; done
	fi
	mv "$list" "$old"
}

[ -f "$kmod_src/Makefile" ] || die "no $kmod_src/Makefile: the module source is missing"
copy=$work/kmod
bin_dir=$work/tests-bin
sync_sources "$kmod_src" "$copy"
echo "# vm: building the module in $copy"
make -s -C "$copy" KDIR="$headers" || die "module build failed for $release"
ko=$copy/pinmx.ko
[ -f "$ko" ] || die "the module build did not produce $ko"
if [ "$mode" = tests ]; then
	[ -f "$copy/tests/Makefile" ] || die "no C tests: $kmod_src/tests/Makefile is missing"
	mkdir -p "$bin_dir"
	make -s -C "$copy/tests" OUT="$bin_dir" || die "C test build failed"
	[ -x "$copy/tests/run-guest-tests.sh" ] || die "$kmod_src/tests/run-guest-tests.sh is missing or not executable"
fi

# --- initramfs --------------------------------------------------------------------------

# The 9p client modules of this release (dependencies first), unless built in.
boot_modules() {
	local dir=/lib/modules/$release
	local -A seen=()
	visit() {
		local name=$1 path deps d
		[ -z "${seen[$name]:-}" ] || return 0
		seen[$name]=1
		grep -qE "/$name\.ko(\.[a-z]+)?\$" "$dir/modules.builtin" && return 0
		path=$(grep -E "(^|/)$name\.ko(\.[a-z]+)?:" "$dir/modules.dep" | head -n 1) \
			|| die "$release has no module $name"
		deps=${path#*:}
		for d in $deps; do
			d=${d##*/}
			visit "${d%%.ko*}"
		done
		echo "$dir/${path%%:*}"
	}
	for m in virtio_pci 9pnet_virtio 9p; do visit "$m"; done
}

# Under TCG, decompressing the bzImage takes seconds of every boot. Booting the uncompressed
# ELF kernel through its PVH entry point (Debian's kernels have CONFIG_PVH) skips that.
vmlinux=$work/vmlinux
vmlinux_key=$(sha256sum "$kernel_image" | cut -d' ' -f1)
if [ ! -f "$vmlinux" ] || [ "$(cat "$vmlinux.key" 2>/dev/null)" != "$vmlinux_key" ]; then
	# The boot protocol header says where the compressed payload sits in the bzImage; its
	# last 4 bytes are the uncompressed size, not compressed data.
	header_u32() { od -An -tu4 -j "$1" -N4 "$kernel_image" | tr -d ' '; }
	setup_sects=$(od -An -tu1 -j $((0x1f1)) -N1 "$kernel_image" | tr -d ' ')
	[ "$setup_sects" -ne 0 ] || setup_sects=4
	payload_start=$(((setup_sects + 1) * 512 + $(header_u32 $((0x248)))))
	payload_length=$(($(header_u32 $((0x24c))) - 4))
	magic=$(od -An -tx1 -j "$payload_start" -N4 "$kernel_image" | tr -d ' ')
	case $magic in
	fd377a58) unpack=(xz -dc) ;;
	28b52ffd) pinmx_need_packages zstd; unpack=(zstd -qdc) ;;
	*) die "$kernel_image: kernel payload of unknown compression (magic $magic)" ;;
	esac
	dd if="$kernel_image" iflag=skip_bytes,count_bytes skip="$payload_start" count="$payload_length" bs=1M status=none \
		| "${unpack[@]}" >"$vmlinux.tmp" \
		|| die "could not unpack the kernel from $kernel_image"
	mv "$vmlinux.tmp" "$vmlinux"
	echo "$vmlinux_key" >"$vmlinux.key"
fi

busybox=/bin/busybox
mapfile -t modules < <(boot_modules)
initramfs=$work/initramfs.cpio
key=$({ echo "$release"; sha256sum "$busybox" "$vm_dir/guest-init.sh" "${modules[@]}"; } | sha256sum | cut -d' ' -f1)
if [ ! -f "$initramfs" ] || [ "$(cat "$initramfs.key" 2>/dev/null)" != "$key" ]; then
	echo "# vm: building the initramfs (${#modules[@]} modules)"
	staging=$(mktemp -d "$work/initramfs.XXXXXX")
	mkdir -p "$staging"/{bin,dev,proc,sys,modules}
	cp "$busybox" "$staging/bin/busybox"
	cp "$vm_dir/guest-init.sh" "$staging/init"
	chmod 755 "$staging/init"
	i=10
	for m in "${modules[@]}"; do
		name=${m##*/}
		name=${name%%.ko*}.ko
		case $m in
		*.ko.xz) xz -dc "$m" >"$staging/modules/$i-$name" ;;
		*.ko) cp "$m" "$staging/modules/$i-$name" ;;
		*) die "cannot unpack $m (Debian 12 uses .ko and .ko.xz)" ;;
		esac
		i=$((i + 1))
	done
	(cd "$staging" && find . | LC_ALL=C sort | cpio -o -H newc --quiet) >"$initramfs.tmp"
	mv "$initramfs.tmp" "$initramfs"
	echo "$key" >"$initramfs.key"
	rm -rf "$staging"
fi

# --- what the guest runs -----------------------------------------------------------------

run_dir=$(mktemp -d "$work/run.XXXXXX")
chmod 755 "$run_dir"
java_home=""
case $mode in
tests)
	run=("$copy/tests/run-guest-tests.sh" "$bin_dir")
	;;
cmd)
	java_home=$("$repo/scripts/find-jdk.sh" 2>/dev/null) || java_home=""
	run=(bash -c "$cmd")
	;;
shell)
	run=(bash -c 'exec setsid -cw bash -i </dev/ttyS0 >/dev/ttyS0 2>&1')
	;;
java)
	pinmx_use_jdk
	java_home=${JAVA_HOME:?}
	IFS=, read -ra mods <<<"$java_modules"
	[ ${#mods[@]} -gt 0 ] || die "--java needs at least one module"
	for m in "${mods[@]}"; do
		[ -f "$repo/$m/pom.xml" ] || die "--java: no Maven module $m (no $repo/$m/pom.xml)"
	done
	echo "# vm: building ${java_modules} and resolving their test classpath on the host"
	# Another kernel's run may build and snapshot the same modules at the same time (run-tests.sh boots both
	# kernels at once): one at a time, until the snapshot is taken.
	mkdir -p "$build_root/vm"
	exec {maven_fd}>"$build_root/vm/maven.lock"
	flock -w 1800 "$maven_fd" || die "gave up waiting for another run's Maven build ($build_root/vm/maven.lock)"
	# package (incremental) so reactor siblings resolve to their jars in target/.
	mvn_log=$work/maven.log
	(cd "$repo" && pinmx_mvn -q -DskipTests -pl "$java_modules" -am package \
		dependency:build-classpath -Dmdep.outputFile=target/pinmx-vm.classpath -Dmdep.includeScope=test) \
		>"$mvn_log" 2>&1 || { cat "$mvn_log"; die "Maven could not build $java_modules"; }
	junit_version=$(sed -n 's:.*<junit.version>5\.\([0-9.]*\)</junit.version>.*:\1:p' "$repo/pom.xml")
	[ -n "$junit_version" ] || die "no <junit.version>5.x.y</junit.version> in $repo/pom.xml"
	launcher_version=1.$junit_version
	launcher=$build_root/vm/java/junit-platform-console-standalone-$launcher_version.jar
	if [ ! -f "$launcher" ]; then
		(cd "$repo" && pinmx_mvn -q -N dependency:copy \
			-Dartifact="org.junit.platform:junit-platform-console-standalone:$launcher_version" \
			-DoutputDirectory="$build_root/vm/java") >"$mvn_log" 2>&1 \
			|| { cat "$mvn_log"; die "could not fetch junit-platform-console-standalone $launcher_version"; }
	fi
	# The guest runs a snapshot of everything built in the repo: a Maven run of someone else
	# on the host must not swap classes under the JVM in the guest.
	snapshot() {
		local e=$1
		case $e in
		"$repo"/*)
			local copy_of=$run_dir/snapshot/${e#"$repo"/}
			if [ ! -e "$copy_of" ]; then
				mkdir -p "$(dirname "$copy_of")"
				cp -a "$e" "$copy_of"
			fi
			echo "$copy_of"
			;;
		*) echo "$e" ;;
		esac
	}
	read -ra jvm_flags <<<"$(pinmx_jvm_flags)"
	# Under TCG, C2 compilations and parallel GC threads cost more than they return: C1 and
	# the serial GC halved region-cache's test time in the guest. PINMX_VM_JAVA_OPTS overrides.
	read -ra guest_jvm_opts <<<"${PINMX_VM_JAVA_OPTS--XX:TieredStopAtLevel=1 -XX:+UseSerialGC}"
	# One launcher per module, run from the module's directory as Surefire does (tests may
	# read files relative to it); the script fails if any of them failed.
	script=$run_dir/java-tests.sh
	echo 'status=0' >"$script"
	for m in "${mods[@]}"; do
		t=$repo/$m/target
		if [ ! -d "$t/test-classes" ]; then
			echo "# vm: $m has no compiled tests (target/test-classes); skipped"
			continue
		fi
		IFS=: read -ra deps <<<"$(cat "$t/pinmx-vm.classpath")"
		entries=("$launcher")
		for e in "$t/test-classes" "$t/classes" "${deps[@]}"; do
			[ -e "$e" ] && entries+=("$(snapshot "$e")")
		done
		classpath=$(printf '%s\n' "${entries[@]}" | awk 'NF && !seen[$0]++' | paste -sd:)
		# jdk.console=java.base: the default JLine console runs stty, and the guest has no tty.
		launch=("$java_home/bin/java" "${jvm_flags[@]}" "${guest_jvm_opts[@]}" -Djava.io.tmpdir=/tmp
			-Djdk.console=java.base -cp "$classpath"
			org.junit.platform.console.ConsoleLauncher execute --disable-banner --disable-ansi-colors
			--details=tree --details-theme=ascii --fail-if-no-tests)
		# PINMX_VM_JAVA_SELECT=Class[#method],... runs only those tests (a CI run of one kernel-tests
		# class under TCG is minutes, the whole module much longer); otherwise every test of the module.
		if [ -n "${PINMX_VM_JAVA_SELECT:-}" ]; then
			IFS=, read -ra selected <<<"$PINMX_VM_JAVA_SELECT"
			for c in "${selected[@]}"; do
				case $c in
				*#*) launch+=(--select-method="$c") ;;
				*) launch+=(--select-class="$c") ;;
				esac
			done
		else
			launch+=(--scan-class-path="$(snapshot "$t/test-classes")")
		fi
		# PINMX_VM_JAVA_EXCLUDE_TAGS=tag,... leaves out the test classes and tests carrying one of these JUnit tags.
		if [ -n "${PINMX_VM_JAVA_EXCLUDE_TAGS:-}" ]; then
			IFS=, read -ra excluded <<<"$PINMX_VM_JAVA_EXCLUDE_TAGS"
			for excluded_tag in "${excluded[@]}"; do
				launch+=(--exclude-tag="$excluded_tag")
			done
		fi
		{
			printf 'echo %q\n' "# vm: JUnit tests of $m"
			printf 'cd %q || status=1\n' "$repo/$m"
			printf '%q ' "${launch[@]}"
			printf '|| status=1\n'
		} >>"$script"
	done
	echo "exit \$status" >>"$script"
	grep -q ConsoleLauncher "$script" || die "--java: none of $java_modules has compiled tests (target/test-classes)"
	exec {maven_fd}>&-
	run=(bash "$script")
	;;
esac

nonce=$(od -An -N6 -tx1 /dev/urandom | tr -d ' \n')
{
	printf 'PINMX_NONCE=%q\n' "$nonce"
	printf 'PINMX_KO=%q\n' "$ko"
	printf 'PINMX_BUILD_DIR=%q\n' "$copy"
	printf 'PINMX_MODULE_PARAMS=%q\n' "$module_params"
	printf 'PINMX_JAVA_HOME=%q\n' "$java_home"
	printf 'PINMX_CWD=%q\n' "$repo"
	printf 'PINMX_RUN=('
	printf '%q ' "${run[@]}"
	printf ')\n'
} >"$run_dir/env"

# --- boot -----------------------------------------------------------------------------------

console=$run_dir/console.log
share=local,path=/,mount_tag=host,security_model=none,readonly=on,multidevs=remap
# Two vCPUs on one TCG thread: the guest is really SMP (kernel races get interleaved) but
# never loses a vCPU holding a lock to the host scheduler; with thread=multi on this busy
# 2-core host `java -version` took 14-23 s instead of 3 s.
qemu=(qemu-system-x86_64 -accel "tcg,thread=${PINMX_VM_TCG_THREAD:-single}" -cpu max -smp "${PINMX_VM_SMP:-2}" -m "${PINMX_VM_MEM:-4G}"
	-nodefaults -display none -no-reboot
	-kernel "$vmlinux" -initrd "$initramfs"
	-append "console=ttyS0 panic=-1 quiet pinmx_stage2=$vm_dir/guest-stage2.sh pinmx_env=$run_dir/env pinmx_nonce=$nonce pinmx_keep=$repo:$build_root"
	-virtfs "$share")

if [ "$mode" = shell ]; then
	echo "# vm: interactive shell; Ctrl-A X quits qemu"
	"${qemu[@]}" -serial mon:stdio
	exit
fi

start=$SECONDS
: >"$console"
"${qemu[@]}" -serial "file:$console" -monitor none </dev/null 2>"$run_dir/qemu.err" &
qemu_pid=$!
tail -s 0.2 -n +1 -f --pid="$qemu_pid" "$console" | tr -d '\r' &
follow_pid=$!

sentinel="PINMX-VM-EXIT-$nonce"
deadline=$((start + timeout)) timed_out=0 power_off_deadline=""
while kill -0 "$qemu_pid" 2>/dev/null; do
	if [ "$SECONDS" -ge "$deadline" ]; then
		timed_out=1
		break
	fi
	# Once the result is out, a guest that fails to power off is only a nuisance.
	if [ -z "$power_off_deadline" ] && grep -aq "$sentinel" "$console"; then
		power_off_deadline=$((SECONDS + 15))
	fi
	if [ -n "$power_off_deadline" ] && [ "$SECONDS" -ge "$power_off_deadline" ]; then
		break
	fi
	sleep 0.2
done
kill "$qemu_pid" 2>/dev/null || true
qemu_status=0
wait "$qemu_pid" || qemu_status=$?
qemu_pid=""
wait "$follow_pid" || true
follow_pid=""
elapsed=$((SECONDS - start))

# --- verdict --------------------------------------------------------------------------------

log=$(tr -d '\r' <"$console")
if [ -s "$run_dir/qemu.err" ]; then
	sed 's/^/# qemu: /' "$run_dir/qemu.err"
fi
if [ -n "$keep_log" ]; then
	{ printf '%s\n' "$log"; sed 's/^/# qemu: /' "$run_dir/qemu.err"; } >"$keep_log"
fi

count() { grep -aEc "$1" <<<"$log" || true; }
exit_status=$(grep -aoE "$sentinel [0-9]+" <<<"$log" | tail -n 1 | cut -d' ' -f2 || true)
result=$(grep -aoE "PINMX-VM-RESULT-$nonce .*" <<<"$log" | tail -n 1 || true)
field() { sed -n "s/.* $1=\([^ ]*\).*/\1/p" <<<"$result"; }

passed=0 failed=0
case $mode in
tests)
	passed=$(count '^ok [0-9]+')
	failed=$(count '^not ok [0-9]+')
	plan=$(grep -aoE '^1\.\.[0-9]+' <<<"$log" | tail -n 1 | cut -d. -f3 || true)
	if [ -z "$plan" ]; then
		[ -z "$result" ] || echo "# vm: the C tests printed no TAP plan (1..N)"
		failed=$((failed + 1))
	elif [ $((passed + failed)) -lt "$plan" ]; then
		echo "# vm: the TAP plan announced $plan tests, $((passed + failed)) reported"
		failed=$((plan - passed))
	fi
	;;
java)
	# One summary per module: add them up.
	passed=$(grep -aoE '\[ *[0-9]+ tests successful *\]' <<<"$log" | tr -dc '0-9\n' | awk '{n += $1} END {print n + 0}')
	failed=$(grep -aoE '\[ *[0-9]+ tests failed *\]' <<<"$log" | tr -dc '0-9\n' | awk '{n += $1} END {print n + 0}')
	;;
cmd)
	[ "$(field cmd)" = 0 ] && passed=1
	;;
esac
# A non-zero command status counts as a failure even when no test line said so.
if [ -n "$result" ] && [ "$(field cmd)" != 0 ] && [ "$failed" -eq 0 ]; then
	failed=1
fi
for check in insmod kmsg rmmod; do
	case $(field "$check") in
	ok | clean) ;;
	"") ;;
	*) echo "# vm: $check: $(field "$check")"; failed=$((failed + 1)) ;;
	esac
done
if [ -z "$exit_status" ]; then
	if [ "$timed_out" -eq 1 ]; then
		echo "# vm: guest did not finish within $timeout s; killed qemu"
	elif grep -aq 'Kernel panic' <<<"$log"; then
		echo "# vm: guest kernel panicked"
	else
		echo "# vm: guest stopped without a result (qemu status $qemu_status)"
	fi
	failed=$((failed + 1))
elif [ "$exit_status" -ne 0 ] && [ "$failed" -eq 0 ]; then
	echo "# vm: guest exited with status $exit_status"
	failed=1
fi

echo "# vm: $release, mode $mode, ${elapsed} s in the guest"
echo "$tag: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
