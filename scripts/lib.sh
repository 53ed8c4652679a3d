# Shared by the top-level scripts: JDK discovery and package installation.
# Sourced, not run.

PINMX_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

# Exports JAVA_HOME (a JDK the build can use, see find-jdk.sh) and puts it first on PATH, or exits with find-jdk's message.
pinmx_use_jdk() {
  JAVA_HOME=$("$PINMX_ROOT/scripts/find-jdk.sh") || exit 1
  export JAVA_HOME
  export PATH="$JAVA_HOME/bin:$PATH"
}

# apt-get with the arguments given, one at a time across pinmx's scripts: run-tests.sh boots both kernels' VMs at
# once, and two apt-get runs collide on dpkg's lock instead of waiting for each other.
pinmx_apt() {
  (
    flock -w 1800 9 || { echo "pinmx: waited 30 min for another pinmx apt-get run" >&2; exit 1; }
    DEBIAN_FRONTEND=noninteractive apt-get "$@"
  ) 9>/run/pinmx-apt.lock
}

# Installs the Debian packages named in "$@" that are missing: apt-get as root, otherwise
# a clear message naming them.
pinmx_need_packages() {
  local missing=() p
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  if [ "$(id -u)" -ne 0 ]; then
    echo "pinmx: missing Debian packages: ${missing[*]} (run as root, or: sudo apt-get install ${missing[*]})" >&2
    exit 1
  fi
  echo "pinmx: installing ${missing[*]}" >&2
  pinmx_apt update -q >/dev/null
  pinmx_apt install -y -q "${missing[@]}" >/dev/null
}

# Debian kernels of a series (6.1 or 6.12) with image, modules and headers: the VM harness boots them and the
# packaging checks build against their headers. pinmx_kernel_release SERIES prints the newest installed release,
# installing the series' packages first when there is none (as root; otherwise it fails naming them).
pinmx_installed_kernel() {
  local img rel
  for img in /boot/vmlinuz-"$1".*-amd64; do
    [ -e "$img" ] || continue
    rel=${img#/boot/vmlinuz-}
    [ -f "/lib/modules/$rel/modules.dep" ] && [ -f "/usr/src/linux-headers-$rel/Makefile" ] && echo "$rel"
  done | sort -V | tail -n 1
}

pinmx_newest_612_image() {
  apt-cache pkgnames linux-image-6.12. | grep -E '^linux-image-6\.12\.[0-9]+\+deb12-amd64$' | sort -V | tail -n 1 || true
}

pinmx_kernel_packages() {
  if [ "$1" = 6.1 ]; then
    echo linux-image-amd64 linux-headers-amd64
    return
  fi
  local image
  image=$(pinmx_newest_612_image)
  if [ -z "$image" ] && [ "$(id -u)" -eq 0 ]; then
    pinmx_apt update -q >/dev/null
    image=$(pinmx_newest_612_image)
  fi
  if [ -z "$image" ]; then
    echo "pinmx: apt knows no linux-image-6.12.*+deb12-amd64 package (is bookworm-updates/security in sources.list?)" >&2
    return 1
  fi
  echo "$image" "linux-headers-${image#linux-image-}"
}

pinmx_kernel_release() {
  local series=$1 release packages
  case $series in 6.1 | 6.12) ;; *) echo "pinmx: kernel series must be 6.1 or 6.12, not '$series'" >&2; return 1 ;; esac
  release=$(pinmx_installed_kernel "$series")
  if [ -z "$release" ]; then
    packages=$(pinmx_kernel_packages "$series") || return 1
    if [ "$(id -u)" -ne 0 ]; then
      echo "pinmx: no installed $series kernel with modules and headers; as root run: apt-get install $packages" >&2
      return 1
    fi
    echo "pinmx: installing $packages" >&2
    pinmx_apt update -q >/dev/null
    # shellcheck disable=SC2086 # a list of package names
    pinmx_apt install -y -q $packages >/dev/null
    release=$(pinmx_installed_kernel "$series")
    if [ -z "$release" ]; then
      echo "pinmx: installed $packages but still found no $series kernel with modules and headers" >&2
      return 1
    fi
  fi
  echo "$release"
}

# MPJ Express 0.44 (mpj-device builds against it and runs MPJ programs on it): Debian's libmpj-java, not in
# Maven Central.
PINMX_MPJ_HOME=/usr/share/mpj
PINMX_MPJ_JARS=/usr/share/java/mpj.jar:/usr/share/java/log4j-1.2.jar
pinmx_need_mpj() {
  pinmx_need_packages libmpj-java liblog4j1.2-java
}

# mvn in batch mode with the chosen JDK; Maven itself comes from Debian when absent.
pinmx_mvn() {
  command -v mvn >/dev/null || pinmx_need_packages maven
  pinmx_need_mpj
  # Maven's own Guava warns about sun.misc.Unsafe on JDK >= 23; the flag that silences it
  # does not exist on 22.
  local opts=${MAVEN_OPTS:-}
  if "$JAVA_HOME/bin/java" --sun-misc-unsafe-memory-access=allow -version >/dev/null 2>&1; then
    opts="$opts --sun-misc-unsafe-memory-access=allow"
  fi
  MAVEN_OPTS=$opts mvn -B -ntp -Dstyle.color=never "$@"
}

# The JVM flags every pinmx JVM carries (FFM native access, Chronicle Map's opens); the
# parent pom's <pinmx.jvm.opens> property is their one source.
pinmx_jvm_flags() {
  sed -n 's:.*<pinmx.jvm.opens>\(.*\)</pinmx.jvm.opens>.*:\1:p' "$PINMX_ROOT/pom.xml"
}

