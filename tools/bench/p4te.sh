# summary: P4TE loop latency p50/p99: queue-depth event packet-in to the routing-group writes' answer (leaf-spine in Mininet)
# Sourced by ./fairfabric bench. Usage: ./fairfabric bench p4te [SECONDS]   (default 5 s of congestion)

if [ -z "${FF_ROOT:-}" ]; then  # run directly rather than by ./fairfabric bench
    set -euo pipefail
    FF_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
    export FF_ROOT
    # shellcheck source=../lib/common.sh
    source "$FF_ROOT/tools/lib/common.sh"
fi
need_root "bench p4te"
ensure_setup
(cd "$FF_ROOT/mininet" && "$FF_VENV/bin/python" -m fairfabric_mn.p4te_bench --seconds "${1:-5}")
