package org.fairfabric.controller.bench;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.ToDoubleFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.fairfabric.controller.cli.ProblemJson;
import org.fairfabric.core.allocator.Allocation;
import org.fairfabric.core.allocator.AllocationChecks;
import org.fairfabric.core.allocator.AllocationProblem;
import org.fairfabric.core.allocator.ExactAllocator;
import org.fairfabric.core.allocator.FatTreeGenerator;

/**
 * {@code ./fairfabric bench allocator}: exact mode on fixed-seed fat-tree instances — time to a
 * certified relative gap of 1e-3 and 1e-4, iterations, peak heap, a warm re-solve after one
 * session leaves — and, where it finishes within the time cap, cvxpy/Clarabel on the same
 * instance in the same run (the oracle under tools/oracle).
 *
 * <p>usage: AllocatorBenchmark [--python PATH] [--oracle-timeout SECONDS] [--only k=8,...] [--seed N]
 */
public final class AllocatorBenchmark {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    private static final Pattern SECONDS = Pattern.compile("\"solveSeconds\": ([0-9.eE+-]+)");

    private record Instance(int k, int sessions, int paths, long seed, boolean oracle) {
        String name() {
            return "k=" + k + "/" + sessions + "x" + paths;
        }
    }

    public static void main(String[] args) throws Exception {
        String python = null;
        long oracleTimeout = 600;
        String only = null;
        long seed = 1;
        String root = System.getProperty("ff.root", ".");
        for (int a = 0; a < args.length; a++) {
            switch (args[a]) {
                case "--python" -> python = args[++a];
                case "--oracle-timeout" -> oracleTimeout = Long.parseLong(args[++a]);
                case "--only" -> only = args[++a];
                case "--seed" -> seed = Long.parseLong(args[++a]);
                default -> throw new IllegalArgumentException("unknown argument " + args[a]);
            }
        }
        List<Instance> instances = new ArrayList<>();
        instances.add(new Instance(8, 1_000, 4, seed, true));
        instances.add(new Instance(16, 10_000, 8, seed, true));
        instances.add(new Instance(32, 100_000, 8, seed, false));

        System.out.printf(Locale.ROOT, "allocator benchmark: exact mode (lazy link constraints, merged path classes, dual coordinate descent; "
                + "interior point where needed), 1 thread, "
                + "%d cores visible; cvxpy/Clarabel %s%n", Runtime.getRuntime().availableProcessors(),
                python == null ? "skipped (no Python with cvxpy)" : "via " + python);
        warmUpJit();
        for (Instance inst : instances) {
            if (only != null && !only.equals("k=" + inst.k())) {
                continue;
            }
            run(inst, python, oracleTimeout, Path.of(root));
        }
    }

    /**
     * Compiles the hot loops, cold and warm, before anything is timed, on instances not measured
     * (other seeds): a small one, and one of the middle size, whose warm solves take the paths a
     * large fabric takes (few sessions touched by a departure), as they would be in a controller
     * that re-solves on every change.
     */
    private static void warmUpJit() throws Exception {
        warmUp(new FatTreeGenerator(8, 1_000, 4, 99).generate(), 10, 10);
        warmUp(new FatTreeGenerator(16, 10_000, 8, 99).generate(), 3, 10);
    }

    private static void warmUp(AllocationProblem pb, int colds, int warmsPerCold) throws Exception {
        for (int rep = 0; rep < colds; rep++) {
            Allocation cold = new ExactAllocator(1e-4, 200).solve(pb);
            for (int again = 0; again < warmsPerCold; again++) {
                new ExactAllocator(1e-4, 200).solve(pb.withoutSession(again), cold.warmStart());
            }
        }
    }

