#!/usr/bin/env bash
# summary: p4switch throughput (iperf3 TCP through the l3router program vs a Linux bridge) and P4Runtime inserts/s
#
# Two network namespaces (${BENCH_PREFIX}h1, ${BENCH_PREFIX}h2) joined through
# the root namespace by veth pairs, offloads off, MTU 1500. The same iperf3 run goes first through
# a Linux bridge (the in-kernel baseline), then through p4switch running
# p4switch/testdata/l3router/l3router.p4 with one /32 route per host, then
# through p4switch again with every port rate-limited by its traffic
# manager (BENCH_RATE), to show the TM holds its rate. Then
# p4rtctl inserts entries in batches. Options (environment):
#   BENCH_SECONDS (10)  iperf3 duration per path
#   BENCH_RATE (200M)   per-port rate of the traffic-manager run
#   BENCH_INSERTS (20000), BENCH_BATCH (1000)
#   BENCH_PREFIX (prb)  prefix of the namespaces, veths and bridge, so that
#                       runs from different work trees do not collide
#   BENCH_SWITCH_ARGS   extra p4switch run flags for the l3router run (e.g. "--poll-spin 20us")
#   BENCH_PROFILE=1     also take a CPU profile of p4switch during its iperf3
#                       run and print the share of time in the P4 pipeline
set -euo pipefail
FF_ROOT="${FF_ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}"
SECONDS_PER_RUN="${BENCH_SECONDS:-10}"
INSERTS="${BENCH_INSERTS:-20000}"
BATCH="${BENCH_BATCH:-1000}"
PROGRAM="$FF_ROOT/p4switch/testdata/l3router/l3router.p4"
WORK="$(mktemp -d /tmp/p4switch-bench.XXXXXX)"
P="${BENCH_PREFIX:-prb}"
[[ "$P" =~ ^[a-z][a-z0-9]{0,5}$ ]] || { echo "BENCH_PREFIX must be 1-6 lower-case letters or digits" >&2; exit 2; }
[ "$(id -u)" = 0 ] || { echo "bench p4switch needs root (network namespaces)" >&2; exit 1; }
for tool in iperf3 ethtool ip; do
    command -v "$tool" >/dev/null || { echo "bench p4switch needs $tool (./fairfabric setup installs it)" >&2; exit 1; }
done

SWITCH_PID=""
cleanup() {
    [ -n "$SWITCH_PID" ] && kill -TERM "$SWITCH_PID" 2>/dev/null && wait "$SWITCH_PID" 2>/dev/null || true
    for ns in ${P}h1 ${P}h2; do
        [ -f "$WORK/iperf-$ns.pid" ] && kill "$(cat "$WORK/iperf-$ns.pid")" 2>/dev/null || true
        ip netns del "$ns" 2>/dev/null || true
    done
    ip link del ${P}v1 2>/dev/null || true
    ip link del ${P}v2 2>/dev/null || true
    ip link del ${P}br0 2>/dev/null || true
    [ "${BENCH_PROFILE:-0}" = 1 ] || rm -rf "$WORK"
}
trap cleanup EXIT
cleanup

LOAD_BEFORE=$(uptime)
echo "[bench] building p4switch and p4rtctl"
(cd "$FF_ROOT" && CGO_ENABLED=0 go build -o "$WORK/" ./p4switch/cmd/p4switch ./p4switch/cmd/p4rtctl)

echo "[bench] two namespaces, veths with offloads off, MTU 1500"
for i in 1 2; do
    ip netns add "${P}h$i"
    ip link add "${P}v$i" type veth peer name "${P}h${i}e"
    ip link set "${P}h${i}e" netns "${P}h$i"
    ip -n "${P}h$i" addr add "10.9.0.$i/24" dev "${P}h${i}e"
    ip -n "${P}h$i" link set "${P}h${i}e" address "00:00:00:00:09:0$i" mtu 1500 up
    ip -n "${P}h$i" link set lo up
    ip netns exec "${P}h$i" ethtool -K "${P}h${i}e" tx off gro off gso off tso off >/dev/null
    ip link set "${P}v$i" mtu 1500 up
    ethtool -K "${P}v$i" gro off gso off tso off >/dev/null
    echo 1 > "/proc/sys/net/ipv6/conf/${P}v$i/disable_ipv6"
done
ip -n ${P}h1 neigh replace 10.9.0.2 lladdr 00:00:00:00:09:02 dev ${P}h1e
ip -n ${P}h2 neigh replace 10.9.0.1 lladdr 00:00:00:00:09:01 dev ${P}h2e

# measure NAME: one iperf3 TCP run h1 → h2; prints Gbit/s and packets/s
# (packets counted on h2's interface).
measure() {
    ip netns exec ${P}h2 iperf3 -s -1 -D -I "$WORK/iperf-${P}h2.pid" >/dev/null
    sleep 0.5
    local rx0 rx1 out gbps pps
    rx0=$(ip netns exec ${P}h2 cat /sys/class/net/${P}h2e/statistics/rx_packets)
    out=$(ip netns exec ${P}h1 iperf3 -c 10.9.0.2 -t "$SECONDS_PER_RUN" -J)
    rx1=$(ip netns exec ${P}h2 cat /sys/class/net/${P}h2e/statistics/rx_packets)
    gbps=$(printf '%s' "$out" | python3 -c 'import json,sys; print("%.2f" % (json.load(sys.stdin)["end"]["sum_received"]["bits_per_second"]/1e9))')
    pps=$(( (rx1 - rx0) / SECONDS_PER_RUN ))
    printf '%-28s %6s Gbit/s %9d packets/s\n' "$1" "$gbps" "$pps"
    rm -f "$WORK/iperf-${P}h2.pid"
}

