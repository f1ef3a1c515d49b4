# summary: time from start to all-pairs reachability: the 4x4 leaf-spine (8 p4switch, the baseline) and the k=4 fat-tree (20), controller-programmed
# Sourced by ./fairfabric bench. Usage: ./fairfabric bench reachability [RUNS]   (default 1 run per fabric)
# Each run is the demo without Kafka (fairfabric_mn.demo --kafka ''): Mininet and the p4switch
# processes, the network config, the controller JVM, every switch connected, primary and
# reconciled, two tenants over REST, then one all-pairs round without loss. Prints the demo's
# timing lines per run and the fat-tree / leaf-spine ratio of the last run.

if [ -z "${FF_ROOT:-}" ]; then  # run directly rather than by ./fairfabric bench
    set -euo pipefail
    FF_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
    export FF_ROOT
    # shellcheck source=../lib/common.sh
    source "$FF_ROOT/tools/lib/common.sh"
fi
need_root "bench reachability"
ensure_setup
runs="${1:-1}"
[[ "$runs" =~ ^[1-9][0-9]*$ ]] || die "bench reachability: RUNS must be a positive number, not '$runs'"

declare -A took
for topo in leafspine fattree; do
    for ((i = 1; i <= runs; i++)); do
        out=$(cd "$FF_ROOT/mininet" && "$FF_VENV/bin/python" -m fairfabric_mn.demo --topo "$topo" --kafka '' </dev/null) ||
            { printf '%s\n' "$out"; die "bench reachability: the $topo demo failed"; }
        printf '%s\n' "$out" | grep -E 'switches, .* hosts up|connected, primary|all-pairs' | sed "s/^\[demo\]/[$topo run $i]/"
        took[$topo]=$(printf '%s\n' "$out" | sed -n 's/.*all-pairs reachability \([0-9.]*\) s.*/\1/p')
    done
done
say bench "all-pairs reachability: leaf-spine ${took[leafspine]} s (baseline), fat-tree ${took[fattree]} s, ratio $(awk -v a="${took[fattree]}" -v b="${took[leafspine]}" 'BEGIN {printf "%.2f", a / b}')"
