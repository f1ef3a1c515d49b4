# Shared by tools/commands/monitor.sh, demo.sh and tools/bench/monitor.sh: builds monitor/
# when its sources changed since the last build, quietly, and prints its runtime classpath.
# Build output is shown only when the build fails.
ff_monitor_classpath() {
    local root="$1"
    local stamp="$root/monitor/target/monitor-build.stamp"
    local cpfile="$root/monitor/target/monitor-classpath.txt"
    local stale=1
    if [ -f "$stamp" ] && [ -f "$cpfile" ]; then
        stale=0
        if [ -n "$(find "$root/monitor/src/main" "$root/monitor/pom.xml" "$root/pom.xml" -newer "$stamp" -print -quit 2>/dev/null)" ]; then
            stale=1
        fi
    fi
    if [ "$stale" = 1 ]; then
        local log
        log=$(mktemp)
        if ! (cd "$root" && mvn -q -B -pl monitor -DskipTests \
                -Dmdep.outputFile=target/monitor-classpath.txt -Dmdep.includeScope=runtime \
                compile dependency:build-classpath) >"$log" 2>&1; then
            echo "monitor: building monitor/ failed:" >&2
            cat "$log" >&2
            rm -f "$log"
            return 1
        fi
        rm -f "$log"
        touch "$stamp"
    fi
    echo "$root/monitor/target/classes:$(cat "$cpfile")"
}

# ff_monitor_start_bg N [ARGS...]: start monitor instance N in the background (pid file
# monitor-N, log .run/logs/monitor-N.log) unless it runs; `./fairfabric clean` stops it.
ff_monitor_start_bg() {
    local id="$1"; shift
    if pid_alive "monitor-$id"; then
        say monitor "instance $id already running (pid $(cat "$FF_RUN/pids/monitor-$id.pid"))"
        return 0
    fi
    local cp
    cp=$(ff_monitor_classpath "$FF_ROOT") || return 1
    mkdir -p "$FF_RUN/logs" "$FF_RUN/pids" "$FF_RUN/monitor"
    start_bg "monitor-$id" "$FF_RUN/logs/monitor-$id.log" java -Xmx256m -cp "$cp" org.fairfabric.monitor.Monitor \
        --kafka "$FAIRFABRIC_KAFKA" --instance-id "$id" --state-dir "$FF_RUN/monitor/$id" "$@"
    say monitor "instance $id started (pid $(cat "$FF_RUN/pids/monitor-$id.pid")), log $FF_RUN/logs/monitor-$id.log"
}
