# summary: run every test CI runs (Java, Go, Python and Mininet); runs setup first when needed
# Sourced by ./fairfabric. Usage: ./fairfabric test [java] [go] [java-mininet] [python] [gui]  (default: all)

case "${1:-}" in
    -h|--help)
        echo "usage: ./fairfabric test [java] [go] [java-mininet] [python] [gui]"
        echo "  java          the Maven reactor (JUnit 5) up to 'verify', and the ONOS .oar check"
        echo "  go            go test ./... (p4switch, host shim, pipeline STF suites), then -race on the concurrent packages"
        echo "  java-mininet  the controller's Mininet-backed JUnit tests (@Tag mininet; root, bin/, Kafka)"
        echo "  python        pytest mininet/tests tools/tests (Mininet-backed tests; root)"
        echo "  gui           the web GUI: model unit tests, then Playwright (chromium) against a live k=4 fabric (root)"
        echo "Runs setup first when needed and starts the project's Kafka broker."
        exit 0 ;;
esac
suites=("$@")
[ ${#suites[@]} -gt 0 ] || suites=(java go java-mininet python gui)
for s in "${suites[@]}"; do
    case "$s" in java|go|java-mininet|python|gui) ;; *) echo "fairfabric test: unknown suite '$s' (java, go, java-mininet, python, gui)" >&2; exit 2 ;; esac
done
need_root test
started=$(date +%s)
ensure_setup

kafka_was_running=0
pid_alive kafka && kafka_was_running=1
"$FF_ROOT/fairfabric" kafka start
cleanup_test() {
    [ "$kafka_was_running" = 1 ] || "$FF_ROOT/fairfabric" kafka stop >/dev/null
}
trap cleanup_test EXIT

results=()
failed=0
# Test topics an earlier (interrupted) run left behind are not this run's fault: remove them first.
TEST_TOPICS='\.t[0-9]+-[0-9]+$|^test-[0-9a-f]{8}\.|\.test-[0-9a-f]{8}|^fairfabric\.test\.'
"$FF_ROOT/bin/shimctl" topics -kafka "$FAIRFABRIC_KAFKA" -match "$TEST_TOPICS" -delete >/dev/null ||
    say test "kafka: could not remove the test topics of earlier runs"
# run_suite NAME LOG CMD...: run one suite, keep its output in LOG, show the tail on failure.
run_suite() {
    local name="$1" log="$2" t0 rc
    shift 2
    t0=$(date +%s)
    say test "$name: running ($*)"
    set +e
    (cd "$FF_ROOT" && "$@") >"$log" 2>&1
    rc=$?
    set -e
    if [ $rc -eq 0 ]; then
        say test "$name: PASS in $(( $(date +%s) - t0 )) s"
        results+=("$name ok")
    else
        tail -n 60 "$log"
        say test "$name: FAIL (exit $rc) in $(( $(date +%s) - t0 )) s; full log: $log"
        results+=("$name FAILED")
        failed=1
    fi
}

