package org.fairfabric.controller.alloc;

import org.fairfabric.core.allocator.Allocation;
import org.fairfabric.core.allocator.AllocationProblem;

/**
 * Puts each session's rate on as few of its paths as the links allow, in path order. The
 * allocator's objective fixes every session's total but not its split: when the bottleneck is a
 * link all of a session's paths share (its server's cable), any split is optimal, and the
 * interior-point solver returns one spread over every path. A TCP flow split per packet over
 * paths whose queues and switches delay it differently arrives reordered, takes the reordering
 * for loss and stays well below its rate (docs/controller.md, "Fewest paths"). So a session
 * keeps its total and fills its first path up to what the other sessions leave of each link,
 * then the next; when that cannot place its whole total, it keeps the allocator's split.
 */
final class FewestPaths {
    /** Rate below which a path counts as unused, relative to the session's total. */
    private static final double EPS = 1e-9;

    private FewestPaths() {
    }

    /** The per-path rates (indexed like the problem's paths) after consolidation. */
    static double[] of(Allocation a) {
        AllocationProblem p = a.problem();
        double[] rates = a.pathRates();
        double[] load = new double[p.linkCount()];
        for (int path = 0; path < p.pathCount(); path++) {
            for (int k = 0; k < p.pathLength(path); k++) {
                load[p.pathLink(path, k)] += rates[path];
            }
        }
        for (int s = 0; s < p.sessionCount(); s++) {
            int first = p.firstPath(s);
            int end = p.endPath(s);
            if (end - first < 2) {
                continue;
            }
            double total = 0;
            for (int path = first; path < end; path++) {
                total += rates[path];
                addPath(p, load, path, -rates[path]);
            }
            double[] packed = new double[end - first];
            double left = total;
            for (int path = first; path < end && left > EPS * total; path++) {
                double room = left;
                for (int k = 0; k < p.pathLength(path); k++) {
                    int e = p.pathLink(path, k);
                    room = Math.min(room, Math.max(0, p.capacity(e) - load[e]));
                }
                packed[path - first] = room;
                addPath(p, load, path, room);
                left -= room;
            }
            if (left > EPS * Math.max(total, 1)) { // the links do not take it on fewer paths: keep the split
                for (int path = first; path < end; path++) {
                    addPath(p, load, path, -packed[path - first] + rates[path]);
                }
                continue;
            }
            System.arraycopy(packed, 0, rates, first, packed.length);
        }
        return rates;
    }

    private static void addPath(AllocationProblem p, double[] load, int path, double rate) {
        for (int k = 0; k < p.pathLength(path); k++) {
            load[p.pathLink(path, k)] += rate;
        }
    }
}
