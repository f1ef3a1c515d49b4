# summary: chaos — kill -9 and restart a spine, an edge switch, the broker, the controller, the monitor and a shim under the demo's traffic; prints recovery times
# Sourced by ./fairfabric. The full variant of mininet/tests/test_chaos.py (./fairfabric test runs
# the short one: spine, edge, bad requests, controller, shim); see docs/reliability.md.

case "${1:-}" in
    -h|--help)
        echo "usage: ./fairfabric chaos"
        echo "  A 2-leaf, 2-spine p4switch fabric with its own Kafka broker, a monitor instance, the controller,"
        echo "  host shims and three tenants sending greedy TCP. In turn: a spine and an edge switch killed (-9)"
        echo "  and restarted, a tenant's bad requests, the broker, the controller (under a client's writes; it"
        echo "  restarts on its journal: no acknowledged write, tenant, host or session lost), the monitor and"
        echo "  the sending server's shim killed and restarted. After each it waits for the fabric to converge"
        echo "  (allocation, reachability, traffic, every switch's entries) and prints the seconds each took."
        echo "  Exit status: pytest's."
        exit 0 ;;
esac
[ $# -eq 0 ] || { echo "fairfabric chaos: no arguments expected (see --help)" >&2; exit 2; }
need_root chaos
ensure_setup
cd "$FF_ROOT" && FF_CHAOS=full exec "$FF_VENV/bin/python" -m pytest -q -s -p no:cacheprovider mininet/tests/test_chaos.py
