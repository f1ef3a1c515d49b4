package org.fairfabric.core.allocator;

import java.util.Arrays;

/**
 * Splits each path class's rate over its member paths so that the inactive links (those the
 * relaxation ignored) are not overloaded, if it can. Moving rate between members of a class
 * never changes the load of an active link, so the relaxation's solution stays intact.
 *
 * <p>Method: block coordinate descent on the convex potential Σ_e C_e (L_e / C_e)^q / q over the
 * inactive links, one class at a time (Gauss–Seidel), each block step a diagonal Newton step
 * on the class's simplex {t ≥ 0, Σ t = X_c}. The potential is steep above capacity, so its
 * minimiser spreads load away from full links much like a min–max split. It stops as soon as no
 * inactive link is above capacity; links still overloaded after the sweep budget are returned
 * to the caller, which makes them active.
 */
final class PathSplitBalancer {
    /** Exponent of the potential: high enough to act like a maximum, low enough for Newton. */
    private static final int Q = 16;

    private final AllocationProblem pb;
    private final PathClasses classes;
    private final int[] pls;
    private final int[] pl;
    private final double[] cap;
    final double[] load;
    private double[] gradient = new double[16];
    private double[] curvature = new double[16];
    private boolean[] free = new boolean[16];

    PathSplitBalancer(PathClasses classes) {
        this.classes = classes;
        this.pb = classes.full;
        pls = pb.pathLinkStartArray();
        pl = pb.pathLinksArray();
        cap = pb.capacityArray();
        load = new double[pb.linkCount()];
    }

    /**
     * Sets path rates {@code r} from class rates: each class's rate is split in proportion to
     * {@code previous} over its members when that gives a positive total (a warm start), else
     * evenly; and computes the link loads.
     */
    void initialSplit(double[] classRate, double[] previous, double[] r) {
        for (int c = 0; c < classRate.length; c++) {
            split(c, classRate[c], previous, r);
        }
        Duality.linkLoads(pls, pl, r, load);
    }

    /**
     * A warm split, in place: {@code r} holds base rates whose loads are {@code baseLoads} (zero
     * on paths that are new or changed). A class copied from the previous relaxation whose rate is
     * exactly {@code previousClassRate} of its source keeps its base rates (so its paths' loads
     * need no update); a copied class whose rate moved scales its own previous split; any other
     * class is split as in {@link #initialSplit}. The loads are updated by the changes only, and
     * the classes that grew (or are new) are recorded for {@link #absorbOverloads}.
     */
    void warmSplit(double[] classRate, double[] previous, double[] previousClassRate, double[] baseLoads,
                   double[] r) {
        int[] cms = classes.classMemberStart;
        int[] mp = classes.memberPath;
        int[] from = classes.classFrom;
        System.arraycopy(baseLoads, 0, load, 0, load.length);
        grown = new double[load.length];
        grownClasses = new int[16];
        grownCount = 0;
        for (int c = 0; c < classRate.length; c++) {
            int f = from[c];
            if (f >= 0 && classRate[c] == previousClassRate[f]) {
                continue;
            }
            double total = 0;
            for (int k = cms[c]; k < cms[c + 1]; k++) {
                total += r[mp[k]];
            }
            boolean grows = !(f >= 0 && total > 0 && classRate[c] < total);
            if (grows) {
                if (grownCount == grownClasses.length) {
                    grownClasses = Arrays.copyOf(grownClasses, 2 * grownCount);
                }
                grownClasses[grownCount++] = c;
            }
            if (f >= 0 && total > 0) {
                double scale = classRate[c] / total;
                for (int k = cms[c]; k < cms[c + 1]; k++) {
                    int p = mp[k];
                    double rate = r[p] * scale;
                    addLoad(p, rate - r[p], grows ? rate : 0);
                    r[p] = rate;
                }
            } else {
                for (int k = cms[c]; k < cms[c + 1]; k++) {
                    addLoad(mp[k], -r[mp[k]], 0);
                }
                split(c, classRate[c], previous, r);
                for (int k = cms[c]; k < cms[c + 1]; k++) {
                    addLoad(mp[k], r[mp[k]], r[mp[k]]);
                }
            }
        }
    }

