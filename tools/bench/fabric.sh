# summary: k=4 fat-tree at 100 Mbit/s: one pod0->pod3 TCP flow, eight pod-to-pod flows, ping p50/p99 under load, CPU (and per forwarded packet) — p4switch per process, p4switch fabric mode, and Linux routers (baseline); first the pipeline's CPU per packet, base commit vs this tree
# Sourced by ./fairfabric bench. Usage: ./fairfabric bench fabric [SECONDS] [MODES]
#   SECONDS per iperf3 run (default 10); MODES a comma list of process,fabric,kernel (default all three)
#   The single-flow line of the p4switch modes adds the switches' queue drops (admin interface).
# First, bench fabric-cpu: CPU per fabric.p4 packet in p4switch's pipeline, the code before
# issue 23's CPU work (FF_BENCH_BASE) beside this tree, FF_BENCH_CPU_COUNT rounds (default 6).
# Each mode builds the fat-tree in Mininet (prefix fb / kb), measures, and tears it down;
# the kernel-routed fat-tree of the same shape (tbf of the same rate on every router port,
# ECMP routes) is the baseline of the same run. Figures are as noisy as the machine is loaded:
# the load average is printed with the CPU line.

if [ -z "${FF_ROOT:-}" ]; then  # run directly rather than by ./fairfabric bench
    set -euo pipefail
    FF_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
    export FF_ROOT
    # shellcheck source=../lib/common.sh
    source "$FF_ROOT/tools/lib/common.sh"
fi
need_root "bench fabric"
ensure_setup
seconds="${1:-10}"
modes="${2:-process,fabric,kernel}"
[[ "$seconds" =~ ^[1-9][0-9]*$ ]] || die "bench fabric: SECONDS must be a positive number, not '$seconds'"
IFS=, read -r -a mode_list <<<"$modes"
for m in "${mode_list[@]}"; do
    case "$m" in process|fabric|kernel) ;; *) die "bench fabric: unknown mode '$m' (process, fabric, kernel)" ;; esac
done
say bench "CPU per forwarded fabric.p4 packet in the p4switch pipeline (Go benchmark), base vs this tree"
bash "$FF_ROOT/tools/bench/fabric-cpu.sh" "${FF_BENCH_CPU_COUNT:-6}" || die "bench fabric: the CPU benchmark failed"
for m in "${mode_list[@]}"; do
    say bench "fat-tree, $m: building and measuring (${seconds} s per run)"
    (cd "$FF_ROOT/mininet" && "$FF_VENV/bin/python" -m fairfabric_mn.fabric_bench --mode "$m" --seconds "$seconds" </dev/null) 2>&1 |
        grep -E '^\[fabric |Error|error' || die "bench fabric: the $m run failed"
done