    private static void run(Instance inst, String python, long oracleTimeout, Path root) throws Exception {
        AllocationProblem pb = new FatTreeGenerator(inst.k(), inst.sessions(), inst.paths(), inst.seed()).generate();
        System.out.printf(Locale.ROOT, "%n%s (seed %d): %d links, %d sessions, %d paths%n", inst.name(), inst.seed(),
                pb.linkCount(), pb.sessionCount(), pb.pathCount());
        Timed t3 = timed(pb, 1e-3, null);
        System.out.printf(Locale.ROOT, "  cold to 1e-3: %9.1f ms  %3d iterations  gap %.2e  peak heap %s%n",
                t3.ms, t3.allocation.iterations(), t3.allocation.relativeGap(), mb(t3.peakHeap));
        Timed t4 = timed(pb, 1e-4, null);
        System.out.printf(Locale.ROOT, "  cold to 1e-4: %9.1f ms  %3d iterations  gap %.2e  peak heap %s"
                + "  max overload %.1e%n", t4.ms, t4.allocation.iterations(), t4.allocation.relativeGap(),
                mb(t4.peakHeap), AllocationChecks.maxRelativeOverload(t4.allocation));
        AllocationProblem after = pb.withoutSession(0);
        // Cold and warm solves alternate, so that drift in the machine's speed hits both alike,
        // back to back as a controller re-solves (no full collection before each).
        List<Timed> colds = new ArrayList<>();
        List<Timed> warms = new ArrayList<>();
        for (int r = 0; r < PAIRS; r++) {
            colds.add(timed(after, 1e-4, null, false));
            warms.add(timed(after, 1e-4, t4.allocation, false));
        }
        Timed coldAfter = median(colds, Timed::ms);
        Timed warm = median(warms, Timed::ms);
        double cpuRatio = median(warms, Timed::cpuMs).cpuMs / median(colds, Timed::cpuMs).cpuMs;
        System.out.printf(Locale.ROOT, "  session s0 leaves: warm re-solve to 1e-4 %9.1f ms  %d iterations "
                + "(cold on the same problem %.1f ms, %d iterations; medians of %d alternating pairs): "
                + "warm/cold = %.0f%% (thread CPU time: %.0f%%)  warm gap %.2e  max overload %.1e%n",
                warm.ms, warm.allocation.iterations(), coldAfter.ms, coldAfter.allocation.iterations(), PAIRS,
                100 * warm.ms / coldAfter.ms, 100 * cpuRatio, warm.allocation.relativeGap(),
                AllocationChecks.maxRelativeOverload(warm.allocation));
        printDepartureSize(pb, after);
        if (!inst.oracle()) {
            System.out.println("  cvxpy/Clarabel: skipped at this size (would take far beyond the time cap)");
            return;
        }
        if (python == null) {
            System.out.println("  cvxpy/Clarabel: skipped (no Python with cvxpy; set PYTHON)");
            return;
        }
        Path problemFile = Files.createTempFile("allocator-bench-", ".json");
        try {
            Files.writeString(problemFile, ProblemJson.MAPPER.writeValueAsString(ProblemJson.toJson(pb)));
            long started = System.nanoTime();
            Process proc = new ProcessBuilder(python, root.resolve("tools/oracle/oracle.py").toString(),
                    problemFile.toString()).redirectError(ProcessBuilder.Redirect.DISCARD).start();
            byte[] out;
            if (!proc.waitFor(oracleTimeout, TimeUnit.SECONDS)) {
                proc.destroyForcibly();
                System.out.printf(Locale.ROOT, "  cvxpy/Clarabel: did not finish within %d s%n", oracleTimeout);
                return;
            }
            out = proc.getInputStream().readAllBytes();
            double wall = (System.nanoTime() - started) / 1e9;
            String text = new String(out, StandardCharsets.UTF_8);
            Matcher m = SECONDS.matcher(text);
            if (proc.exitValue() != 0 || !m.find()) {
                System.out.printf(Locale.ROOT, "  cvxpy/Clarabel: failed (exit %d)%n", proc.exitValue());
                return;
            }
            double solve = Double.parseDouble(m.group(1));
            System.out.printf(Locale.ROOT, "  cvxpy/Clarabel: %.2f s (solve incl. cvxpy compile; %.2f s with Python "
                    + "start-up) -> exact mode to 1e-4 is %.1fx faster; max session-rate difference %.1e%n",
                    solve, wall, solve * 1000 / t4.ms, maxRateDifference(t4.allocation, text));
        } finally {
            Files.deleteIfExists(problemFile);
        }
    }