    /**
     * After {@link #warmSplit}: removes the overloads by scaling down only the paths of the
     * classes that grew (the base rates fitted before and the other classes shrank, so what
     * overloads a link is what grew onto it), each path by its worst link's factor
     * 1 − excess / grown load. Returns false, changing nothing, when there is no overload or some
     * overload is larger than the grown load on its link (a capacity fell). {@link #undoAbsorb}
     * restores the split.
     */
    boolean absorbOverloads(double[] r) {
        double[] scale = null;
        for (int e = 0; e < load.length; e++) {
            double excess = load[e] - cap[e];
            if (excess > cap[e] * Certificate.ROUNDING) {
                if (!(grown[e] >= excess)) {
                    return false;
                }
                if (scale == null) {
                    scale = new double[load.length];
                    Arrays.fill(scale, 1);
                }
                scale[e] = 1 - excess / grown[e];
            }
        }
        if (scale == null) {
            return false;
        }
        int[] cms = classes.classMemberStart;
        int[] mp = classes.memberPath;
        absorbedPath = new int[16];
        absorbedRate = new double[16];
        absorbedCount = 0;
        for (int t = 0; t < grownCount; t++) {
            int c = grownClasses[t];
            for (int k = cms[c]; k < cms[c + 1]; k++) {
                int p = mp[k];
                double f = 1;
                for (int q = pls[p]; q < pls[p + 1]; q++) {
                    double s = scale[pl[q]];
                    f = s < f ? s : f;
                }
                if (f < 1) {
                    if (absorbedCount == absorbedPath.length) {
                        absorbedPath = Arrays.copyOf(absorbedPath, 2 * absorbedCount);
                        absorbedRate = Arrays.copyOf(absorbedRate, 2 * absorbedCount);
                    }
                    absorbedPath[absorbedCount] = p;
                    absorbedRate[absorbedCount++] = r[p];
                    double scaled = r[p] * f;
                    addLoad(p, scaled - r[p], 0);
                    r[p] = scaled;
                }
            }
        }
        return true;
    }

    /**
     * After {@link #warmSplit}: one Gauss–Seidel pass over the grown classes that have a path
     * through an overloaded inactive link, moving their rate towards their other paths (the
     * classes that did not grow keep their rates). Returns whether any class was stepped.
     */
    boolean balanceGrown(double[] r) {
        boolean stepped = false;
        for (int t = 0; t < grownCount; t++) {
            int c = grownClasses[t];
            if (crossesOverload(c)) {
                step(c, r, true);
                stepped = true;
            }
        }
        return stepped;
    }

    /** Whether most classes grew in {@link #warmSplit} (then overloads are spread out). */
    boolean mostGrew() {
        return 2 * grownCount > classes.classCount();
    }

    /** Undoes {@link #absorbOverloads}. */
    void undoAbsorb(double[] r) {
        for (int t = 0; t < absorbedCount; t++) {
            int p = absorbedPath[t];
            addLoad(p, absorbedRate[t] - r[p], 0);
            r[p] = absorbedRate[t];
        }
        absorbedCount = 0;
    }

    /** Adds {@code delta} to the loads of path p's links, and {@code grownRate} to their grown loads. */
    private void addLoad(int p, double delta, double grownRate) {
        for (int q = pls[p]; q < pls[p + 1]; q++) {
            load[pl[q]] += delta;
            if (grownRate != 0) {
                grown[pl[q]] += grownRate;
            }
        }
    }

    /** After a warm split: per link, the rate of the grown classes' paths; the grown classes. */
    private double[] grown;
    private int[] grownClasses;
    private int grownCount;
    /** What {@link #absorbOverloads} changed: paths and their rates before. */
    private int[] absorbedPath;
    private double[] absorbedRate;
    private int absorbedCount;

    /** Splits class c's rate in proportion to {@code previous} (may be {@code r} itself), else evenly. */
    private void split(int c, double rate, double[] previous, double[] r) {
        int[] cms = classes.classMemberStart;
        int[] mp = classes.memberPath;
        double total = 0;
        if (previous != null) {
            for (int k = cms[c]; k < cms[c + 1]; k++) {
                total += previous[mp[k]];
            }
        }
        int size = cms[c + 1] - cms[c];
        for (int k = cms[c]; k < cms[c + 1]; k++) {
            r[mp[k]] = total > 0 ? rate * previous[mp[k]] / total : rate / size;
        }
    }

