# summary: the central monitor's end-to-end lag p50/p99 at 1k/10k/50k records/s beside a plain consumer pass-through; max sustained rate; memory
# Sourced by ./fairfabric bench. Needs the broker of `./fairfabric kafka start` (started here
# when it is not running, and stopped again). Options: --seconds N (per rate, default 8),
# --rates R1,R2,... (default 1000,10000,50000), --variant LABEL=OPTIONS (repeatable: monitor options
# such as "--partitions 1" or "--commit-interval-ms 100", each rate measured with every variant).
# shellcheck source=tools/lib/monitor-java.sh
source "$FF_ROOT/tools/lib/monitor-java.sh"
bench_kafka_was_running=0
pid_alive kafka && bench_kafka_was_running=1
"$FF_ROOT/fairfabric" kafka start
bench_cp=$(ff_monitor_classpath "$FF_ROOT") || exit 1
rc=0
java -Xmx512m -Dorg.slf4j.simpleLogger.defaultLogLevel=warn -cp "$bench_cp" org.fairfabric.monitor.bench.MonitorBench \
    --kafka "$FAIRFABRIC_KAFKA" "$@" || rc=$?
[ "$bench_kafka_was_running" = 1 ] || "$FF_ROOT/fairfabric" kafka stop
exit "$rc"
