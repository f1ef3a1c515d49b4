package org.fairfabric.controller.alloc;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.fairfabric.core.allocator.Allocation;
import org.fairfabric.core.allocator.AllocationProblem;

/**
 * Puts each session's rate on as few of its paths as the links allow. The allocator's objective
 * fixes every session's total but not its split: when the bottleneck is a link all of a session's
 * paths share (its server's cable), any split is optimal, and the interior-point solver returns
 * one spread over every path. A TCP flow split per packet over paths whose queues and switches
 * delay it differently arrives reordered, takes the reordering for loss and stays well below its
 * rate (docs/controller.md, "Fewest paths").
 *
 * <p>Method: the paths are packed again from empty links. Single-path sessions first (they have no
 * choice), then the others by decreasing total; each goes whole on one of the paths that can take
 * it, the one with the most room left on its own links (those not all its paths cross: not its
 * cables; the first of equals in path order), so that loads spread over the fabric instead of
 * filling one path to the brim; a session no path can take whole fills the roomiest paths in turn.
 * When some session cannot be placed at all, the allocator's split is kept for every session (it
 * always fits the links).
 */
final class FewestPaths {
    /** Relative slack for rounding: a total fits where the room is at least total·(1 − SLACK). */
    private static final double SLACK = 1e-9;

    private FewestPaths() {
    }

    /** The per-path rates (indexed like the problem's paths) after consolidation. */
    static double[] of(Allocation a) {
        AllocationProblem p = a.problem();
        double[] split = a.pathRates();
        double[] rates = new double[p.pathCount()];
        double[] load = new double[p.linkCount()];
        List<Integer> multi = new ArrayList<>();
        for (int s = 0; s < p.sessionCount(); s++) {
            if (p.endPath(s) - p.firstPath(s) < 2) {
                for (int path = p.firstPath(s); path < p.endPath(s); path++) {
                    rates[path] = split[path];
                    addPath(p, load, path, split[path]);
                }
            } else {
                multi.add(s);
            }
        }
        multi.sort((x, y) -> {
            int c = Double.compare(a.sessionRate(y), a.sessionRate(x));
            return c != 0 ? c : Integer.compare(x, y);
        });
        for (int s : multi) {
            double left = a.sessionRate(s);
            int whole = roomiestFittingWhole(p, load, s, left);
            if (whole >= 0) {
                rates[whole] = left;
                addPath(p, load, whole, left);
                continue;
            }
            while (left > SLACK * Math.max(left, 1)) {
                int best = -1;
                double bestRoom = SLACK;
                for (int path = p.firstPath(s); path < p.endPath(s); path++) {
                    double room = room(p, load, path, null);
                    if (room > bestRoom * (1 + SLACK)) {
                        best = path;
                        bestRoom = room;
                    }
                }
                if (best < 0) {
                    return split; // the links cannot take it in this order: keep the allocator's split
                }
                double put = Math.min(bestRoom, left);
                rates[best] += put;
                addPath(p, load, best, put);
                left -= put;
            }
        }
        return rates;
    }

    /**
     * Of the session's paths that can take {@code total} whole, the one with the most room on its
     * own links (those not every path of the session crosses, i.e. not its cables), the first of
     * equals; -1 when none can.
     */
    private static int roomiestFittingWhole(AllocationProblem p, double[] load, int s, double total) {
        Set<Integer> common = new HashSet<>();
        for (int k = 0; k < p.pathLength(p.firstPath(s)); k++) {
            common.add(p.pathLink(p.firstPath(s), k));
        }
        for (int path = p.firstPath(s) + 1; path < p.endPath(s); path++) {
            Set<Integer> links = new HashSet<>();
            for (int k = 0; k < p.pathLength(path); k++) {
                links.add(p.pathLink(path, k));
            }
            common.retainAll(links);
        }
        int best = -1;
        double bestOwnRoom = -1;
        for (int path = p.firstPath(s); path < p.endPath(s); path++) {
            if (room(p, load, path, null) < total * (1 - SLACK)) {
                continue;
            }
            double own = room(p, load, path, common);
            if (own > bestOwnRoom * (1 + SLACK) + SLACK || best < 0) {
                best = path;
                bestOwnRoom = own;
            }
        }
        return best;
    }

    /** What the path's links, except those in {@code skip} (when not null), have left. */
    private static double room(AllocationProblem p, double[] load, int path, Set<Integer> skip) {
        double room = Double.POSITIVE_INFINITY;
        for (int k = 0; k < p.pathLength(path); k++) {
            int e = p.pathLink(path, k);
            if (skip != null && skip.contains(e)) {
                continue;
            }
            room = Math.min(room, Math.max(0, p.capacity(e) - load[e]));
        }
        return room;
    }

    private static void addPath(AllocationProblem p, double[] load, int path, double rate) {
        for (int k = 0; k < p.pathLength(path); k++) {
            load[p.pathLink(path, k)] += rate;
        }
    }
}
