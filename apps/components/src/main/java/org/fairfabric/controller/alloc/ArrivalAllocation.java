package org.fairfabric.controller.alloc;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.fairfabric.core.allocator.AllocationProblem;

/**
 * A feasible allocation for sessions that arrived, computed from the one in force without solving,
 * to be in force until the exact solve that follows replaces it (docs/controller.md, "Arrivals and departures").
 * Every other session keeps its path rates, except where a newcomer needs room. Each newcomer, in
 * turn, goes whole on one path, the one of its candidates that gives it the most, where a path
 * gives its narrowest link's weighted fair share ({@link #share}: what the proportional-fair
 * optimum gives on a single bottleneck), within the newcomer's demand, at least its guaranteed
 * minimum, and at most what the link has left once every other session on it is down to its floor
 * (the part of its own minimum its other paths do not carry). On each link of that path that is
 * then over capacity, the other sessions give up the excess weighted max-min (those with the most
 * per unit of weight come down first, none below its floor), each spreading its cut over its paths
 * on the link in proportion to their rates. So no link exceeds its capacity and every session keeps
 * its guarantee; when that cannot be done (no path has room for a newcomer's guarantee, or a kept
 * session is below its minimum in the new problem, as after a departure that raises its tenant's
 * per-session share), there is no interim allocation and the exact solve alone decides.
 */
final class ArrivalAllocation {
    /** Relative tolerance for rounding in the capacity and guarantee checks. */
    static final double SLACK = 1e-9;

    private ArrivalAllocation() {
    }

    /**
     * @param p         the problem with the newcomers (and without sessions that left)
     * @param inForce   per path of {@code p}, the rate in force (0 on the newcomers' paths)
     * @param newcomers indices of {@code p}'s sessions that arrived
     * @return per path of {@code p}, the interim rates; null when there is none
     */
    static double[] of(AllocationProblem p, double[] inForce, int[] newcomers) {
        return of(p, inForce, newcomers, null);
    }

    /**
     * As {@link #of(AllocationProblem, double[], int[])}; {@code linkPaths}, when not null, lists
     * per link of {@code p} the paths over it in ascending order ({@link AppendIndex}), so that a
     * newcomer's links' other sessions are found from them instead of a pass over every session.
     */
    static double[] of(AllocationProblem p, double[] inForce, int[] newcomers, AppendIndex.IntList[] linkPaths) {
        return of(p, inForce, newcomers, linkPaths, totals(p, inForce), loads(p, inForce), null);
    }

    /**
     * As {@link #of(AllocationProblem, double[], int[], AppendIndex.IntList[])}, given the sessions'
     * totals and the links' loads at {@code inForce} as {@link #totals} and {@link #loads} compute them
     * (so bit for bit the same); both are updated in place as the newcomers are placed (their values
     * afterwards are approximate: see {@link #refresh}). {@code touched}, when not null, receives
     * every session whose rates, total or loads the placing may have changed (newcomers included).
     */
    static double[] of(AllocationProblem p, double[] inForce, int[] newcomers, AppendIndex.IntList[] linkPaths, double[] total, double[] load,
                       List<Integer> touched) {
        double[] rates = inForce.clone();
        boolean[] arriving = new boolean[p.sessionCount()];
        for (int n : newcomers) {
            arriving[n] = true;
        }
        for (int i = 0; i < p.sessionCount(); i++) {
            if (!arriving[i] && total[i] < p.minRate(i) * (1 - SLACK)) {
                return null;
            }
        }
        for (int e = 0; e < p.linkCount(); e++) {
            if (load[e] > p.capacity(e) * (1 + SLACK)) {
                return null;
            }
        }
        for (int n : newcomers) {
            if (!place(p, rates, total, load, n, linkPaths, touched)) {
                return null;
            }
        }
        return rates;
    }

    /** Per session of {@code p}, the sum of its paths' {@code rates}, in path order. */
    static double[] totals(AllocationProblem p, double[] rates) {
        double[] total = new double[p.sessionCount()];
        for (int i = 0; i < p.sessionCount(); i++) {
            for (int q = p.firstPath(i); q < p.endPath(i); q++) {
                total[i] += rates[q];
            }
        }
        return total;
    }

    /** Per link of {@code p}, the sum of {@code rates} over the paths that cross it, in path order. */
    static double[] loads(AllocationProblem p, double[] rates) {
        double[] load = new double[p.linkCount()];
        for (int q = 0; q < p.pathCount(); q++) {
            addPath(p, load, q, rates[q]);
        }
        return load;
    }

