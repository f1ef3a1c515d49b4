# summary: link failures with the shims moving sessions: traffic-restoration p50/p99 (fail-stop and gray 5 %) beside the same failures found by echo alone and the controller-only re-allocation of the same run; false failures
# Sourced by ./fairfabric bench. Usage: ./fairfabric bench failover [REPEATS] [GRAY_REPEATS] [ECHO_REPEATS]
#   REPEATS fail-stop failures (cable cut: carrier lost, acted on by the switch; default 10),
#   GRAY_REPEATS 5 % loss failures (default 3), ECHO_REPEATS the baseline: the same link failed
#   as a black hole without carrier loss, so only missed echoes find it (default REPEATS).
# Runs the Mininet JUnit test FailoverFabricTest (4x4 leaf-spine at 10 Mbit/s, a shim on every
# host, default 250 ms echo interval; docs/guarantees.md "Failure handling"). Per failure it
# measures, from the moment the link fails: when the controller declares it (echo detection
# alone: today's mechanism and the baseline), when the sender's shim moved the session
# (ff.ctl.deadpaths.v1), when the re-allocation without the link was in force (what the rates
# alone would give), and when the receiver, after the outage (< 50 %), got >= 90 % of the new allocation again and kept it
# for 300 ms (100 ms windows of its received bytes, sampled every 5 ms; fail-stop only: a 5 %
# loss makes no outage, so gray failures are judged by when the shim left the lossy link). Needs root (Mininet) and a Kafka broker
# (started here when not running). Figures are as noisy as the machine is loaded: the load
# average is printed on every line.

if [ -z "${FF_ROOT:-}" ]; then  # run directly rather than by ./fairfabric bench
    set -euo pipefail
    FF_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
    export FF_ROOT
    # shellcheck source=../lib/common.sh
    source "$FF_ROOT/tools/lib/common.sh"
fi
need_root "bench failover"
ensure_setup
repeats="${1:-10}"
gray="${2:-3}"
echo_repeats="${3:-$repeats}"
[[ "$repeats" =~ ^[1-9][0-9]*$ ]] || die "bench failover: REPEATS must be a positive number, not '$repeats'"
[[ "$gray" =~ ^[0-9]+$ ]] || die "bench failover: GRAY_REPEATS must be a number, not '$gray'"
[[ "$echo_repeats" =~ ^[1-9][0-9]*$ ]] || die "bench failover: ECHO_REPEATS must be a positive number, not '$echo_repeats'"
bench_kafka_was_running=0
pid_alive kafka && bench_kafka_was_running=1
"$FF_ROOT/fairfabric" kafka start
mkdir -p "$FF_RUN/logs"
log="$FF_RUN/logs/bench-failover.log"
say bench "failover: $repeats fail-stop (cut), $echo_repeats fail-stop (echo alone) and $gray gray failures in Mininet (log: $log)"
test_filter=FailoverFabricTest
[ "$gray" = 0 ] && test_filter='FailoverFabricTest#failStop*'
rc=0
(cd "$FF_ROOT" && mvn -B -Dstyle.color=never -Pmininet -pl apps/controller -am test -Dtest="$test_filter" \
    -Dsurefire.failIfNoSpecifiedTests=false -Dfairfabric.failover.repeats="$repeats" \
    -Dfairfabric.failover.grayRepeats="$gray" -Dfairfabric.failover.echoRepeats="$echo_repeats") >"$log" 2>&1 || rc=$?
[ "$bench_kafka_was_running" = 1 ] || "$FF_ROOT/fairfabric" kafka stop
grep -E '^\[mininet\]' "$log" | sed 's/^\[mininet\] /  /'
echo
echo "  baseline (same run): 'echo-alone fail-stop' is the same link failed as a black hole (100 % loss, carrier"
echo "  kept), found only by missed echoes (the mechanism before port-down detection); 're-allocated' is when"
echo "  the controller's rates without the link were in force — what restoration would take without the shims' move."
grep -E 'Tests run:.*Fail' "$log" | tail -n 1 | sed 's/^/  /'
[ "$rc" = 0 ] || { tail -n 40 "$log" >&2; die "bench failover: the Mininet run failed (log: $log)"; }
