package org.fairfabric.core.model;

/**
 * A k-ary fat-tree (Al-Fares et al., SIGCOMM 2008): k pods of k/2 edge and k/2 aggregation
 * switches, (k/2)^2 core switches, (k/2)^2 hosts per pod. k = 4 gives 16 hosts and 20 switches.
 *
 * <p>Naming and addressing follow Al-Fares: edge switch i of pod p is "p{p}e{i}" at 10.p.i.1,
 * aggregation switch i is "p{p}a{i}" at 10.p.(k/2+i).1, core switch c = (j-1)*(k/2)+(i-1) is
 * "c{c}" at 10.k.j.i (j, i in 1..k/2), host slot s of edge e in pod p is "h{n}" at 10.p.e.(s+2),
 * n counting hosts pod by pod. Ports: edge 1..k/2 face hosts, k/2+1+a faces aggregation a;
 * aggregation a: port e+1 faces edge e, k/2+1+i faces core a*(k/2)+i; core c: port p+1 faces pod p.
 * Hosts use port 0. Host MACs embed the IP: 00:00:0a:pp:ee:hh.
 */
public final class FatTree {
    private FatTree() {
    }

    public static Topology build(int k, long capacityBps) {
        if (k < 2 || k % 2 != 0 || k > 254) {
            throw new IllegalArgumentException("fat-tree radix k must be even and in 2..254, got " + k);
        }
        Checks.positive(capacityBps, "fat-tree link capacity (bit/s)");
        int half = k / 2;
        Topology.Builder b = Topology.builder();
        for (int c = 0; c < half * half; c++) {
            b.device(new Device("c" + c, DeviceRole.CORE, -1,
                    "10." + k + "." + (c / half + 1) + "." + (c % half + 1)));
        }
        int hostNumber = 0;
        for (int p = 0; p < k; p++) {
            for (int i = 0; i < half; i++) {
                b.device(new Device(edge(p, i), DeviceRole.EDGE, p, "10." + p + "." + i + ".1"));
                b.device(new Device(agg(p, i), DeviceRole.AGGREGATION, p, "10." + p + "." + (half + i) + ".1"));
            }
            for (int e = 0; e < half; e++) {
                for (int s = 0; s < half; s++) {
                    String id = "h" + hostNumber++;
                    String ip = "10." + p + "." + e + "." + (s + 2);
                    String mac = String.format("00:00:0a:%02x:%02x:%02x", p, e, s + 2);
                    ConnectPoint attach = new ConnectPoint(edge(p, e), s + 1);
                    b.host(new Host(id, ip, mac, attach, null));
                    b.cable(new ConnectPoint(id, 0), attach, capacityBps);
                }
                for (int a = 0; a < half; a++) {
                    b.cable(new ConnectPoint(edge(p, e), half + 1 + a), new ConnectPoint(agg(p, a), e + 1), capacityBps);
                }
            }
            for (int a = 0; a < half; a++) {
                for (int i = 0; i < half; i++) {
                    int core = a * half + i;
                    b.cable(new ConnectPoint(agg(p, a), half + 1 + i), new ConnectPoint("c" + core, p + 1), capacityBps);
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
}
