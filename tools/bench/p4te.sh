# summary: P4TE loop latency p50/p99 per stage: queue-depth event packet-in to the routing-group writes' answer (Mininet leaf-spine, or --local: controller + one p4switch)
# Sourced by ./fairfabric bench. Usage:
#   ./fairfabric bench p4te [SECONDS] [--prefix P]   leaf-spine in Mininet, SECONDS (default 10) of on/off UDP bursts
#   ./fairfabric bench p4te --local [SAMPLES]         the controller in one JVM against one p4switch (leaf1), no Mininet
# Both print the loop's p50/p99 and where the time goes; docs/controller.md defines what is measured.
# The local run's JVM runs C1 only, as the controller does (FF_P4TE_JAVA_OPTS replaces that).

if [ -z "${FF_ROOT:-}" ]; then  # run directly rather than by ./fairfabric bench
    set -euo pipefail
    FF_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
    export FF_ROOT
    # shellcheck source=../lib/common.sh
    source "$FF_ROOT/tools/lib/common.sh"
fi

# The local run's interfaces, named after the caller's prefix (default cl): leaf1's port 1 (h1 at
# its far end, in network namespace <prefix>h1) and uplinks 5-8 (far ends left alone); removed on exit.
FF_P4TE_IFS=""
FF_P4TE_NETNS=""
ff_p4te_local_cleanup() {
    local j
    for j in $FF_P4TE_IFS; do
        ip link del "$j" 2>/dev/null || true
    done
    [ -n "$FF_P4TE_NETNS" ] && ip netns del "$FF_P4TE_NETNS" 2>/dev/null || true
}
ff_p4te_local() {
    local prefix="$1" samples="$2" ifs=() i ns="${1}h1"
    for i in 1 5 6 7 8; do
        ifs+=("${prefix}q$i")
    done
    FF_P4TE_IFS="${ifs[*]}"
    FF_P4TE_NETNS="$ns"
    trap ff_p4te_local_cleanup EXIT
    ff_p4te_local_cleanup
    ip netns add "$ns"
    for i in "${ifs[@]}"; do
        ip link add "$i" type veth peer name "${i}p"
        sysctl -qw "net.ipv6.conf.$i.disable_ipv6=1" || true
        ip link set "$i" up
    done
    ip link set "${prefix}q1p" netns "$ns"
    ip netns exec "$ns" sysctl -qw net.ipv6.conf.all.disable_ipv6=1 || true
    ip netns exec "$ns" ip addr add 10.0.1.1/8 dev "${prefix}q1p"
    ip netns exec "$ns" ip link set lo up
    ip netns exec "$ns" ip link set "${prefix}q1p" up
    for i in 5 6 7 8; do
        sysctl -qw "net.ipv6.conf.${prefix}q${i}p.disable_ipv6=1" || true
        ip link set "${prefix}q${i}p" up
    done
    local cp
    cp="$FF_ROOT/apps/controller/target/classes:$(cat "$FF_ROOT/apps/controller/target/runtime-classpath.txt")"
    (cd "$FF_ROOT" && java ${FF_P4TE_JAVA_OPTS:--XX:TieredStopAtLevel=1} -cp "$cp" org.fairfabric.controller.bench.P4teLoopBench bin/p4switch \
        "$(IFS=,; echo "${ifs[*]}")" "$ns" "$samples")
}

ff_p4te_main() {
    local local_run=0 prefix="" positional=()
    while [ $# -gt 0 ]; do
        case "$1" in
            --local) local_run=1 ;;
            --prefix) prefix="${2:?--prefix needs a value}"; shift ;;
            -h|--help) sed -n '2,6p' "${BASH_SOURCE[0]}"; return 0 ;;
            -*) die "bench p4te: unknown option $1" ;;
            *) positional+=("$1") ;;
        esac
        shift
    done
    need_root "bench p4te"
    ensure_setup
    if [ "$local_run" = 1 ]; then
        ff_p4te_local "${prefix:-cl}" "${positional[0]:-400}"
    else
        (cd "$FF_ROOT/mininet" && "$FF_VENV/bin/python" -m fairfabric_mn.p4te_bench \
            --seconds "${positional[0]:-10}" --prefix "${prefix:-fb}")
    fi
}
ff_p4te_main "$@"
