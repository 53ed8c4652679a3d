# Shared by the top-level scripts: JDK discovery, package installation, builds, the version line, the launcher's
# checks of a job's environment and its wait for local ranks. Sourced, not run.

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

# JDK 25's AOT cache (JEP 483/514/515: classes loaded and linked, call sites resolved and method profiles, all
# recorded by a training run) for the local ranks of a job. PINMX_AOT_CACHE: off (default), on (the caches in
# $HOME/.pinmx/aot) or the absolute path of their directory. A cache belongs to one launch configuration: the JDK,
# the JVM flags, the main class and the class path with each entry's size and modification time, so a cache is never
# offered to another class path and a rebuilt jar gets a new one (the JVM itself refuses a cache that does not match
# its class path or flags, on stderr, and runs without it).
# pinmx_aot_cache MAIN_CLASS CLASSPATH FLAGS...: prints that configuration's cache file; nothing when PINMX_AOT_CACHE
# is off, the JDK is older than 25, or the class path holds a directory (the JVM caches classes from jars only).
pinmx_aot_cache() {
  local dir=${PINMX_AOT_CACHE:-off} main=$1 cp=$2 version config contents entry
  shift 2
  [ "$dir" = off ] && return 0
  [ "$dir" = on ] && dir=$HOME/.pinmx/aot
  version=$(sed -n 's/^JAVA_RUNTIME_VERSION="\(.*\)"/\1/p' "$JAVA_HOME/release")
  [[ "$version" =~ ^([0-9]+) ]] && [ "${BASH_REMATCH[1]}" -ge 25 ] || return 0
  while read -r entry; do [ -d "$entry" ] && return 0; done < <(tr : '\n' <<<"$cp")
  config=$(printf '%s\n' "$JAVA_HOME" "$version" "$main" "$cp" "$@" | sha256sum | cut -c1-16)
  contents=$(tr : '\n' <<<"$cp" | while read -r entry; do
      stat -L -c '%n %s %Y' "$entry" 2>/dev/null || echo "$entry missing"
    done | sha256sum | cut -c1-16)
  echo "$dir/$config-$contents.aot"
}

# pinmx_aot_rank_flags CACHE RANK TRAINING: one rank's JVM flags: the cache when it exists; without one, rank 0
# records its class loading and profiles to the file TRAINING (when the cache's directory can be written) for
# pinmx_aot_create, and the other ranks run as without a cache. The JVM's word on the cache goes to stderr, not
# into the program's output.
pinmx_aot_rank_flags() {
  local cache=$1 rank=$2 training=$3 log="-Xlog:aot*=off:stdout -Xlog:aot*=warning:stderr"
  [ -n "$cache" ] || return 0
  if [ -s "$cache" ]; then
    echo "-XX:AOTCache=$cache $log"
  elif [ "$rank" = 0 ] && mkdir -p "$(dirname "$cache")" 2>/dev/null && [ -w "$(dirname "$cache")" ]; then
    echo "-XX:AOTMode=record -XX:AOTConfiguration=$training $log"
  fi
}