    /**
     * Makes {@code total} and {@code load}, which {@link #of} left approximate for the sessions it
     * {@code touched}, exactly what {@link #totals} and {@link #loads} give for {@code rates}: each
     * touched session is summed again, and so is each link of its paths, from {@code linkPaths} (the
     * link's paths in ascending order: the same sum in the same order). The work is the touched
     * sessions' paths and the paths over their links.
     */
    static void refresh(AllocationProblem p, double[] rates, List<Integer> touched, AppendIndex.IntList[] linkPaths, double[] total, double[] load) {
        boolean[] marked = new boolean[p.linkCount()];
        List<Integer> links = new ArrayList<>();
        for (int i : touched) {
            double sum = 0;
            for (int q = p.firstPath(i); q < p.endPath(i); q++) {
                sum += rates[q];
                for (int k = 0; k < p.pathLength(q); k++) {
                    int e = p.pathLink(q, k);
                    if (!marked[e]) {
                        marked[e] = true;
                        links.add(e);
                    }
                }
            }
            total[i] = sum;
        }
        for (int e : links) {
            double sum = 0;
            AppendIndex.IntList over = linkPaths[e];
            for (int j = 0; j < over.size; j++) {
                sum += rates[over.get(j)];
            }
            load[e] = sum;
        }
    }

    private static boolean place(AllocationProblem p, double[] rates, double[] total, double[] load, int n, AppendIndex.IntList[] linkPaths,
                                 List<Integer> touched) {
        Map<Integer, List<int[]>> others = linkPaths == null ? sessionsOn(p, n) : sessionsOn(p, n, linkPaths);
        int best = -1;
        double bestRate = 0;
        for (int q = p.firstPath(n); q < p.endPath(n); q++) {
            double share = Double.POSITIVE_INFINITY;
            double room = Double.POSITIVE_INFINITY;
            for (int k = 0; k < p.pathLength(q); k++) {
                int e = p.pathLink(q, k);
                share = Math.min(share, share(p, rates, others.get(e), e, n));
                room = Math.min(room, p.capacity(e) - floorLoad(p, rates, total, others.get(e)));
            }
            double x = Math.min(Math.max(Math.min(share, p.demand(n)), p.minRate(n)), room);
            if (x > bestRate * (1 + SLACK) && x >= p.minRate(n) * (1 - SLACK)) {
                best = q;
                bestRate = x;
            }
        }
        if (best < 0) {
            return false;
        }
        rates[best] = bestRate;
        total[n] = bestRate;
        if (touched != null) {
            touched.add(n);
        }
        addPath(p, load, best, bestRate);
        for (int k = 0; k < p.pathLength(best); k++) {
            int e = p.pathLink(best, k);
            double over = load[e] - p.capacity(e);
            if (over > SLACK * p.capacity(e) && !makeRoom(p, rates, total, load, others.get(e), over, touched)) {
                return false;
            }
        }
        return true;
    }

    /**
     * Newcomer {@code n}'s weighted fair share of link {@code e}: w_n·λ where Σ min(r_i, w_i·λ) + w_n·λ
     * is the capacity, r_i being what each other session has on the link now. Those with less than
     * their share (held back elsewhere or by their demand) keep it; the others and the newcomer share
     * the rest by weight.
     */
    private static double share(AllocationProblem p, double[] rates, List<int[]> on, int e, int n) {
        double[][] levels = new double[on.size()][];
        for (int j = 0; j < on.size(); j++) {
            int[] s = on.get(j);
            levels[j] = new double[] {onLink(rates, s) / p.weight(s[0]), p.weight(s[0])};
        }
        java.util.Arrays.sort(levels, (a, b) -> Double.compare(a[0], b[0]));
        double kept = 0;
        double sharing = p.weight(n);
        for (double[] l : levels) {
            sharing += l[1];
        }
        for (double[] l : levels) {
            // below this level every session before it keeps its rate, this one and the rest share
            if (kept + l[0] * sharing >= p.capacity(e)) {
                break;
            }
            kept += l[0] * l[1];
            sharing -= l[1];
        }
        return p.weight(n) * Math.max(0, p.capacity(e) - kept) / sharing;
    }

    /** What the sessions {@code on} a link must keep there: the sum of their floors. */
    private static double floorLoad(AllocationProblem p, double[] rates, double[] total, List<int[]> on) {
        double sum = 0;
        for (int[] s : on) {
            sum += floor(p, total, s[0], onLink(rates, s));
        }
        return sum;
    }