    /**
     * How large the change is that the warm re-solve starts from: the other sessions' previous
     * rates (still feasible after a departure) against the new optimum, both solved to
     * {@link #REFERENCE_TOLERANCE} — the utility Σ w log x they fall short by, relative to Σ w (in
     * the units of the tolerance), and how many sessions' rates move.
     */
    private static void printDepartureSize(AllocationProblem pb, AllocationProblem after) throws Exception {
        Allocation before = new ExactAllocator(REFERENCE_TOLERANCE, 400).solve(pb);
        Allocation now = new ExactAllocator(REFERENCE_TOLERANCE, 400).solve(after);
        Map<String, Integer> previous = new HashMap<>();
        for (int i = 0; i < pb.sessionCount(); i++) {
            previous.put(pb.sessionId(i), i);
        }
        double shortfall = 0;
        double sumWeights = 0;
        int over1e4 = 0;
        int over1e3 = 0;
        for (int i = 0; i < after.sessionCount(); i++) {
            double old = before.sessionRate(previous.get(after.sessionId(i)));
            double w = after.weight(i);
            shortfall += w * Math.log(now.sessionRate(i) / old);
            sumWeights += w;
            double moved = Math.abs(now.sessionRate(i) / old - 1);
            over1e4 += moved > 1e-4 ? 1 : 0;
            over1e3 += moved > 1e-3 ? 1 : 0;
        }
        System.out.printf(Locale.ROOT, "  departure size: the other sessions' previous rates fall %.1e short of the new "
                + "optimum (relative utility; both solved to %.0e, gaps %.0e and %.0e); %d of %d sessions' rates move "
                + "by more than 1e-4, %d by more than 1e-3%n", shortfall / sumWeights, REFERENCE_TOLERANCE,
                before.relativeGap(), now.relativeGap(), over1e4, after.sessionCount(), over1e3);
    }

    /** Tolerance of the reference solves that measure a departure's size. */
    private static final double REFERENCE_TOLERANCE = 1e-7;

    private static double maxRateDifference(Allocation a, String oracleOutput) throws IOException {
        JsonNode sessions = ProblemJson.MAPPER.readTree(oracleOutput).get("sessions");
        double worst = 0;
        for (int i = 0; i < sessions.size(); i++) {
            double expected = sessions.get(i).get("rate").asDouble();
            worst = Math.max(worst, Math.abs(a.sessionRate(i) - expected) / expected);
        }
        return worst;
    }

    private record Timed(Allocation allocation, double ms, double cpuMs, long peakHeap) {
    }

    private static Timed timed(AllocationProblem pb, double tolerance, Allocation previous) throws Exception {
        return timed(pb, tolerance, previous, true);
    }

    /** A timed solve; with {@code collectFirst}, after a full collection (for the peak heap it reports). */
    private static Timed timed(AllocationProblem pb, double tolerance, Allocation previous, boolean collectFirst)
            throws Exception {
        if (collectFirst) {
            System.gc();
        }
        List<MemoryPoolMXBean> heap = new ArrayList<>();
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP) {
                pool.resetPeakUsage();
                heap.add(pool);
            }
        }
        long start = System.nanoTime();
        long cpuStart = THREADS.getCurrentThreadCpuTime();
        Allocation a = new ExactAllocator(tolerance, 200).solve(pb, previous == null ? null : previous.warmStart());
        double cpuMs = (THREADS.getCurrentThreadCpuTime() - cpuStart) / 1e6;
        double ms = (System.nanoTime() - start) / 1e6;
        long peak = 0;
        for (MemoryPoolMXBean pool : heap) {
            peak += pool.getPeakUsage().getUsed();
        }
        if (!a.converged()) {
            System.out.printf(Locale.ROOT, "  (did not converge to %.0e: gap %.2e after %d iterations)%n",
                    tolerance, a.relativeGap(), a.iterations());
        }
        return new Timed(a, ms, cpuMs, peak);
    }

    /** Cold and warm solves timed for the warm/cold ratio. */
    private static final int PAIRS = 7;

    private static Timed median(List<Timed> runs, ToDoubleFunction<Timed> key) {
        List<Timed> sorted = new ArrayList<>(runs);
        sorted.sort(Comparator.comparingDouble(key));
        return sorted.get(sorted.size() / 2);
    }

    private static String mb(long bytes) {
        return String.format(Locale.ROOT, "%.0f MB", bytes / 1e6);
    }
}