# Prints the runtime classpath of a module (its jar plus dependencies), building it only when needed: the
# classpath of the last build is kept in target/pinmx-classpath/MODULE, and reused while no pom.xml or
# src/main file of the tree is newer and every entry still exists. Concurrent callers (every task of a Slurm
# job) serialise on a lock: the first builds, the others wait and reuse its result. Maven's output goes to
# target/pinmx-classpath/MODULE.log and is shown only when the build fails.
pinmx_classpath() {
  local module=$1 dir=$PINMX_ROOT/target/pinmx-classpath
  local stamp=$dir/$module
  mkdir -p "$dir"
  if pinmx_classpath_fresh "$stamp"; then cat "$stamp"; return 0; fi
  (
    exec 9>"$stamp.lock"
    if ! flock -n 9; then
      echo "pinmx: waiting for another build of $module to finish" >&2
      flock 9
    fi
    if pinmx_classpath_fresh "$stamp"; then cat "$stamp"; exit 0; fi
    echo "pinmx: building $module (sources changed since the last build)" >&2
    local cpfile=$stamp.deps log=$stamp.log jar
    if ! { pinmx_mvn -q -DskipTests -pl "$module" -am install &&
           pinmx_mvn -q -pl "$module" dependency:build-classpath -Dmdep.outputFile="$cpfile"; } >"$log" 2>&1; then
      echo "pinmx: building $module failed; the end of $log:" >&2
      tail -n 40 "$log" >&2
      exit 1
    fi
    jar=$(ls "$PINMX_ROOT/$module"/target/*.jar | grep -v -e sources -e tests | head -n 1)
    echo "$jar:$(cat "$cpfile")" > "$stamp.new" && mv "$stamp.new" "$stamp"
    rm -f "$cpfile"
    cat "$stamp"
  )
}

# True when the classpath recorded in $1 is newer than every pom.xml and src/main file of the tree and each of
# its entries exists.
pinmx_classpath_fresh() {
  local stamp=$1 entry
  [ -s "$stamp" ] || return 1
  [ -z "$(find "$PINMX_ROOT" \( -name target -o -name .git -o -name kmod \) -prune -o \
           \( -name pom.xml -o -path '*/src/main/*' \) -type f -newer "$stamp" -print -quit)" ] || return 1
  local IFS=:
  for entry in $(cat "$stamp"); do [ -e "$entry" ] || return 1; done
}

# Makes network namespaces $1 and $2 joined by a veth pair whose ends are named after them, addresses $3 and $4
# (/24) on the ends, MTU $5 (default 1500), every link up: two "hosts" on one machine (needs root and iproute2).
# The caller removes them (ip netns del).
pinmx_veth_namespaces() {
  local ns=("$1" "$2") addr=("$3" "$4") mtu=${5:-1500} side
  ip netns add "${ns[0]}"
  ip netns add "${ns[1]}"
  ip link add "${ns[0]}" netns "${ns[0]}" type veth peer name "${ns[1]}" netns "${ns[1]}"
  for side in 0 1; do
    ip -n "${ns[$side]}" link set "${ns[$side]}" mtu "$mtu"
    ip -n "${ns[$side]}" addr add "${addr[$side]}/24" dev "${ns[$side]}"
    ip -n "${ns[$side]}" link set "${ns[$side]}" up
    ip -n "${ns[$side]}" link set lo up
  done
}

# Runs `bin/pinmx-run ARGS...` as the two ranks of one job, rank i in namespace $1/$2 reached at address $3/$4
# (made by pinmx_veth_namespaces): the user driver over UDP, PINMX_PEER_TIMEOUT_MS 30 s unless set (a rank in its
# JIT warm-up on a loaded host can go unheard longer than the library's 5 s), HOME and each rank's out-RANK and
# err-RANK in directory $5, job id $6; environment variables given as NAME=VALUE before ARGS (up to a `--`) go to
# both ranks. With PINMX_VETH_CPUS="C0 C1" set, rank i's whole process runs on CPU Ci (taskset), as a baseline bound
# that way runs. Waits for both; when one failed, shows both ranks' stderr and returns its status.
pinmx_veth_ranks() {
  local ns=("$1" "$2") addr=("$3" "$4") dir=$5 job=$6 rank status=0 pids=() vars=()
  shift 6
  while [ $# -gt 0 ] && [ "$1" != "--" ]; do vars+=("$1"); shift; done
  [ $# -gt 0 ] && shift
  local cpus=(${PINMX_VETH_CPUS:-}) bind
  for rank in 0 1; do
    bind=()
    [ ${#cpus[@]} -eq 2 ] && bind=(taskset -c "${cpus[$rank]}")
    "${bind[@]}" ip netns exec "${ns[$rank]}" env -u PINMX_RANK -u PINMX_SIZE -u PINMX_BOOTSTRAP \
      HOME="$dir" SLURM_JOB_ID="$job" SLURM_STEP_ID=0 SLURM_PROCID=$rank SLURM_NTASKS=2 \
      PINMX_ADDRESS="${addr[$rank]}" PINMX_DRIVER=user PINMX_PEER_TIMEOUT_MS="${PINMX_PEER_TIMEOUT_MS:-30000}" \
      "${vars[@]}" bin/pinmx-run "$@" >"$dir/out-$rank" 2>"$dir/err-$rank" &
    pids+=($!)
  done
  for rank in 0 1; do
    wait "${pids[$rank]}" || status=$?
  done
  if [ "$status" -ne 0 ]; then
    for rank in 0 1; do
      echo "--- rank $rank stderr" >&2
      cat "$dir/err-$rank" >&2
    done
  fi
  return "$status"
}