echo "[bench] Linux bridge baseline (${SECONDS_PER_RUN}s)"
ip link add ${P}br0 type bridge
ip link set ${P}br0 up
ip link set ${P}v1 master ${P}br0
ip link set ${P}v2 master ${P}br0
BRIDGE=$(measure "linux bridge:")
ip link del ${P}br0

# start_switch ARGS...: run p4switch on the two veths with extra ARGS, load
# l3router and one /32 route per namespace; sets SWITCH_PID and CTL.
start_switch() {
    rm -f "$WORK/grpc.addr"
    "$WORK/p4switch" run --device-id 1 --grpc-addr 127.0.0.1:0 --grpc-addr-file "$WORK/grpc.addr" \
        --admin-addr "" --cpu-port 255 -i 1@${P}v1 -i 2@${P}v2 --log-level info "$@" \
        >"$WORK/p4switch.log" 2>&1 &
    SWITCH_PID=$!
    for _ in $(seq 100); do [ -s "$WORK/grpc.addr" ] && break; sleep 0.1; done
    [ -s "$WORK/grpc.addr" ] || { cat "$WORK/p4switch.log"; echo "p4switch did not start" >&2; exit 1; }
    CTL=("$WORK/p4rtctl" --addr "$(cat "$WORK/grpc.addr")" --device-id 1)
    "${CTL[@]}" push "$PROGRAM"
    for i in 1 2; do
        "${CTL[@]}" add RouterIngress.ipv4_lpm "hdr.ipv4.dstAddr=10.9.0.$i/32" action=RouterIngress.ipv4_forward \
            "dstAddr=00:00:00:00:09:0$i" "port=$i"
    done
}

stop_switch() {
    kill -TERM "$SWITCH_PID"; wait "$SWITCH_PID" 2>/dev/null || true; SWITCH_PID=""
}

echo "[bench] p4switch with l3router (${SECONDS_PER_RUN}s)${BENCH_SWITCH_ARGS:+ flags: $BENCH_SWITCH_ARGS}"
# BENCH_SWITCH_ARGS: extra p4switch run flags for the l3router run, e.g. "--poll-spin 20us".
read -r -a SWITCH_ARGS <<< "${BENCH_SWITCH_ARGS:-}"
[ "${BENCH_PROFILE:-0}" = 1 ] && SWITCH_ARGS+=(--pprof-addr 127.0.0.1:0)
start_switch "${SWITCH_ARGS[@]}"
PROFILER=""
if [ "${BENCH_PROFILE:-0}" = 1 ]; then
    PPROF_ADDR=$(sed -n 's/.*pprof listening.*addr=\([^ ]*\).*/\1/p' "$WORK/p4switch.log" | head -1)
    curl -s -o "$WORK/cpu.pprof" "http://$PPROF_ADDR/debug/pprof/profile?seconds=$((SECONDS_PER_RUN - 1))" &
    PROFILER=$!
fi
SWITCH=$(measure "p4switch (l3router):")
[ -n "$PROFILER" ] && wait "$PROFILER"
stop_switch

echo "[bench] p4switch with its traffic manager at ${BENCH_RATE:-200M} bit/s per port (${SECONDS_PER_RUN}s)"
start_switch --rate "${BENCH_RATE:-200M}"
LIMITED=$(measure "p4switch, rate ${BENCH_RATE:-200M}:")

echo "[bench] P4Runtime inserts ($INSERTS entries, batches of $BATCH)"
"${CTL[@]}" push "$PROGRAM"
INSERT_LINE=$("${CTL[@]}" bench-insert -count "$INSERTS" -batch "$BATCH" RouterIngress.ipv4_lpm hdr.ipv4.dstAddr \
    action=RouterIngress.ipv4_forward dstAddr=00:00:00:00:09:01 port=1)
kill -TERM "$SWITCH_PID"; wait "$SWITCH_PID" 2>/dev/null || true; SWITCH_PID=""
echo
echo "== p4switch benchmark (iperf3 TCP, MTU 1500, offloads off, ${SECONDS_PER_RUN}s each) =="
echo "$BRIDGE"
echo "$SWITCH"
echo "$LIMITED"
echo "$INSERT_LINE"
echo "targets: p4switch >= 1.1 Gbit/s; >= 20000 inserts/s"
echo "load: before:${LOAD_BEFORE##*load average:}  after:$(uptime | sed 's/.*load average://')"
if [ "${BENCH_PROFILE:-0}" = 1 ]; then
    echo
    echo "== CPU profile of p4switch during its iperf3 run: $WORK/cpu.pprof =="
    TOP=$(go tool pprof -top -cum "$WORK/p4switch" "$WORK/cpu.pprof" 2>/dev/null)
    printf '%s\n' "$TOP" | head -45
    printf '%s\n' "$TOP" | awk '
        /^Duration:/ { for (i = 1; i <= NF; i++) if ($i == "=") total = $(i+1) }
        /v1model\.\(\*Pipeline\)\.(Ingress|Egress)$/ { v = $4; unit = (v ~ /ms$/) ? 1000 : 1; sub(/m?s$/, "", v); pipe += v / unit }
        END { sub(/s$/, "", total); if (total > 0) printf "pipeline (v1model Ingress+Egress): %.2fs of %.2fs switch CPU = %.0f%%\n", pipe, total, 100 * pipe / total }'
fi
