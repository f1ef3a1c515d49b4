# summary: controller -> switch P4Runtime writes per second: one update per Write (baseline) vs the agent's batched writes, against a real p4switch
# Sourced by ./fairfabric bench. Usage: ./fairfabric bench p4rt-writes [UPDATES]   (default 4000)

if [ -z "${FF_ROOT:-}" ]; then  # run directly rather than by ./fairfabric bench
    set -euo pipefail
    FF_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
    export FF_ROOT
    # shellcheck source=../lib/common.sh
    source "$FF_ROOT/tools/lib/common.sh"
fi
ensure_setup
# shellcheck source=../lib/allocator-java.sh
source "$FF_ROOT/tools/lib/allocator-java.sh"
cp=$(ff_allocator_classpath "$FF_ROOT")
(cd "$FF_ROOT" && java -cp "$cp:$FF_ROOT/apps/api/target/classes" org.fairfabric.controller.bench.P4RuntimeWriteBench \
    bin/p4switch p4switch/testdata/l3router/l3router.p4 "${1:-4000}")
