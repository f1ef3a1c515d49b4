# summary: Promenade loop latency: session arrival -> rates in force at the shims, p50/p99 (Mininet k=4; in-process k=16, 10,000 sessions)
# Sourced by ./fairfabric bench. Usage:
#   ./fairfabric bench loop [--mininet-only | --local-only] [--arrivals N] [--exact-wait S]
# Mininet (root): k=4 fat-tree, a shim on every host, the embedded controller; 5 warm-up arrivals
#   (printed, not counted) as in-process, then 20 arrivals over REST,
#   each timed to the new rates in force at every affected shim (their /rates), beside a table
#   published straight to a shim (Kafka + the shim's apply) in the same run.
# In-process: the controller's allocation loop (quiet period, allocator, rates tables, Kafka sink) with
#   10,000 sessions on a k=16 fat-tree; 20 arrivals, each timed to every changed table of the first
#   allocation with it (the interim one) consumed from Kafka, and to its exact allocation, beside one
#   record produced and consumed on the same topic in the same run. --exact-wait S: wait at most S s
#   (default 900) for the last arrival's exact allocation; 0 ends after the arrivals. Its JVM: 2 GB,
#   the default collector, as the controller's (FF_LOOP_JAVA_OPTS replaces that).
# Starts the project's Kafka broker when none runs (and stops it after).
ff_bench_loop_main() {
    local root="$FF_ROOT" mininet=1 local=1 arrivals=20 exact_wait=900
    while [ $# -gt 0 ]; do
        case "$1" in
            --mininet-only) local=0; shift ;;
            --local-only) mininet=0; shift ;;
            --arrivals) [[ "${2:-}" =~ ^[1-9][0-9]*$ ]] || { echo "bench loop: --arrivals takes a positive number" >&2; return 2; }
                arrivals="$2"; shift 2 ;;
            --exact-wait) [[ "${2:-}" =~ ^[0-9]+$ ]] || { echo "bench loop: --exact-wait takes a number of seconds" >&2; return 2; }
                exact_wait="$2"; shift 2 ;;
            -h|--help) sed -n 's/^# \{0,1\}//p' "$root/tools/bench/loop.sh" | sed -n '2,14p'; return 0 ;;
            *) echo "bench loop: unknown argument '$1'" >&2; return 2 ;;
        esac
    done
    local kafka_was_running=0
    pid_alive kafka && kafka_was_running=1
    "$root/fairfabric" kafka start >/dev/null || return 1
    local rc=0
    if [ "$mininet" = 1 ]; then
        need_root "bench loop (Mininet)"
        (cd "$root/mininet" && "$FF_VENV/bin/python" -m fairfabric_mn.loop_bench --kafka "$FAIRFABRIC_KAFKA" --arrivals "$arrivals") || rc=$?
    fi
    if [ "$local" = 1 ] && [ "$rc" = 0 ]; then
        # shellcheck source=tools/lib/allocator-java.sh
        source "$root/tools/lib/allocator-java.sh"
        local cp
        cp=$(ff_allocator_classpath "$root") || rc=1
        # as root the JVM applies thread priorities (the exact solver's lowest one: nice 4)
        local prio=()
        if [ "$(id -u)" = 0 ]; then prio=(-XX:ThreadPriorityPolicy=1); fi
        if [ "$rc" = 0 ]; then
            # The controller's collector (G1): with the parallel collector the solver's C2-compiled counted
            # loops keep no safepoint polls, and every safepoint (GC, the 1 s cleanup) waited up to 0.4 s
            # for them with the allocation loop stopped (docs/controller.md, bench loop, session 15).
            # shellcheck disable=SC2086
            java ${FF_LOOP_JAVA_OPTS:--Xmx2g} "${prio[@]}" -cp "$cp" \
                org.fairfabric.controller.bench.LoopBenchmark --kafka "$FAIRFABRIC_KAFKA" --arrivals "$arrivals" --exact-wait "$exact_wait" || rc=$?
        fi
    fi
    [ "$kafka_was_running" = 1 ] || "$root/fairfabric" kafka stop >/dev/null
    return "$rc"
}
ff_bench_loop_rc=0
ff_bench_loop_main "$@" || ff_bench_loop_rc=$?
exit "$ff_bench_loop_rc"
