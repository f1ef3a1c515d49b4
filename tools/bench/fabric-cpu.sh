# summary: CPU per forwarded fabric.p4 packet (p4switch interpreter + v1model), this tree beside a base commit, interleaved in one run
# Sourced by ./fairfabric bench (and by bench fabric). Usage: ./fairfabric bench fabric-cpu [COUNT] [BASE]
#   COUNT rounds (default 6): each round runs BenchmarkFabricForward (p4switch/stf) once
#   with the base commit's code and once with this tree's, alternately, so that both see
#   the same machine load. BASE (default 0fa28b1, the code before issue 23's CPU work; or
#   FF_BENCH_BASE) is built from git with this tree's benchmark file copied in.
# Prints ns/op (wall) and cpu-ns/op (process CPU time per packet: robust to a loaded
# machine) for each side: median and min over the rounds, and the ratio of the medians.

if ! declare -F say >/dev/null; then  # run directly rather than by ./fairfabric bench
    set -euo pipefail
    FF_ROOT="${FF_ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}"
    export FF_ROOT
    # shellcheck source=../lib/common.sh
    source "$FF_ROOT/tools/lib/common.sh"
fi

fabric_cpu_bench() {
    local count="${1:-6}" base="${2:-${FF_BENCH_BASE:-0fa28b1}}"
    [[ "$count" =~ ^[1-9][0-9]*$ ]] || die "bench fabric-cpu: COUNT must be a positive number, not '$count'"
    git -C "$FF_ROOT" rev-parse --verify -q "$base^{commit}" >/dev/null || die "bench fabric-cpu: unknown base commit '$base'"
    local work
    work="$(mktemp -d "${TMPDIR:-/tmp}/fairfabric-fabric-cpu.XXXXXX")"
    # shellcheck disable=SC2064
    trap "rm -rf '$work'" RETURN
    say bench "fabric-cpu: building the benchmark for base $(git -C "$FF_ROOT" rev-parse --short "$base") and for this tree"
    mkdir -p "$work/base"
    git -C "$FF_ROOT" archive "$base" go.mod go.sum p4switch pipeconfs/p4 | tar -x -C "$work/base"
    cp "$FF_ROOT/p4switch/stf/fabric_bench_test.go" "$work/base/p4switch/stf/"
    (cd "$work/base" && go test -c -o "$work/base.test" ./p4switch/stf/) || die "bench fabric-cpu: the base does not build"
    (cd "$FF_ROOT" && go test -c -o "$work/new.test" ./p4switch/stf/) || die "bench fabric-cpu: this tree does not build"
    local i side
    for ((i = 1; i <= count; i++)); do
        for side in base new; do
            # the test binary runs in its package directory (the program path is relative)
            if [ "$side" = base ]; then cd "$work/base/p4switch/stf"; else cd "$FF_ROOT/p4switch/stf"; fi
            "$work/$side.test" -test.run '^$' -test.bench '^BenchmarkFabricForward$' -test.benchtime 20000x \
                | sed -n "s/^BenchmarkFabricForward[^ ]*/$side/p" >>"$work/results"
        done
    done
    cd "$FF_ROOT"
    python3 - "$work/results" "$(cat /proc/loadavg)" <<'EOF'
import statistics, sys
rows = {}
for line in open(sys.argv[1]):
    f = line.split()
    side, vals = f[0], dict(zip(f[3::2], map(float, f[2::2])))
    rows.setdefault(side, []).append(vals)
def fig(side, unit):
    v = [r[unit] for r in rows[side]]
    return statistics.median(v), min(v)
for side in ("base", "new"):
    (w, wmin), (c, cmin) = fig(side, "ns/op"), fig(side, "cpu-ns/op")
    r = rows[side][0]
    print("[fabric-cpu] %-4s %d runs: cpu %.0f ns/packet (min %.0f), wall %.0f ns/packet (min %.0f), %d B/op, %d allocs/op"
          % (side, len(rows[side]), c, cmin, w, wmin, r["B/op"], r["allocs/op"]))
print("[fabric-cpu] new/base: cpu %.2f, wall %.2f (loadavg %s)" % (
    fig("new", "cpu-ns/op")[0] / fig("base", "cpu-ns/op")[0],
    fig("new", "ns/op")[0] / fig("base", "ns/op")[0], sys.argv[2].split()[0]))
EOF
}

fabric_cpu_bench "$@"