check_oar() {
    local oar
    oar=$(ls apps/onos/target/*.oar 2>/dev/null | head -n1)
    [ -n "$oar" ] || { echo "no .oar under apps/onos/target"; return 1; }
    unzip -p "$oar" app.xml | grep -q 'name="org.fairfabric"' || { echo "$oar: app.xml does not name org.fairfabric"; return 1; }
    echo "$oar: app.xml names org.fairfabric"
    # The bundle inside: web context, Karaf commands, pipeconf (BundleResolvesIT also loads it into Felix).
    # (Listings go into variables: with pipefail, grep -q closing a pipe early would fail unzip.)
    local listing jar bundle manifest
    listing=$(unzip -Z1 "$oar")
    jar=$(grep -E '^m2/.*/fairfabric-onos-[^/]*\.jar$' <<<"$listing" | head -n1 || true)
    [ -n "$jar" ] || { echo "$oar: no fairfabric-onos bundle under m2/"; return 1; }
    grep -q -- '-features\.xml$' <<<"$listing" || { echo "$oar: no features.xml"; return 1; }
    unzip -p "$oar" "$jar" > "$FF_RUN/oar-bundle.jar"
    bundle=$(unzip -Z1 "$FF_RUN/oar-bundle.jar")
    manifest=$(unzip -p "$FF_RUN/oar-bundle.jar" META-INF/MANIFEST.MF | tr -d '\r' | sed -e ':a' -e 'N' -e '$!ba' -e 's/\n //g')
    grep -q '^Web-ContextPath: /onos/fairfabric$' <<<"$manifest" || { echo "$oar: bundle lacks Web-ContextPath: /onos/fairfabric"; return 1; }
    grep -q '^Karaf-Commands: org.fairfabric.onos.cli$' <<<"$manifest" || { echo "$oar: bundle lacks Karaf-Commands"; return 1; }
    grep -q '^WEB-INF/classes/p4info.txt$' <<<"$bundle" || { echo "$oar: bundle lacks the pipeconf's P4Info"; return 1; }
    grep -q '^WEB-INF/web.xml$' <<<"$bundle" || { echo "$oar: bundle lacks WEB-INF/web.xml"; return 1; }
    grep -q '^OSGI-INF/org.fairfabric.onos.platform.FabricPlatformComponent.xml$' <<<"$bundle" || { echo "$oar: bundle lacks the platform component"; return 1; }
    echo "$oar: bundle $jar has /onos/fairfabric, the Karaf commands, web.xml, the pipeconf and the platform component"
}

for s in "${suites[@]}"; do
    case "$s" in
        java)
            run_suite java "$FF_RUN/logs/test-java.log" mvn -B -Dstyle.color=never verify
            java_tests=$(cat "$FF_ROOT"/*/target/surefire-reports/*.txt "$FF_ROOT"/apps/*/target/surefire-reports/*.txt 2>/dev/null |
                awk '/^Tests run:/ {gsub(",", "", $3); n += $3} END {print n + 0}')
            say test "java: ${java_tests:-0} JUnit tests"
            run_suite onos-oar "$FF_RUN/logs/test-oar.log" check_oar
            ;;
        go)
            run_suite go "$FF_RUN/logs/test-go.log" go test -count=1 ./...
            { grep -E '^(ok|FAIL|---)' "$FF_RUN/logs/test-go.log" || true; } | sed 's/^/    /' | head -n 60
            # The packages whose goroutines share state, again under the race detector.
            run_suite go-race "$FF_RUN/logs/test-go-race.log" go test -count=1 -race \
                ./p4switch/switch/ ./p4switch/tm/ ./p4switch/v1model/ ./p4switch/server/ ./p4switch/netio/ \
                ./host-shim/agent/ ./host-shim/telemetry/
            ;;
        java-mininet)
            # After go: the tests run bin/p4switch. Only the tagged tests run (-Dtest keeps the
            # other modules' tests out; -am builds what the controller needs from this tree).
            run_suite java-mininet "$FF_RUN/logs/test-java-mininet.log" mvn -B -Dstyle.color=never -Pmininet \
                -pl apps/controller -am test -Dtest='**/controller/mininet/*Test' -Dsurefire.failIfNoSpecifiedTests=false
            { grep -E 'Tests run:|\[mininet\]' "$FF_RUN/logs/test-java-mininet.log" || true; } | sed 's/^/    /' | tail -n 8
            ;;
        python)
            dirs=()
            for d in mininet/tests tools/tests; do [ -d "$FF_ROOT/$d" ] && dirs+=("$d"); done
            run_suite python "$FF_RUN/logs/test-python.log" "$FF_VENV/bin/python" -m pytest -q -p no:cacheprovider "${dirs[@]}"
            tail -n 1 "$FF_RUN/logs/test-python.log" | sed 's/^/    /'
            ;;
        gui)
            # After java: the controller's classes are what the live fabric runs. A monitor instance
            # (stopped again below unless it ran before) gives the links their measured loads.
            gui_monitor_was_running=0
            pid_alive monitor-0 && gui_monitor_was_running=1
            # shellcheck source=tools/lib/monitor-java.sh
            source "$FF_ROOT/tools/lib/monitor-java.sh"
            ff_monitor_start_bg 0 --reset
            run_suite gui "$FF_RUN/logs/test-gui.log" env FF_VENV="$FF_VENV" bash -c \
                'cd apps/gui && npm run --silent build && npm test && npm run test:live'
            { grep -E '^# (tests|pass|fail|skipped)|^not ok|^# (tenant|link|iperf3|fgedge00|ping|loads)' "$FF_RUN/logs/test-gui.log" || true; } | sed 's/^/    /' | head -n 30
            [ "$gui_monitor_was_running" = 1 ] || stop_pid monitor-0
            ;;
    esac
done

# Tests delete the Kafka topics they create (suffix .t<pid>-<ms>, KafkaEventPublisherTest's
# test-<id>. prefix, the monitor's BrokerFixture .test-<id>, BrokerRoundTripTest's fairfabric.test.): any left on the broker is a failure, listed, then removed.
leftover=$("$FF_ROOT/bin/shimctl" topics -kafka "$FAIRFABRIC_KAFKA" -match "$TEST_TOPICS" -delete 2>&1) ||
    leftover="error: $leftover"
if [ "$leftover" = '{"deleted":true,"topics":[]}' ]; then
    say test "kafka: no test topics left behind"
    results+=("topics ok")
else
    say test "kafka: test topics left behind (now deleted): $leftover"
    results+=("topics LEFT BEHIND")
    failed=1
fi

summary=$(printf '%s, ' "${results[@]}"); summary=${summary%, }
if [ $failed = 0 ]; then
    echo "fairfabric test: PASS ($summary) in $(( $(date +%s) - started )) s"
else
    echo "fairfabric test: FAIL ($summary) in $(( $(date +%s) - started )) s"
    exit 1
fi
