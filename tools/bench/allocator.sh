# summary: allocator benchmark: exact mode on k=8/16/32 fat-trees vs cvxpy/Clarabel
# usage: ./fairfabric bench allocator [--only k=16] [--oracle-timeout SECONDS] [--seed N]
# cvxpy/Clarabel runs from $PYTHON, else the project's .venv if it has cvxpy (./fairfabric setup).
ff_bench_allocator_main() {
    local root="${FF_ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}"
    # shellcheck source=tools/lib/allocator-java.sh
    source "$root/tools/lib/allocator-java.sh"
    local cp python="${PYTHON:-}"
    cp=$(ff_allocator_classpath "$root") || return 1
    if [ -z "$python" ] && [ -x "$root/.venv/bin/python" ] && "$root/.venv/bin/python" -c 'import cvxpy' 2>/dev/null; then
        python="$root/.venv/bin/python"
    fi
    local args=()
    [ -n "$python" ] && args+=(--python "$python")
    java -Xmx6g -XX:+UseParallelGC -XX:ParallelGCThreads=1 -Dff.root="$root" -cp "$cp" \
        org.fairfabric.controller.bench.AllocatorBenchmark "${args[@]}" "$@"
}
ff_bench_allocator_rc=0
ff_bench_allocator_main "$@" || ff_bench_allocator_rc=$?
exit "$ff_bench_allocator_rc"
