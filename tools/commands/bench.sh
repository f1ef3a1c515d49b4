# summary: bench <name> — run a benchmark (tools/bench/<name>.sh) and print its figures
# Sourced by ./fairfabric. Benchmarks are commands, not tests: each prints its
# figures next to a baseline measured in the same run.

bench_list() {
    local f
    for f in "$FF_ROOT"/tools/bench/*.sh; do
        [ -e "$f" ] || continue
        printf '  %-10s %s\n' "$(basename "$f" .sh)" "$(sed -n 's/^# summary: //p' "$f" | head -n1)"
    done
}

case "${1:-}" in
    ""|-h|--help)
        echo "usage: ./fairfabric bench <name> [arguments]"
        echo
        echo "benchmarks:"
        bench_list
        [ -n "${1:-}" ]
        ;;
    *)
        name="$1"
        shift
        [ -f "$FF_ROOT/tools/bench/$name.sh" ] || { echo "fairfabric bench: unknown benchmark '$name'" >&2; bench_list >&2; exit 2; }
        ensure_setup
        # shellcheck disable=SC1090
        source "$FF_ROOT/tools/bench/$name.sh"
        ;;
esac
