# summary: kafka start|stop|status — a single-node KRaft broker on 127.0.0.1 (port $FF_KAFKA_PORT, default 9092)
# Sourced by ./fairfabric. The jars come from Maven Central (tools/kafka/pom.xml,
# fetched by setup); data and logs live under .run/kafka.

KAFKA_HOME="$FF_RUN/kafka"
KAFKA_LIBS="$KAFKA_HOME/libs"
KAFKA_CONF="$KAFKA_HOME/server.properties"
KAFKA_LOG="$FF_RUN/logs/kafka.log"

kafka_usage() {
    echo "usage: ./fairfabric kafka start|stop|status"
    echo "  start   start the broker if it is not running and wait until it accepts clients"
    echo "  stop    stop the broker started by start"
    echo "  status  print whether the broker runs (exit 0) or not (exit 3)"
    echo "environment: FF_KAFKA_PORT (default 9092; the controller quorum uses FF_KAFKA_PORT+1)"
}

kafka_write_config() {
    local controller_port=$((FF_KAFKA_PORT + 1))
    mkdir -p "$KAFKA_HOME/data"
    cat > "$KAFKA_CONF" <<CONF
process.roles=broker,controller
node.id=1
controller.quorum.voters=1@127.0.0.1:$controller_port
listeners=PLAINTEXT://127.0.0.1:$FF_KAFKA_PORT,CONTROLLER://127.0.0.1:$controller_port
advertised.listeners=PLAINTEXT://127.0.0.1:$FF_KAFKA_PORT
controller.listener.names=CONTROLLER
inter.broker.listener.name=PLAINTEXT
listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT
log.dirs=$KAFKA_HOME/data
num.partitions=1
offsets.topic.replication.factor=1
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
group.initial.rebalance.delay.ms=0
auto.create.topics.enable=true
log.retention.hours=24
CONF
    cat > "$KAFKA_HOME/log4j.properties" <<CONF
log4j.rootLogger=INFO, stdout
log4j.appender.stdout=org.apache.log4j.ConsoleAppender
log4j.appender.stdout.layout=org.apache.log4j.PatternLayout
log4j.appender.stdout.layout.ConversionPattern=[%d] %p %m (%c)%n
log4j.logger.kafka=INFO
log4j.logger.org.apache.kafka=WARN
CONF
}

kafka_java() {
    java -Xms256m -Xmx512m -Dlog4j.configuration="file:$KAFKA_HOME/log4j.properties" \
        -cp "$KAFKA_LIBS/*" "$@"
}

kafka_ready() {
    # The broker logs this line once it serves clients.
    pid_alive kafka && grep -q "Kafka Server started\|\[KafkaRaftServer nodeId=1\] Kafka Server started" "$KAFKA_LOG" 2>/dev/null &&
        (exec 3<>"/dev/tcp/127.0.0.1/$FF_KAFKA_PORT") 2>/dev/null
}

kafka_start() {
    if pid_alive kafka; then
        say kafka "already running (pid $(cat "$FF_RUN/pids/kafka.pid")) on 127.0.0.1:$FF_KAFKA_PORT"
        return 0
    fi
    [ -n "$(ls "$KAFKA_LIBS"/kafka_2.13-*.jar 2>/dev/null)" ] || {
        say kafka "broker jars missing: running setup"
        "$FF_ROOT/fairfabric" setup
    }
    if (exec 3<>"/dev/tcp/127.0.0.1/$FF_KAFKA_PORT") 2>/dev/null; then
        die "port $FF_KAFKA_PORT is taken by a process fairfabric did not start; set FF_KAFKA_PORT"
    fi
    kafka_write_config
    if [ ! -f "$KAFKA_HOME/data/meta.properties" ]; then
        say kafka "formatting storage in $KAFKA_HOME/data"
        kafka_java kafka.tools.StorageTool format -t "$(kafka_java kafka.tools.StorageTool random-uuid)" \
            -c "$KAFKA_CONF" >"$FF_RUN/logs/kafka-format.log" 2>&1 ||
            die "formatting Kafka storage failed; see $FF_RUN/logs/kafka-format.log"
    fi
    say kafka "starting broker on 127.0.0.1:$FF_KAFKA_PORT"
    # FF_KAFKA_HEAP_OPTS: the broker's heap options (the soak fixes and pre-touches the heap)
    # shellcheck disable=SC2086
    start_bg kafka "$KAFKA_LOG" java ${FF_KAFKA_HEAP_OPTS:--Xms256m -Xmx512m} \
        -Dlog4j.configuration="file:$KAFKA_HOME/log4j.properties" -cp "$KAFKA_LIBS/*" kafka.Kafka "$KAFKA_CONF"
    local i
    for i in $(seq 1 120); do
        if kafka_ready; then
            say kafka "ready (pid $(cat "$FF_RUN/pids/kafka.pid")) after $((i / 2)) s"
            return 0
        fi
        pid_alive kafka || { tail -n 20 "$KAFKA_LOG" >&2; die "broker exited during start; log: $KAFKA_LOG"; }
        sleep 0.5
    done
    tail -n 20 "$KAFKA_LOG" >&2
    die "broker not ready after 60 s; log: $KAFKA_LOG"
}

kafka_stop() {
    if pid_alive kafka; then
        say kafka "stopping broker (pid $(cat "$FF_RUN/pids/kafka.pid"))"
        stop_pid kafka
    else
        rm -f "$FF_RUN/pids/kafka.pid"
        say kafka "not running"
    fi
}

kafka_status() {
    if kafka_ready; then
        say kafka "running (pid $(cat "$FF_RUN/pids/kafka.pid")) on 127.0.0.1:$FF_KAFKA_PORT, data in $KAFKA_HOME/data"
    elif pid_alive kafka; then
        say kafka "starting (pid $(cat "$FF_RUN/pids/kafka.pid")), not ready yet"
        return 3
    else
        say kafka "not running"
        return 3
    fi
}

case "${1:-}" in
    start) kafka_start ;;
    stop) kafka_stop ;;
    status) kafka_status ;;
    -h|--help) kafka_usage ;;
    *) kafka_usage >&2; exit 2 ;;
esac
