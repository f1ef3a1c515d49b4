# summary: RLNC coding cost per core (encode/decode for windows 4-16 of 1 KB, Promenade Table 3, beside a plain copy) and goodput over 4 paths of unequal delay against the allocation
# Sourced by ./fairfabric bench. Usage: ./fairfabric bench rlnc [BENCHTIME]   (default 1s per point, Go's -benchtime)
# Go benchmarks of host-shim/rlnc/coding on one goroutine (-cpu 1). The figures are
# per core from the process's CPU time per packet (getrusage), which other work on the
# machine does not inflate; the wall-clock MB/s beside them does include waiting for a
# CPU. "1GbE core%" is the share of one core needed to code Gigabit Ethernet's 122,070
# packets/s of 1 KB, the load Promenade's Table 3 reports.

if [ -z "${FF_ROOT:-}" ]; then  # run directly rather than by ./fairfabric bench
    set -euo pipefail
    FF_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
    export FF_ROOT
    # shellcheck source=../lib/common.sh
    source "$FF_ROOT/tools/lib/common.sh"
fi
benchtime="${1:-1s}"
case "$benchtime" in *[0-9]s|*[0-9]x) ;; *) die "bench rlnc: BENCHTIME must look like 1s, 500ms or 20000x, got '$benchtime'" ;; esac
say bench "rlnc: go test -bench (one core per figure, -benchtime $benchtime); load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
out=$(cd "$FF_ROOT" && nice -n 10 go test -run '^$' -bench '^Benchmark(Encode|Decode|Copy)$' -benchtime "$benchtime" -cpu 1 ./host-shim/rlnc/coding/) ||
    { printf '%s\n' "$out"; die "bench rlnc: go test failed"; }
printf '%s\n' "$out" | awk '
    /^Benchmark/ {
        name = $1; ns = $3; cpu = ""
        for (i = 4; i <= NF; i++) if ($(i) == "cpu-ns/op") cpu = $(i - 1)
        if (name ~ /^BenchmarkCopy/) { copy_ns = ns; copy_cpu = cpu; next }
        split(name, a, "[/=]"); w = a[3]
        if (name ~ /Encode/) { enc[w] = ns; encc[w] = cpu } else { dec[w] = ns; decc[w] = cpu }
        if (!(w in seen)) { seen[w] = 1; order[++n] = w }
    }
    function mbs(ns) { return 1024 / ns * 1e3 }         # MB/s (10^6 bytes) for 1 KB per op
    function core(ns) { return 122070 * ns / 1e9 * 100 }  # % of one core at 1 GbE of 1 KB packets
    END {
        printf "%-7s %12s %11s %10s   %12s %11s %10s\n", "", "encode", "", "", "decode", "", ""
        printf "%-7s %12s %11s %10s   %12s %11s %10s\n", "window", "MB/s/core", "1GbE core%", "wall MB/s", "MB/s/core", "1GbE core%", "wall MB/s"
        for (i = 1; i <= n; i++) {
            w = order[i]
            printf "%-7s %12.1f %10.1f%% %10.1f   %12.1f %10.1f%% %10.1f\n", w, mbs(encc[w]), core(encc[w]), mbs(enc[w]), mbs(decc[w]), core(decc[w]), mbs(dec[w])
        }
        printf "%-7s %12.1f %10.2f%% %10.1f   (baseline: copy() of the same 1 KB)\n", "copy", mbs(copy_cpu), core(copy_cpu), mbs(copy_ns)
    }'
say bench "rlnc: load average after: $(cut -d' ' -f1-3 /proc/loadavg) (2 cores shared; figures are noisy under load)"

# Goodput: one session over four paths of 2.5 Mbit/s with one-way delays 0/2/5/10 ms through
# a user-space relay between network namespaces (needs root; run inside /work/isolated).
if [ "$(id -u)" = 0 ] && command -v ip >/dev/null; then
    say bench "rlnc: goodput over 4 paths of unequal delay (transport.TestGoodputOverFourPaths), 3 runs"
    for run in 1 2 3; do
        (cd "$FF_ROOT" && RLNC_GOODPUT=1 go test -count=1 -run '^TestGoodputOverFourPaths$' -v ./host-shim/rlnc/transport/) |
            sed -n 's/^ *goodput_test.go:[0-9]*: /  run '"$run"': /p' || die "bench rlnc: goodput run $run failed"
    done
    say bench "rlnc: load average after the goodput runs: $(cut -d' ' -f1-3 /proc/loadavg)"
else
    say bench "rlnc: goodput skipped (needs root and iproute2 for the namespaces)"
fi
