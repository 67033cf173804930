#!/usr/bin/env bash
# netns-run.sh: run a command inside a private network namespace whose
# loopback is throttled with a token bucket (tc tbf), so that MPI ranks on one
# machine talk over an emulated interconnect (SPEC.md, "Measuring on one
# machine: the emulated interconnect"):
#
#   unshare -n: ip link set lo mtu 9000 up
#               tc qdisc add dev lo root tbf rate RATE burst 64kb latency 1s
#               sysctl net.ipv4.tcp_no_metrics_save=1 (no TCP state across runs)
#   Open MPI forced onto TCP over lo (pml ob1, btl self,tcp, if_include lo)
#
# usage: netns-run.sh [--rate RATE] [--burst B] [--latency L] [--unthrottled]
#                     [--check] [--] COMMAND [ARGS...]
#   --rate RATE      tbf rate, tc syntax (env TUCANA_NET_RATE; default 1gbit)
#   --burst B        tbf burst (env TUCANA_NET_BURST; default 64kb; must exceed
#                    the MTU and stay small next to one iteration's traffic)
#   --latency L      tbf latency (env TUCANA_NET_LATENCY; default 1s)
#   --unthrottled    no namespace, no tbf: only the TCP-over-lo settings
#   --check          set up, print the network line, run nothing
#
# Prints one line on stderr before the command runs:
#   network: tbf RATE (burst B, latency L, lo mtu 9000)
#   network: unthrottled (REASON)
# If the namespace or the qdisc cannot be set up (no permission, unshare/ip/tc
# missing, no tbf in the kernel) the command still runs, unthrottled and over
# TCP, and the line says why. The exit status is the command's.
set -uo pipefail

self=netns-run.sh
rate=${TUCANA_NET_RATE:-1gbit}
burst=${TUCANA_NET_BURST:-64kb}
latency=${TUCANA_NET_LATENCY:-1s}
mtu=9000
unthrottled_reason=""
check=0
inside=0
failfile=/dev/null

usage() { awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; }

while [ $# -gt 0 ]; do
  case "$1" in
    -h | --help) usage; exit 0 ;;
    --rate) rate=${2:?--rate needs a value}; shift 2 ;;
    --rate=*) rate=${1#*=}; shift ;;
    --burst) burst=${2:?--burst needs a value}; shift 2 ;;
    --burst=*) burst=${1#*=}; shift ;;
    --latency) latency=${2:?--latency needs a value}; shift 2 ;;
    --latency=*) latency=${1#*=}; shift ;;
    --unthrottled) unthrottled_reason="--unthrottled given"; shift ;;
    --check) check=1; shift ;;
    --inside-netns) inside=1; failfile=$2; shift 2 ;;  # internal: the child in the namespace
    --) shift; break ;;
    -*) echo "$self: unknown option '$1' (see --help)" >&2; exit 2 ;;
    *) break ;;
  esac
done
if [ $# -eq 0 ] && [ $check = 0 ]; then
  echo "$self: no command to run (see --help)" >&2
  exit 2
fi

# Keep MPI on TCP over the loopback, in or out of the namespace.
tcp_over_lo() {
  export OMPI_MCA_pml=ob1
  export OMPI_MCA_btl=self,tcp
  export OMPI_MCA_btl_tcp_if_include=lo
  export OMPI_MCA_oob_tcp_if_include=lo
  # mpirun as root (containers) and the namespace's "root" under unshare -r
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
  # MPICH (ch4:ucx / ch4:ofi): no shared memory between local ranks, TCP on lo
  export MPIR_CVAR_NOLOCAL=1 UCX_TLS=tcp,self UCX_NET_DEVICES=lo
  export FI_PROVIDER=tcp FI_TCP_IFACE=lo
}

# say_network TEXT: the "network: TEXT" line on stderr, and TUCANA_NETWORK=TEXT
# in the command's environment (run_bench.py --netns once reads it).
say_network() {
  echo "network: $1" >&2
  export TUCANA_NETWORK="$1"
}

run_it() {
  if [ $check = 1 ]; then exit 0; fi
  exec "$@"
}

# ---- inside the new namespace: set up lo and the qdisc, then run.
if [ $inside = 1 ]; then
  tcp_over_lo
  if ! err=$(ip link set lo mtu $mtu up 2>&1); then
    # lo stays down: nothing could connect. Tell the parent to run outside.
    echo "could not bring up lo in the namespace: ${err//$'\n'/ }" >"$failfile"
    exit 1
  fi
  # Every TCP connection starts afresh: no congestion metrics (ssthresh,
  # cwnd) cached from an earlier run in this namespace (--netns once).
  echo 1 >/proc/sys/net/ipv4/tcp_no_metrics_save 2>/dev/null || true
  if ! command -v tc >/dev/null 2>&1; then
    say_network "unthrottled (tc not found; install iproute2)"
  elif ! err=$(tc qdisc add dev lo root tbf rate "$rate" burst "$burst" latency "$latency" 2>&1); then
    say_network "unthrottled (tc qdisc add ... tbf failed: ${err//$'\n'/ })"
  elif ! tc qdisc show dev lo 2>/dev/null | grep -q tbf; then
    say_network "unthrottled (the tbf qdisc did not appear on lo)"
  else
    say_network "tbf $rate (burst $burst, latency $latency, lo mtu $mtu)"
  fi
  run_it "$@"
fi

# ---- outside: enter a namespace (or explain why not).
if [ -z "$unthrottled_reason" ]; then
  if ! command -v unshare >/dev/null 2>&1; then
    unthrottled_reason="unshare not found (util-linux)"
  elif ! command -v ip >/dev/null 2>&1; then
    unthrottled_reason="ip not found (iproute2)"
  else
    # root: a plain network namespace; others: a user namespace mapped to
    # root, which may create a network namespace where unprivileged user
    # namespaces are allowed.
    if [ "$(id -u)" = 0 ]; then ns=(unshare --net); else ns=(unshare --user --map-root-user --net); fi
    if probe=$("${ns[@]}" -- true 2>&1); then
      failfile=$(mktemp "${TMPDIR:-/tmp}/netns-run.XXXXXX") || exit 1
      "${ns[@]}" -- bash "$0" --inside-netns "$failfile" --rate "$rate" --burst "$burst" \
        --latency "$latency" $([ $check = 1 ] && echo --check) -- "$@"
      rc=$?
      unthrottled_reason=$(cat "$failfile" 2>/dev/null)
      rm -f "$failfile"
      [ -z "$unthrottled_reason" ] && exit $rc
    else
      unthrottled_reason="${ns[*]} failed: ${probe//$'\n'/ }"
    fi
  fi
fi

[ "$unthrottled_reason" != "--unthrottled given" ] && echo "$self: running without the emulated interconnect: $unthrottled_reason" >&2
say_network "unthrottled ($unthrottled_reason)"
tcp_over_lo
run_it "$@"
