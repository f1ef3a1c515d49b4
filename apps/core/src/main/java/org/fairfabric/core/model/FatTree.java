package org.fairfabric.core.model;

/**
 * A k-ary fat-tree (Al-Fares et al., SIGCOMM 2008): k pods of k/2 edge and k/2 aggregation
 * switches, (k/2)^2 core switches, (k/2)^2 hosts per pod. k = 4 gives 16 hosts and 20 switches.
 * Naming, addressing and port numbers are those of {@link ClosFabric}; with E = k/2 they are
 * exactly Al-Fares': edge 10.p.i.1, aggregation 10.p.(k/2+i).1, core 10.k.j.i (j, i in 1..k/2),
 * hosts 10.p.e.(slot+2).
 */
public final class FatTree {
    private FatTree() {
    }

    public static Topology build(int k, long capacityBps) {
        if (k < 2 || k % 2 != 0 || k > 250) {
            throw new IllegalArgumentException("fat-tree radix k must be even and in 2..250, got " + k);
        }
        int half = k / 2;
        return ClosFabric.build(k, half, half, half, half, capacityBps);
    }

    public static String edge(int pod, int index) {
        return ClosFabric.edge(pod, index);
    }

    public static String agg(int pod, int index) {
        return ClosFabric.agg(pod, index);
    }
}
