# summary: chaos — kill -9 and restart a spine, the broker, the controller and the monitor under the demo's traffic; prints recovery times
# Sourced by ./fairfabric. The full variant of mininet/tests/test_chaos.py (./fairfabric test runs
# the short one: spine, bad requests, controller); see docs/reliability.md.

case "${1:-}" in
    -h|--help)
        echo "usage: ./fairfabric chaos"
        echo "  A 2-leaf, 2-spine p4switch fabric with its own Kafka broker, a monitor instance, the controller,"
        echo "  host shims and three tenants sending greedy TCP. In turn: a spine killed (-9) and restarted, a"
        echo "  tenant's bad requests, the broker, the controller (on its journal) and the monitor killed and"
        echo "  restarted. After each it waits for the fabric to converge (allocation, reachability, traffic,"
        echo "  every switch's entries) and prints the seconds each took. Exit status: pytest's."
        exit 0 ;;
esac
[ $# -eq 0 ] || { echo "fairfabric chaos: no arguments expected (see --help)" >&2; exit 2; }
need_root chaos
ensure_setup
cd "$FF_ROOT" && FF_CHAOS=full exec "$FF_VENV/bin/python" -m pytest -q -s -p no:cacheprovider mininet/tests/test_chaos.py