    PathClasses classes() {
        return classes;
    }

    /** Largest load/capacity over the inactive links. */
    double maxInactiveUtilisation() {
        double worst = 0;
        for (int e = 0; e < load.length; e++) {
            if (classes.reducedLink[e] < 0) {
                worst = Math.max(worst, load[e] / cap[e]);
            }
        }
        return worst;
    }

    /** Whether some inactive link is loaded above its capacity. */
    boolean overloadsInactive() {
        for (int e = 0; e < load.length; e++) {
            if (classes.reducedLink[e] < 0 && load[e] > cap[e]) {
                return true;
            }
        }
        return false;
    }

    /** One Gauss–Seidel sweep over the classes with more than one member. */
    void sweep(double[] r) {
        int[] cms = classes.classMemberStart;
        for (int c = 0; c < cms.length - 1; c++) {
            if (cms[c + 1] - cms[c] > 1) {
                step(c, r, false);
            }
        }
    }

    /** Whether a path of class c (with more than one member) crosses an overloaded inactive link. */
    private boolean crossesOverload(int c) {
        int[] cms = classes.classMemberStart;
        int[] mp = classes.memberPath;
        int[] reduced = classes.reducedLink;
        if (cms[c + 1] - cms[c] < 2) {
            return false;
        }
        for (int k = cms[c]; k < cms[c + 1]; k++) {
            int p = mp[k];
            for (int q = pls[p]; q < pls[p + 1]; q++) {
                int e = pl[q];
                if (reduced[e] < 0 && load[e] > cap[e] * (1 + Certificate.ROUNDING)) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Utilisation of an inactive link above which a step moves rate off it. */
    private static final double HOT = 0.9;

    /** A block step on class c; {@code grownClass}: also moves its rate in the grown loads. */
    private void step(int c, double[] r, boolean grownClass) {
        int[] cms = classes.classMemberStart;
        int[] mp = classes.memberPath;
        int[] reduced = classes.reducedLink;
        int first = cms[c];
        int size = cms[c + 1] - first;
        if (size > gradient.length) {
            gradient = new double[2 * size];
            curvature = new double[2 * size];
            free = new boolean[2 * size];
        }
        double total = 0;
        boolean hot = false;
        for (int j = 0; j < size; j++) {
            int p = mp[first + j];
            double gsum = 0;
            double hsum = 0;
            for (int k = pls[p]; k < pls[p + 1]; k++) {
                int e = pl[k];
                if (reduced[e] < 0) {
                    double u = load[e] / cap[e];
                    double u2 = u * u;
                    double u4 = u2 * u2;
                    double u8 = u4 * u4;
                    double u14 = u8 * u4 * u2;
                    gsum += u14 * u;
                    hsum += (Q - 1) * u14 / cap[e];
                    hot |= u > HOT;
                }
            }
            gradient[j] = gsum;
            curvature[j] = Math.max(hsum, 1e-300);
            total += r[p];
            free[j] = true;
        }
        if (!hot || total <= 0) {
            return;
        }
        // t_p ← max(0, t_p − (g_p − ν)/h_p) with ν such that Σ t_p = total (active-set iteration).
        double nu = 0;
        for (int round = 0; round <= size; round++) {
            double sumInvH = 0;
            double base = 0;
            for (int j = 0; j < size; j++) {
                if (free[j]) {
                    int p = mp[first + j];
                    sumInvH += 1 / curvature[j];
                    base += r[p] - gradient[j] / curvature[j];
                }
            }
            nu = (total - base) / sumInvH;
            boolean changed = false;
            for (int j = 0; j < size; j++) {
                if (free[j] && r[mp[first + j]] - (gradient[j] - nu) / curvature[j] < 0) {
                    free[j] = false;
                    changed = true;
                }
            }
            if (!changed) {
                break;
            }
        }
        for (int j = 0; j < size; j++) {
            int p = mp[first + j];
            double next = free[j] ? Math.max(0, r[p] - (gradient[j] - nu) / curvature[j]) : 0;
            double delta = next - r[p];
            if (delta != 0) {
                r[p] = next;
                for (int k = pls[p]; k < pls[p + 1]; k++) {
                    load[pl[k]] += delta;
                    if (grownClass) {
                        grown[pl[k]] += delta;
                    }
                }
            }
        }
    }
}