# pinmx_aot_create CACHE TRAINING CLASSPATH FLAGS...: after a job that ended well, makes CACHE from rank 0's
# TRAINING file (the JVM's output goes to CACHE.log), puts it in place whole and removes the caches of the same
# configuration made for other class path contents. A failure is one line on stderr: the job's own status stands.
pinmx_aot_create() {
  local cache=$1 training=$2 cp=$3 tmp=$1.$$.tmp
  shift 3
  [ -s "$training" ] || return 0
  if "$JAVA_HOME/bin/java" "$@" -XX:AOTMode=create -XX:AOTConfiguration="$training" -XX:AOTCache="$tmp" \
      -cp "$cp" >"$cache.log" 2>&1 && [ -s "$tmp" ]; then
    rm -f "${cache%-*}"-*.aot "${cache%-*}"-*.aot.log
    mv "$tmp" "$cache"
  else
    echo "pinmx: the AOT cache $cache could not be made (the JVM's output: $cache.log); later runs try again" >&2
    rm -f "$tmp"
  fi
  rm -f "$training"
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
# (/24) on the ends, MTU $5 (default PINMX_VETH_MTU, else 1500), every link up: two "hosts" on one machine (needs
# root and iproute2). The caller removes them (ip netns del).
pinmx_veth_namespaces() {
  local ns=("$1" "$2") addr=("$3" "$4") mtu=${5:-${PINMX_VETH_MTU:-1500}} side
  if ! [[ $mtu =~ ^[0-9]+$ ]] || [ "$mtu" -lt 576 ] || [ "$mtu" -gt 65535 ]; then
    local from=PINMX_VETH_MTU
    [ -n "${5:-}" ] && from="the caller"
    echo "pinmx: veth MTU $mtu (from $from): expected 576 to 65535 bytes" >&2
    return 2
  fi
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
# that way runs. PINMX_VETH_DRIVER=kernel runs the ranks on pinmx.ko instead (its frames on the veth ends that hold
# the addresses; the module must be loaded). Waits for both; when one failed, shows both ranks' stderr and returns
# its status.
pinmx_veth_ranks() {
  local ns=("$1" "$2") addr=("$3" "$4") dir=$5 job=$6 rank status=0 pids=() vars=() driver=${PINMX_VETH_DRIVER:-user}
  case "$driver" in
    user|kernel) ;;
    *) echo "pinmx: PINMX_VETH_DRIVER=$driver: expected user or kernel" >&2; return 2 ;;
  esac
  shift 6
  while [ $# -gt 0 ] && [ "$1" != "--" ]; do vars+=("$1"); shift; done
  [ $# -gt 0 ] && shift
  local cpus=(${PINMX_VETH_CPUS:-}) bind
  for rank in 0 1; do
    bind=()
    [ ${#cpus[@]} -eq 2 ] && bind=(taskset -c "${cpus[$rank]}")
    "${bind[@]}" ip netns exec "${ns[$rank]}" env -u PINMX_RANK -u PINMX_SIZE -u PINMX_BOOTSTRAP \
      HOME="$dir" SLURM_JOB_ID="$job" SLURM_STEP_ID=0 SLURM_PROCID=$rank SLURM_NTASKS=2 \
      PINMX_ADDRESS="${addr[$rank]}" PINMX_DRIVER="$driver" PINMX_PEER_TIMEOUT_MS="${PINMX_PEER_TIMEOUT_MS:-30000}" \
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

# Prints pinmx's version line: the project's version (the parent pom's), the ABI version the library speaks (the
# uapi header's PINMX_ABI_VERSION) and the loaded pinmx.ko's version, without starting a JVM.
pinmx_version() {
  local project abi module
  project=$(sed -n '0,/<version>/s:.*<version>\(.*\)</version>.*:\1:p' "$PINMX_ROOT/pom.xml")
  abi=$(sed -n 's/^#define PINMX_ABI_VERSION[[:space:]]*\([0-9]*\).*/\1/p' "$PINMX_ROOT/kmod/include/uapi/pinmx.h")
  if [ -r /sys/module/pinmx/version ]; then
    module="pinmx.ko $(cat /sys/module/pinmx/version) loaded"
  elif [ -d /sys/module/pinmx ]; then
    module="pinmx.ko loaded (no version)"
  else
    module="pinmx.ko not loaded"
  fi
  echo "pinmx $project, ABI $abi, $module"
}

# Checks the PINMX_* variables a job's ranks read (docs/environment.md) before any JVM starts: for the first bad
# one, prints one line naming it and what it may be, and returns 1.
pinmx_check_environment() {
  local v value problem=""
  for v in PINMX_PEER_TIMEOUT_MS PINMX_BOOTSTRAP_TIMEOUT_MS; do
    value=${!v-}
    [ -z "${!v+x}" ] && continue
    [[ "$value" =~ ^[1-9][0-9]{0,9}$ ]] && [ "$value" -le 2147483647 ] && continue
    problem="$v='$value': expected milliseconds, 1..2147483647"
    break
  done
  if [ -z "$problem" ]; then
    problem=$(pinmx_check_words PINMX_BIND core none &&
      pinmx_check_words PINMX_RMA_SHARED_MEMORY 0 1 &&
      pinmx_check_words PINMX_SAME_HOST 0 1 &&
      pinmx_check_words PINMX_RMA_RECALIBRATE 0 1 &&
      pinmx_check_words PINMX_RMA_STRIDED auto direct pack &&
      pinmx_check_words PINMX_RMA_CONTIGUOUS auto zerocopy stream &&
      pinmx_check_words PINMX_RMA_CALIBRATION full quick &&
      pinmx_check_words PINMX_MPJ_PROGRESS caller thread)
  fi
  # Empty is unset for these, as their Java readers take it.
  if [ -z "$problem" ] && [ -n "${PINMX_SHARED_PULL_MIN_BYTES:-}" ] && ! [[ "$PINMX_SHARED_PULL_MIN_BYTES" =~ ^[0-9]+$ ]]; then
    problem="PINMX_SHARED_PULL_MIN_BYTES='$PINMX_SHARED_PULL_MIN_BYTES': expected a byte count >= 0"
  fi
  if [ -z "$problem" ] && [ -n "${PINMX_SHM_DIR:-}" ] && [ ! -d "$PINMX_SHM_DIR" ]; then
    problem="PINMX_SHM_DIR='$PINMX_SHM_DIR': expected an existing directory (tmpfs, default /dev/shm)"
  fi
  if [ -z "$problem" ] && [ -n "${PINMX_ADDRESS:-}" ] && ! pinmx_is_ip "$PINMX_ADDRESS"; then
    problem="PINMX_ADDRESS='$PINMX_ADDRESS': expected an IP address of this host (e.g. 192.168.1.10)"
  fi
  # PINMX_ADDRESS wins over PINMX_IFACE, which is then not read.
  if [ -z "$problem" ] && [ -z "${PINMX_ADDRESS:-}" ] && [ -n "${PINMX_IFACE:-}" ] && { [[ "$PINMX_IFACE" == */* ]] ||
      [ ! -e "/sys/class/net/$PINMX_IFACE" ]; }; then
    problem="PINMX_IFACE='$PINMX_IFACE': expected a network interface of this host ($(ls /sys/class/net | tr '\n' ' ' | sed 's/ $//'))"
  fi
  if [ -z "$problem" ] && [ -n "${PINMX_RMA_DIR+x}" ] && [ ! -d "$PINMX_RMA_DIR" ]; then
    problem="PINMX_RMA_DIR='$PINMX_RMA_DIR': expected an existing directory (tmpfs, default /dev/shm)"
  fi
  if [ -z "$problem" ] && [ -n "${PINMX_AOT_CACHE:-}" ] && ! [[ "$PINMX_AOT_CACHE" =~ ^(off|on|/.*)$ ]]; then
    problem="PINMX_AOT_CACHE='$PINMX_AOT_CACHE': expected off, on or the absolute path of a directory"
  fi
  if [ -z "$problem" ] && [ -n "${PINMX_BOOTSTRAP:-}" ] && ! [[ "$PINMX_BOOTSTRAP" =~ ^(file:.+|.+:[0-9]+)$ ]]; then
    problem="PINMX_BOOTSTRAP='$PINMX_BOOTSTRAP': expected host:port (where rank 0 listens) or file:PATH"
  fi
  [ -z "$problem" ] && return 0
  echo "pinmx-run: $problem" >&2
  return 1
}

# pinmx_check_words VARIABLE WORD...: prints "VARIABLE='value': expected ..." and fails when VARIABLE is set to
# none of the words.
pinmx_check_words() {
  local v=$1 w
  shift
  [ -z "${!v+x}" ] && return 0
  for w in "$@"; do [ "${!v}" = "$w" ] && return 0; done
  local words=("$@") n=$#
  local allowed=${words[*]:0:n-1}
  echo "$v='${!v}': expected ${allowed// /, } or ${words[n-1]}"
  return 1
}

# True when $1 is an IPv4 address in dotted quads or an IPv6 address.
pinmx_is_ip() {
  local a=$1 part
  if [[ "$a" =~ ^[0-9]{1,3}(\.[0-9]{1,3}){3}$ ]]; then
    for part in ${a//./ }; do [ "$((10#$part))" -le 255 ] || return 1; done
    return 0
  fi
  [[ "$a" == *:* ]] && [[ "$a" =~ ^[0-9A-Fa-f:.]+(%[A-Za-z0-9._-]+)?$ ]]
}

# pinmx_wait_ranks PID...: waits for a job's local ranks (rank r's process is the r-th PID, children of this shell)
# and returns the job's status: 0 when every rank exited 0, else the first failed rank's. A failed rank stops the
# others (SIGTERM), said in one line on stderr. Every rank parses the same arguments and rank 0 alone says what is
# wrong with them, so a rank that exits with the usage status (2) first leaves the others 20 s to exit on their own
# before they are stopped: rank 0's line is never cut off by our signal. A tick every second wakes the
# wait to look for ranks that are gone, so an exit that wait -n does not report cannot leave the job waiting.
pinmx_wait_ranks() {
  local pids=("$@") alive=("$@") status=0 failed_rank="" grace="" tick="" finished rc pid rank still scan=""
  while [ ${#alive[@]} -gt 0 ]; do
    finished=""
    # After one rank found gone by the look below, look again before waiting: wait -n does not report a rank bash
    # has already collected, so it would sleep a tick for each of them.
    if [ -z "$scan" ]; then
      [ -n "$tick" ] || { sleep 1 & tick=$!; }
      # Bash may have collected some of these already (many ranks ending at once): wait -n then names each as "no
      # such job", which tells the user nothing; the look below finds them.
      wait -n -p finished "${alive[@]}" ${grace:+"$grace"} "$tick" 2>/dev/null
      rc=$?
      if [ "${finished:-}" = "$tick" ]; then
        tick=""
        finished=""
      fi
    fi
    # wait -n unsets the variable when it reports no job: bash may already have collected a rank that ended while
    # another was being reported, and then gives its status only to a wait on its pid.
    if [ -z "${finished:-}" ]; then
      finished="" scan=""
      for pid in "${alive[@]}" ${grace:+"$grace"}; do
        if ! kill -0 "$pid" 2>/dev/null; then
          wait "$pid"
          rc=$?
          finished=$pid scan=1
          break
        fi
      done
      [ -n "$finished" ] || continue
    fi
    if [ "$finished" = "$grace" ]; then
      grace=""
      pinmx_stop_ranks "$failed_rank" "$status" "${alive[@]}"
      continue
    fi
    still=()
    for pid in "${alive[@]}"; do [ "$pid" != "$finished" ] && still+=("$pid"); done
    alive=("${still[@]}")
    if [ "$rc" -ne 0 ] && [ "$status" -eq 0 ]; then
      status=$rc
      for ((rank = 0; rank < ${#pids[@]}; rank++)); do [ "${pids[$rank]}" = "$finished" ] && failed_rank=$rank; done
      if [ "$rc" -eq 2 ] && [ ${#alive[@]} -gt 0 ]; then
        sleep 20 &
        grace=$!
      else
        pinmx_stop_ranks "$failed_rank" "$status" "${alive[@]}"
      fi
    fi
  done
  [ -n "$grace" ] && kill "$grace" 2>/dev/null
  [ -n "$tick" ] && kill "$tick" 2>/dev/null
  return "$status"
}

# pinmx_stop_ranks RANK STATUS PID...: says that RANK failed with STATUS and sends SIGTERM to the PIDs. The last rank
# to end, with the usage status, adds nothing to what it said itself.
pinmx_stop_ranks() {
  local rank=$1 status=$2 pid
  shift 2
  if [ $# -gt 0 ]; then
    echo "pinmx-run: rank $rank exited with status $status; stopping the others" >&2
  elif [ "$status" -ne 2 ]; then
    echo "pinmx-run: rank $rank exited with status $status" >&2
  fi
  for pid in "$@"; do kill -TERM "$pid" 2>/dev/null; done
}
