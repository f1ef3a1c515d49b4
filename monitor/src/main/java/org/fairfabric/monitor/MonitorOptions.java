package org.fairfabric.monitor;

import java.nio.file.Path;
import java.util.Map;

/** The command line of {@code ./fairfabric monitor}; a bad option is an {@link IllegalArgumentException}. */
public record MonitorOptions(String bootstrap, int instanceId, String topicSuffix, int partitions, Path stateDir,
                             MonitorSettings settings, boolean reset, long commitIntervalMs, int threads) {

    /** docs/monitor.md, "Benchmark": under exactly-once a stage's output is readable only after its commit. */
    public static final long DEFAULT_COMMIT_INTERVAL_MS = 20;
    /** The readers' task and the stages' tasks side by side. */
    public static final int DEFAULT_THREADS = 2;

    public static final String USAGE = String.join("\n",
            "usage: monitor [--kafka HOST:PORT] [--instance-id N] [--topic-suffix S] [--partitions N]",
            "               [--state-dir DIR] [--period-ms MS] [--grace-ms MS] [--activity-window-ms MS]",
            "               [--liveness-timeout-ms MS] [--violation-hold-ms MS] [--violation-tolerance F]",
            "               [--input-lag-ms MS] [--min-mean-packet-bytes B] [--commit-interval-ms MS]",
            "               [--threads N] [--reset]",
            "  --kafka        broker (default: $FAIRFABRIC_KAFKA)",
            "  --instance-id  this instance's number; instances of one suffix share the work (default 0)",
            "  --partitions   partitions of the monitor's internal topics when it creates them (default 2)",
            "  --commit-interval-ms  Kafka Streams' transaction commit interval (default 20)",
            "  --threads      stream threads of this instance (default 2)",
            "  --state-dir    local state (default .run/monitor/<instance-id>)",
            "  --reset        a fresh view: delete the monitor's own topics, consumer group and local state",
            "                 first, then start at the end of the inputs (the demo and the GUI tests use it)",
            "  defaults: period 1000, grace 1500, activity window 3000, liveness timeout 30000,",
            "            violation hold 3000 ms, violation tolerance 0.05, input lag 5000,",
            "            min mean packet bytes 100 (a pair's traffic with smaller packets, e.g. the ACKs",
            "            of a TCP flow's reverse direction, does not make it a session)");

    public static MonitorOptions parse(String[] args, Map<String, String> env) {
        String bootstrap = null;
        int instance = 0;
        String suffix = "";
        int partitions = 2;
        Path stateDir = null;
        MonitorSettings d = MonitorSettings.DEFAULTS;
        long period = d.periodMs();
        long grace = d.graceMs();
        long window = d.activityWindowMs();
        long timeout = d.livenessTimeoutMs();
        long hold = d.violationHoldMs();
        double tolerance = d.violationTolerance();
        long inputLag = d.inputLagMs();
        long minMeanPacket = d.minMeanPacketBytes();
        boolean reset = false;
        long commitInterval = DEFAULT_COMMIT_INTERVAL_MS;
        int threads = DEFAULT_THREADS;
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (a.equals("--reset")) {
                reset = true;
                continue;
            }
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException(a.startsWith("--") ? a + " needs a value" : "unknown argument '" + a + "'");
            }
            String v = args[++i];
            switch (a) {
                case "--kafka" -> bootstrap = KafkaSettings.bootstrapServers(Map.of(KafkaSettings.ENV, v));
                case "--instance-id" -> instance = (int) number(a, v, 0, 1000);
                case "--topic-suffix" -> suffix = v;
                case "--partitions" -> partitions = (int) number(a, v, 1, 1000);
                case "--commit-interval-ms" -> commitInterval = number(a, v, 1, 60_000);
                case "--threads" -> threads = (int) number(a, v, 1, 64);
                case "--state-dir" -> stateDir = Path.of(v);
                case "--period-ms" -> period = number(a, v, 1, 3_600_000);
                case "--grace-ms" -> grace = number(a, v, 0, 3_600_000);
                case "--activity-window-ms" -> window = number(a, v, 1, 86_400_000);
                case "--liveness-timeout-ms" -> timeout = number(a, v, 1, 86_400_000);
                case "--violation-hold-ms" -> hold = number(a, v, 0, 86_400_000);
                case "--input-lag-ms" -> inputLag = number(a, v, 0, 86_400_000);
                case "--min-mean-packet-bytes" -> minMeanPacket = number(a, v, 0, 65_535);
                case "--violation-tolerance" -> {
                    try {
                        tolerance = Double.parseDouble(v);
                    } catch (NumberFormatException e) {
                        throw new IllegalArgumentException(a + ": '" + v + "' is not a number");
                    }
                }
                default -> throw new IllegalArgumentException("unknown argument '" + a + "'");
            }
        }
        if (bootstrap == null) {
            try {
                bootstrap = KafkaSettings.bootstrapServers(env);
            } catch (IllegalStateException e) {
                throw new IllegalArgumentException(e.getMessage() + " (or pass --kafka HOST:PORT)");
            }
        }
        if (stateDir == null) {
            stateDir = Path.of(".run", "monitor", Integer.toString(instance));
        }
        return new MonitorOptions(bootstrap, instance, suffix, partitions, stateDir,
                new MonitorSettings(period, grace, window, timeout, hold, tolerance, inputLag,
                minMeanPacket), reset, commitInterval, threads);
    }

    private static long number(String option, String value, long min, long max) {
        long n;
        try {
            n = Long.parseLong(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(option + ": '" + value + "' is not a whole number");
        }
        if (n < min || n > max) {
            throw new IllegalArgumentException(option + ": " + n + " is outside " + min + ".." + max);
        }
        return n;
    }
}
