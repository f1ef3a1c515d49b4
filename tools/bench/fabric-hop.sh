#!/usr/bin/env bash
# summary: p4switch CPU per forwarded packet at a fixed packet rate (one hop, l3router, UDP), base commit vs this tree, interleaved
#
# ./fairfabric bench fabric-hop [ROUNDS] [BASE]   (needs root: network namespaces)
# Two namespaces joined through one p4switch running p4switch/testdata/l3router
# (veths, offloads off, MTU 1500), as bench p4switch does. Each round sends
# iperf3 UDP at HOP_RATE (default 40M, 1400-byte datagrams: about 3,500
# packets/s, the per-link packet rate of a fat-tree flow at 40 Mbit/s) for
# HOP_SECONDS (default 5) through the base commit's p4switch and then through
# this tree's, and divides the switch process's CPU time (/proc utime+stime) by
# the packets h2 received. At such rates every frame finds the switch idle, so
# the figure is the cost of waking up, reading, the pipeline and writing per
# packet, which a full-speed iperf3 run (bench p4switch) amortises over batches.
# BASE defaults to 0fa28b1 (before issue 23's CPU work; or FF_BENCH_BASE).
# HOP_PREFIX (default hop) names the namespaces and veths. HOP_NEW_ENV (e.g.
# "GOMAXPROCS=1") is set in the environment of this tree's switch only, and
# HOP_NEW_ARGS (e.g. "--loop epoll") added to its command line.
set -euo pipefail
FF_ROOT="${FF_ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}"
ROUNDS="${1:-4}"
BASE="${2:-${FF_BENCH_BASE:-0fa28b1}}"
RATE="${HOP_RATE:-40M}"
SECS="${HOP_SECONDS:-5}"
P="${HOP_PREFIX:-hop}"
[[ "$ROUNDS" =~ ^[1-9][0-9]*$ ]] || { echo "bench fabric-hop: ROUNDS must be a positive number, not '$ROUNDS'" >&2; exit 2; }
[[ "$P" =~ ^[a-z][a-z0-9]{0,5}$ ]] || { echo "HOP_PREFIX must be 1-6 lower-case letters or digits" >&2; exit 2; }
[ "$(id -u)" = 0 ] || { echo "bench fabric-hop needs root (network namespaces)" >&2; exit 1; }
git -C "$FF_ROOT" rev-parse --verify -q "$BASE^{commit}" >/dev/null || { echo "bench fabric-hop: unknown base commit '$BASE'" >&2; exit 2; }
PROGRAM="$FF_ROOT/p4switch/testdata/l3router/l3router.p4"
WORK="$(mktemp -d /tmp/fabric-hop.XXXXXX)"

SWITCH_PID=""
cleanup() {
    [ -n "$SWITCH_PID" ] && kill -TERM "$SWITCH_PID" 2>/dev/null && wait "$SWITCH_PID" 2>/dev/null || true
    for i in 1 2; do
        ip netns del "${P}h$i" 2>/dev/null || true
        ip link del "${P}v$i" 2>/dev/null || true
    done
    rm -rf "$WORK"
}
trap cleanup EXIT
cleanup
WORK="$(mktemp -d /tmp/fabric-hop.XXXXXX)"

echo "[bench] fabric-hop: building p4switch for base $(git -C "$FF_ROOT" rev-parse --short "$BASE") and for this tree"
mkdir -p "$WORK/base"
git -C "$FF_ROOT" archive "$BASE" go.mod go.sum p4switch | tar -x -C "$WORK/base"
(cd "$WORK/base" && CGO_ENABLED=0 go build -o "$WORK/p4switch-base" ./p4switch/cmd/p4switch)
(cd "$FF_ROOT" && CGO_ENABLED=0 go build -o "$WORK/p4switch-new" ./p4switch/cmd/p4switch && go build -o "$WORK/" ./p4switch/cmd/p4rtctl)

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
ip -n "${P}h1" neigh replace 10.9.0.2 lladdr 00:00:00:00:09:02 dev "${P}h1e"
ip -n "${P}h2" neigh replace 10.9.0.1 lladdr 00:00:00:00:09:01 dev "${P}h2e"

