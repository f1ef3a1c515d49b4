# summary: soak [--minutes N] — the demo's competing tenants under churn for N minutes (default 30), figures every minute
# Sourced by ./fairfabric. The scenario and its checks: tools/soak/soak.py (docs/reliability.md).

case "${1:-}" in
    -h|--help)
        echo "usage: ./fairfabric soak [--minutes N] [--churn-every S] [--report-every S] [--warmup S] [--rss-growth F] [--fd-growth F]"
        echo "  A 2-leaf, 2-spine p4switch fabric with its own Kafka broker, a monitor instance, the controller,"
        echo "  host shims and three tenants sending greedy TCP; churn every 10 s (tenants and sessions created"
        echo "  and deleted, weights changed, a spine uplink failed and restored, bad requests); every minute"
        echo "  the RSS, open descriptors and threads of every process, the Kafka consumer lag and the invariants"
        echo "  (switches available, allocations feasible, tenants served, no ERROR in the logs). At the end:"
        echo "  RSS growth of the JVMs after the warm-up < 10 %. Exit 1 when an invariant failed."
        exit 0 ;;
esac
soak_args=()
while [ $# -gt 0 ]; do
    case "$1" in
        --minutes|--churn-every|--report-every|--warmup|--rss-growth|--fd-growth)
            [ $# -ge 2 ] || { echo "fairfabric soak: $1 needs a value" >&2; exit 2; }
            [[ "$2" =~ ^[0-9]+([.][0-9]+)?$ ]] || { echo "fairfabric soak: $1 takes a number, not '$2'" >&2; exit 2; }
            soak_args+=("$1" "$2"); shift 2 ;;
        *) echo "fairfabric soak: unknown argument '$1' (see --help)" >&2; exit 2 ;;
    esac
done
need_root soak
ensure_setup
exec "$FF_VENV/bin/python" "$FF_ROOT/tools/soak/soak.py" "${soak_args[@]}"