    /**
     * Takes {@code over} off a link from the sessions {@code on} it, weighted max-min: each comes
     * down to w_i·λ, never below its floor nor above what it has, for the λ that frees {@code over}.
     */
    private static boolean makeRoom(AllocationProblem p, double[] rates, double[] total, double[] load, List<int[]> on, double over,
                                    List<Integer> touched) {
        double[] here = new double[on.size()];
        double[] floor = new double[on.size()];
        double now = 0;
        double floors = 0;
        double top = 0;
        for (int j = 0; j < on.size(); j++) {
            int[] s = on.get(j);
            here[j] = onLink(rates, s);
            floor[j] = floor(p, total, s[0], here[j]);
            now += here[j];
            floors += floor[j];
            top = Math.max(top, here[j] / p.weight(s[0]));
        }
        double target = now - over;
        if (floors > target * (1 + SLACK)) {
            return false;
        }
        double lo = 0;
        double hi = top;
        for (int step = 0; step < 100; step++) {
            double mid = (lo + hi) / 2;
            double sum = 0;
            for (int j = 0; j < on.size(); j++) {
                sum += clamp(p.weight(on.get(j)[0]) * mid, floor[j], here[j]);
            }
            if (sum > target) {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        for (int j = 0; j < on.size(); j++) {
            int[] s = on.get(j);
            if (here[j] <= 0) {
                continue;
            }
            double scale = clamp(p.weight(s[0]) * lo, floor[j], here[j]) / here[j];
            if (touched != null) {
                touched.add(s[0]);
            }
            for (int k = 1; k < s.length; k++) {
                int q = s[k];
                double cut = rates[q] * (1 - scale);
                rates[q] -= cut;
                total[s[0]] -= cut;
                addPath(p, load, q, -cut);
            }
        }
        return true;
    }

    private static double clamp(double x, double min, double max) {
        return Math.max(min, Math.min(x, max));
    }

    /** What session {@code i} must keep on a link that carries {@code here} of it, for its total to stay at its minimum. */
    private static double floor(AllocationProblem p, double[] total, int i, double here) {
        return Math.max(0, Math.min(here, p.minRate(i) - (total[i] - here)));
    }

    /**
     * For each link of session {@code n}'s paths, the other sessions with a path over it: each as
     * {session, its paths over the link…}.
     */
    private static Map<Integer, List<int[]>> sessionsOn(AllocationProblem p, int n) {
        Map<Integer, List<int[]>> out = new HashMap<>();
        boolean[] mark = new boolean[p.linkCount()];
        for (int q = p.firstPath(n); q < p.endPath(n); q++) {
            for (int k = 0; k < p.pathLength(q); k++) {
                out.put(p.pathLink(q, k), new ArrayList<>());
                mark[p.pathLink(q, k)] = true;
            }
        }
        for (int i = 0; i < p.sessionCount(); i++) {
            if (i == n) {
                continue;
            }
            Map<Integer, List<Integer>> mine = null;
            for (int q = p.firstPath(i); q < p.endPath(i); q++) {
                for (int k = 0; k < p.pathLength(q); k++) {
                    int e = p.pathLink(q, k);
                    if (mark[e]) {
                        if (mine == null) {
                            mine = new HashMap<>();
                        }
                        mine.computeIfAbsent(e, x -> new ArrayList<>()).add(q);
                    }
                }
            }
            if (mine == null) {
                continue;
            }
            for (Map.Entry<Integer, List<Integer>> m : mine.entrySet()) {
                int[] s = new int[m.getValue().size() + 1];
                s[0] = i;
                for (int j = 0; j < m.getValue().size(); j++) {
                    s[j + 1] = m.getValue().get(j);
                }
                out.get(m.getKey()).add(s);
            }
        }
        return out;
    }

    /**
     * {@link #sessionsOn(AllocationProblem, int)} from the paths over each link: the same lists in
     * the same order (sessions ascending, each with its paths over the link ascending).
     */
    private static Map<Integer, List<int[]>> sessionsOn(AllocationProblem p, int n, AppendIndex.IntList[] linkPaths) {
        Map<Integer, List<int[]>> out = new HashMap<>();
        for (int q = p.firstPath(n); q < p.endPath(n); q++) {
            for (int k = 0; k < p.pathLength(q); k++) {
                int e = p.pathLink(q, k);
                if (out.containsKey(e)) {
                    continue;
                }
                List<int[]> on = new ArrayList<>();
                AppendIndex.IntList over = linkPaths[e];
                int j = 0;
                while (j < over.size) {
                    int i = sessionOf(p, over.get(j));
                    int end = j;
                    while (end < over.size && over.get(end) < p.endPath(i)) {
                        end++;
                    }
                    if (i != n) {
                        int[] s = new int[end - j + 1];
                        s[0] = i;
                        for (int m = j; m < end; m++) {
                            s[m - j + 1] = over.get(m);
                        }
                        on.add(s);
                    }
                    j = end;
                }
                out.put(e, on);
            }
        }
        return out;
    }

    /** The session of path {@code q}: a binary search of the sessions' first paths. */
    private static int sessionOf(AllocationProblem p, int q) {
        int lo = 0;
        int hi = p.sessionCount() - 1;
        while (lo < hi) {
            int mid = (lo + hi + 1) >>> 1;
            if (p.firstPath(mid) <= q) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        return lo;
    }

    private static double onLink(double[] rates, int[] s) {
        double sum = 0;
        for (int j = 1; j < s.length; j++) {
            sum += rates[s[j]];
        }
        return sum;
    }

    private static void addPath(AllocationProblem p, double[] load, int q, double rate) {
        for (int k = 0; k < p.pathLength(q); k++) {
            load[p.pathLink(q, k)] += rate;
        }
    }
}