start_switch() {
    rm -f "$WORK/grpc.addr"
    local envs=() args=()
    [ "$1" = new ] && [ -n "${HOP_NEW_ENV:-}" ] && read -r -a envs <<<"$HOP_NEW_ENV"
    [ "$1" = new ] && [ -n "${HOP_NEW_ARGS:-}" ] && read -r -a args <<<"$HOP_NEW_ARGS"
    env "${envs[@]}" "$WORK/p4switch-$1" run "${args[@]}" --device-id 1 --grpc-addr 127.0.0.1:0 --grpc-addr-file "$WORK/grpc.addr" \
        --admin-addr "" --cpu-port 255 -i "1@${P}v1" -i "2@${P}v2" --log-level warn >"$WORK/p4switch.log" 2>&1 &
    SWITCH_PID=$!
    for _ in $(seq 100); do [ -s "$WORK/grpc.addr" ] && break; sleep 0.1; done
    [ -s "$WORK/grpc.addr" ] || { cat "$WORK/p4switch.log"; echo "p4switch did not start" >&2; exit 1; }
    local ctl=("$WORK/p4rtctl" --addr "$(cat "$WORK/grpc.addr")" --device-id 1)
    "${ctl[@]}" push "$PROGRAM" >/dev/null
    for i in 1 2; do
        "${ctl[@]}" add RouterIngress.ipv4_lpm "hdr.ipv4.dstAddr=10.9.0.$i/32" action=RouterIngress.ipv4_forward \
            "dstAddr=00:00:00:00:09:0$i" "port=$i" >/dev/null
    done
}

cpu_ticks() { awk '{ sub(/.*\) /, ""); print $12 + $13 }' "/proc/$SWITCH_PID/stat"; }

for ((r = 1; r <= ROUNDS; r++)); do
    for side in base new; do
        start_switch "$side"
        ip netns exec "${P}h2" iperf3 -s -1 -D -I "$WORK/iperf.pid" >/dev/null
        sleep 0.5
        rx0=$(ip netns exec "${P}h2" cat "/sys/class/net/${P}h2e/statistics/rx_packets")
        c0=$(cpu_ticks)
        ip netns exec "${P}h1" iperf3 -c 10.9.0.2 -u -b "$RATE" -l 1400 -t "$SECS" >/dev/null
        c1=$(cpu_ticks)
        rx1=$(ip netns exec "${P}h2" cat "/sys/class/net/${P}h2e/statistics/rx_packets")
        kill -TERM "$SWITCH_PID"; wait "$SWITCH_PID" 2>/dev/null || true; SWITCH_PID=""
        [ -f "$WORK/iperf.pid" ] && kill "$(cat "$WORK/iperf.pid")" 2>/dev/null || true
        rm -f "$WORK/iperf.pid"
        echo "$side $((c1 - c0)) $((rx1 - rx0))" >>"$WORK/results"
    done
done
[ -n "${HOP_NEW_ENV:-}" ] && echo "[fabric-hop] new runs with $HOP_NEW_ENV"
[ -n "${HOP_NEW_ARGS:-}" ] && echo "[fabric-hop] new runs with $HOP_NEW_ARGS"
python3 - "$WORK/results" "$(getconf CLK_TCK)" "$(cat /proc/loadavg)" "$RATE" <<'EOF'
import statistics, sys
tick = 1e9 / int(sys.argv[2])
per = {}
for line in open(sys.argv[1]):
    side, ticks, pkts = line.split()
    per.setdefault(side, []).append(int(ticks) * tick / max(1, int(pkts)))
for side in ("base", "new"):
    v = per[side]
    print("[fabric-hop] %-4s %d runs at %s bit/s UDP: switch cpu %.0f ns/packet median (min %.0f, max %.0f)"
          % (side, len(v), sys.argv[4], statistics.median(v), min(v), max(v)))
print("[fabric-hop] new/base: %.2f (loadavg %s)" % (statistics.median(per["new"]) / statistics.median(per["base"]), sys.argv[3].split()[0]))
EOF
