package org.fairfabric.core.allocator;

import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Random allocation problems on a k-ary fat-tree (deterministic for a given seed). Links are
 * directed, named {@code h<pod>.<edge>.<host>>e<pod>.<edge>}, {@code e<pod>.<edge>>a<pod>.<agg>},
 * {@code a<pod>.<agg>>c<agg>.<j>} and back. Each session joins two distinct random hosts and gets
 * up to {@code paths} distinct equal-cost shortest paths, chosen at random; weights are drawn
 * from {1, 2, 3, 4}; a fraction of sessions get a demand cap and a fraction a minimum rate,
 * both sized against the fair share of a host link so that the guarantees stay feasible.
 */
public final class FatTreeGenerator {
    private final int k;
    private final int sessions;
    private final int paths;
    private final long seed;
    private final double capacity;
    private final double capFraction;
    private final double guaranteeFraction;

    public FatTreeGenerator(int k, int sessions, int paths, long seed, double capacity,
                            double capFraction, double guaranteeFraction) {
        if (k < 2 || k % 2 != 0) {
            throw new IllegalArgumentException("k must be an even number >= 2, got " + k);
        }
        if (sessions < 0 || paths < 1 || !(capacity > 0)) {
            throw new IllegalArgumentException("sessions >= 0, paths >= 1 and capacity > 0 required");
        }
        if (!(capFraction >= 0 && capFraction <= 1) || !(guaranteeFraction >= 0 && guaranteeFraction <= 1)) {
            throw new IllegalArgumentException("caps and guarantees are fractions in [0, 1]");
        }
        this.k = k;
        this.sessions = sessions;
        this.paths = paths;
        this.seed = seed;
        this.capacity = capacity;
        this.capFraction = capFraction;
        this.guaranteeFraction = guaranteeFraction;
    }

    /** Defaults used by the CLI and benchmark: capacity 1000, 20% capped, 20% guaranteed. */
    public FatTreeGenerator(int k, int sessions, int paths, long seed) {
        this(k, sessions, paths, seed, 1000.0, 0.2, 0.2);
    }

    public AllocationProblem generate() {
        int half = k / 2;
        int hosts = k * half * half;
        AllocationProblemBuilder b = new AllocationProblemBuilder();
        Map<String, Integer> index = new HashMap<>();
        for (int pod = 0; pod < k; pod++) {
            for (int e = 0; e < half; e++) {
                String edge = "e" + pod + "." + e;
                for (int hst = 0; hst < half; hst++) {
                    String host = "h" + pod + "." + e + "." + hst;
                    link(b, index, host, edge);
                    link(b, index, edge, host);
                }
                for (int a = 0; a < half; a++) {
                    String agg = "a" + pod + "." + a;
                    link(b, index, edge, agg);
                    link(b, index, agg, edge);
                }
            }
            for (int a = 0; a < half; a++) {
                String agg = "a" + pod + "." + a;
                for (int j = 0; j < half; j++) {
                    String core = "c" + a + "." + j;
                    link(b, index, agg, core);
                    link(b, index, core, agg);
                }
            }
        }
        SplittableRandom random = new SplittableRandom(seed);
        double fairShare = capacity * Math.min(1.0, hosts / (2.0 * Math.max(1, sessions)));
        for (int i = 0; i < sessions; i++) {
            int src = random.nextInt(hosts);
            int dst = random.nextInt(hosts - 1);
            if (dst >= src) {
                dst++;
            }
            int[][] all = allPaths(index, src, dst);
            int take = Math.min(paths, all.length);
            // Partial Fisher–Yates: the first `take` entries become a random subset.
            for (int j = 0; j < take; j++) {
                int pick = j + random.nextInt(all.length - j);
                int[] t = all[j];
                all[j] = all[pick];
                all[pick] = t;
            }
            int[][] chosen = new int[take][];
            System.arraycopy(all, 0, chosen, 0, take);
            double weight = 1 + random.nextInt(4);
            double demand = AllocationProblem.NO_DEMAND;
            if (random.nextDouble() < capFraction) {
                demand = fairShare * (0.1 + 0.9 * random.nextDouble());
            }
            double minRate = 0;
            if (random.nextDouble() < guaranteeFraction) {
                minRate = Math.min(0.2 * fairShare * random.nextDouble(), 0.5 * demand);
            }
            b.addSessionByIndex("s" + i, weight, demand, minRate, chosen);
        }
        return b.build();
    }

    private void link(AllocationProblemBuilder b, Map<String, Integer> index, String from, String to) {
        String id = from + ">" + to;
        index.put(id, index.size());
        b.addLink(id, capacity);
    }

    private int[][] allPaths(Map<String, Integer> index, int src, int dst) {
        int half = k / 2;
        int sp = src / (half * half);
        int se = (src / half) % half;
        int sh = src % half;
        int dp = dst / (half * half);
        int de = (dst / half) % half;
        int dh = dst % half;
        String sHost = "h" + sp + "." + se + "." + sh;
        String dHost = "h" + dp + "." + de + "." + dh;
        String sEdge = "e" + sp + "." + se;
        String dEdge = "e" + dp + "." + de;
        int up = index.get(sHost + ">" + sEdge);
        int down = index.get(dEdge + ">" + dHost);
        if (sp == dp && se == de) {
            return new int[][] {{up, down}};
        }
        if (sp == dp) {
            int[][] result = new int[half][];
            for (int a = 0; a < half; a++) {
                String agg = "a" + sp + "." + a;
                result[a] = new int[] {up, index.get(sEdge + ">" + agg), index.get(agg + ">" + dEdge), down};
            }
            return result;
        }
        int[][] result = new int[half * half][];
        for (int a = 0; a < half; a++) {
            String sAgg = "a" + sp + "." + a;
            String dAgg = "a" + dp + "." + a;
            for (int j = 0; j < half; j++) {
                String core = "c" + a + "." + j;
                result[a * half + j] = new int[] {up, index.get(sEdge + ">" + sAgg), index.get(sAgg + ">" + core),
                        index.get(core + ">" + dAgg), index.get(dAgg + ">" + dEdge), down};
            }
        }
        return result;
    }
}
