# summary: the main job: bring up the emulated fabric with Kafka (runs setup first when needed)
# Sourced by ./fairfabric.

case "${1:-}" in
    -h|--help) echo "usage: ./fairfabric demo"; exit 0 ;;
    "") ;;
    *) echo "fairfabric demo: unknown argument '$1'" >&2; exit 2 ;;
esac
need_root demo
ensure_setup
kafka_was_running=0
pid_alive kafka && kafka_was_running=1
demo_cleanup() {
    [ "$kafka_was_running" = 1 ] || "$FF_ROOT/fairfabric" kafka stop
}
trap demo_cleanup EXIT
trap 'exit 130' INT TERM

"$FF_ROOT/fairfabric" kafka start
say demo "Kafka broker: $FAIRFABRIC_KAFKA"
say demo "starting the emulated fabric (Mininet)"
(cd "$FF_ROOT/mininet" && "$FF_VENV/bin/python" -m fairfabric_mn.demo)
say demo "done"
