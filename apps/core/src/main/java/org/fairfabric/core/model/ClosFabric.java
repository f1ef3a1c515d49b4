package org.fairfabric.core.model;

/**
 * A three-tier folded Clos: pods of edge and aggregation switches (every edge wired to every
 * aggregation switch of its pod) and a core layer in which aggregation switch a of every pod
 * connects to its own group of cores a*C .. a*C+C-1. A k-ary fat-tree is the case pods = k,
 * edges = aggregations = cores per aggregation = hosts per edge = k/2 ({@link FatTree}); vFab's
 * two-pod testbed (4 ToR, 4 Agg, 2 Core, 8 servers) is pods 2, edges 2, aggregations 2, one core
 * per aggregation, 2 hosts per edge. Down-routes are unique, as path ids require.
 *
 * <p>Naming and addressing follow Al-Fares: edge i of pod p is "p{p}e{i}" at 10.p.i.1, aggregation
 * i is "p{p}a{i}" at 10.p.(E+i).1 with E edges per pod, core a*C+i is "c{a*C+i}" at
 * 10.P.(a+1).(i+1) with P pods, host slot s of edge e in pod p is "h{n}" at 10.p.e.(s+2) with MAC
 * 00:00:0a:pp:ee:hh, n counting hosts pod by pod. Ports: edge 1..H face hosts, H+1+a faces
 * aggregation a; aggregation a: port e+1 faces edge e, E+1+i faces core a*C+i; core: port p+1
 * faces pod p. Hosts use port 0.
 */
public final class ClosFabric {
    private ClosFabric() {
    }

    public static Topology build(int pods, int edgesPerPod, int aggsPerPod, int coresPerAgg, int hostsPerEdge,
                                 long capacityBps) {
        if (pods < 1 || pods > 250 || edgesPerPod < 1 || edgesPerPod > 250 || aggsPerPod < 1 || aggsPerPod > 250
                || coresPerAgg < 1 || coresPerAgg > 250 || hostsPerEdge < 1 || hostsPerEdge > 250
                || edgesPerPod + aggsPerPod > 255) {
            throw new IllegalArgumentException("Clos sizes must be in 1..250 (pods " + pods + ", edges " + edgesPerPod
                    + ", aggregations " + aggsPerPod + ", cores per aggregation " + coresPerAgg + ", hosts per edge "
                    + hostsPerEdge + ")");
        }
        Checks.positive(capacityBps, "link capacity (bit/s)");
        Topology.Builder b = Topology.builder();
        for (int a = 0; a < aggsPerPod; a++) {
            for (int i = 0; i < coresPerAgg; i++) {
                b.device(new Device(core(a * coresPerAgg + i), DeviceRole.CORE, -1,
                        "10." + pods + "." + (a + 1) + "." + (i + 1)));
            }
        }
        int hostNumber = 0;
        for (int p = 0; p < pods; p++) {
            for (int e = 0; e < edgesPerPod; e++) {
                b.device(new Device(edge(p, e), DeviceRole.EDGE, p, "10." + p + "." + e + ".1"));
            }
            for (int a = 0; a < aggsPerPod; a++) {
                b.device(new Device(agg(p, a), DeviceRole.AGGREGATION, p, "10." + p + "." + (edgesPerPod + a) + ".1"));
            }
            for (int e = 0; e < edgesPerPod; e++) {
                for (int s = 0; s < hostsPerEdge; s++) {
                    String id = "h" + hostNumber++;
                    ConnectPoint attach = new ConnectPoint(edge(p, e), s + 1);
                    b.host(new Host(id, "10." + p + "." + e + "." + (s + 2),
                            String.format("00:00:0a:%02x:%02x:%02x", p, e, s + 2), attach, null));
                    b.cable(new ConnectPoint(id, 0), attach, capacityBps);
                }
                for (int a = 0; a < aggsPerPod; a++) {
                    b.cable(new ConnectPoint(edge(p, e), hostsPerEdge + 1 + a), new ConnectPoint(agg(p, a), e + 1),
                            capacityBps);
                }
            }
            for (int a = 0; a < aggsPerPod; a++) {
                for (int i = 0; i < coresPerAgg; i++) {
                    b.cable(new ConnectPoint(agg(p, a), edgesPerPod + 1 + i),
                            new ConnectPoint(core(a * coresPerAgg + i), p + 1), capacityBps);
                }
            }
        }
        return b.build();
    }

    public static String edge(int pod, int index) {
        return "p" + pod + "e" + index;
    }

    public static String agg(int pod, int index) {
        return "p" + pod + "a" + index;
    }

    public static String core(int index) {
        return "c" + index;
    }
}
