# summary: weighted proportional-fair multipath allocation (exact, or Promenade Algorithm 1 as printed)
# usage: ./fairfabric allocate [--mode exact|paper] [--tolerance T] FILE|-
#        ./fairfabric allocate --generate k=16,sessions=10000,paths=8,seed=1
# Exit codes: 0 success, 2 invalid input (field named on stderr, nothing on stdout), 3 infeasible.
ff_allocate_main() {
    local root="${FF_ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}"
    # shellcheck source=tools/lib/allocator-java.sh
    source "$root/tools/lib/allocator-java.sh"
    local cp
    cp=$(ff_allocator_classpath "$root") || return 1
    local rc=0
    java -cp "$cp" org.fairfabric.controller.cli.AllocateCommand "$@" || rc=$?
    return "$rc"
}
ff_allocate_rc=0
ff_allocate_main "$@" || ff_allocate_rc=$?
exit "$ff_allocate_rc"
