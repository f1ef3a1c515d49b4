# summary: monitor [--kafka HOST:PORT] [--instance-id N] — run one central network monitor instance in the foreground
# Sourced by ./fairfabric. The monitor (monitor/, docs/monitor.md) reads the shim and controller
# topics and writes the network view (ff.mon.*, docs/kafka.md). Instances with the same topic
# suffix share the work; each keeps its local state under .run/monitor/<instance-id>.
# shellcheck source=tools/lib/monitor-java.sh
source "$FF_ROOT/tools/lib/monitor-java.sh"

case "${1:-}" in
    -h|--help)
        echo "usage: ./fairfabric monitor [--kafka HOST:PORT] [--instance-id N] [more options: --help-all]"
        echo "  runs one monitor instance in the foreground until Ctrl-C (default broker: \$FAIRFABRIC_KAFKA = $FAIRFABRIC_KAFKA)"
        exit 0 ;;
esac
monitor_id=0
monitor_args=()
while [ $# -gt 0 ]; do
    case "$1" in
        --help-all) monitor_args+=("--help"); shift ;;
        --instance-id)
            [ $# -ge 2 ] || { echo "fairfabric monitor: --instance-id needs a value" >&2; exit 2; }
            [[ "$2" =~ ^[0-9]+$ ]] || { echo "fairfabric monitor: --instance-id takes a whole number, not '$2'" >&2; exit 2; }
            monitor_id="$2"; monitor_args+=("$1" "$2"); shift 2 ;;
        *) monitor_args+=("$1"); shift ;;
    esac
done
if [ "${monitor_args[*]:-}" != "--help" ]; then
    has_state=0
    for a in "${monitor_args[@]:-}"; do [ "$a" = "--state-dir" ] && has_state=1; done
    [ "$has_state" = 1 ] || monitor_args+=("--state-dir" "$FF_RUN/monitor/$monitor_id")
    has_kafka=0
    for a in "${monitor_args[@]:-}"; do [ "$a" = "--kafka" ] && has_kafka=1; done
    [ "$has_kafka" = 1 ] || monitor_args+=("--kafka" "$FAIRFABRIC_KAFKA")
fi
monitor_cp=$(ff_monitor_classpath "$FF_ROOT") || exit 1
mkdir -p "$FF_RUN/pids" "$FF_RUN/monitor"
echo $$ > "$FF_RUN/pids/monitor-$monitor_id.pid"
exec java -Xmx256m -cp "$monitor_cp" org.fairfabric.monitor.Monitor "${monitor_args[@]}"
