package org.fairfabric.core.model;

/**
 * A one-pod leaf-spine fabric (P4TE's evaluated "k = 8" topology is 4 leaves x 4 spines with 4
 * hosts per leaf). Leaf i is "p0l{i}" (10.0.i.1), spine j is "p0s{j}"; leaf ports 1..H face hosts
 * and H+1+j faces spine j; spine port i+1 faces leaf i. Host slot s of leaf i is "h{n}" at
 * 10.0.i.(s+2).
 */
public final class LeafSpine {
    private LeafSpine() {
    }

    public static Topology build(int leaves, int spines, int hostsPerLeaf, long hostLinkBps, long uplinkBps) {
        if (leaves < 1 || leaves > 250 || spines < 1 || spines > 250 || hostsPerLeaf < 1 || hostsPerLeaf > 250) {
            throw new IllegalArgumentException("leaf-spine sizes must be in 1..250, got " + leaves + " leaves, "
                    + spines + " spines, " + hostsPerLeaf + " hosts per leaf");
        }
        Checks.positive(hostLinkBps, "host link capacity (bit/s)");
        Checks.positive(uplinkBps, "uplink capacity (bit/s)");
        Topology.Builder b = Topology.builder();
        for (int j = 0; j < spines; j++) {
            b.device(new Device(spine(j), DeviceRole.SPINE, 0, ""));
        }
        int hostNumber = 0;
        for (int i = 0; i < leaves; i++) {
            b.device(new Device(leaf(i), DeviceRole.LEAF, 0, "10.0." + i + ".1"));
            for (int s = 0; s < hostsPerLeaf; s++) {
                String id = "h" + hostNumber++;
                ConnectPoint attach = new ConnectPoint(leaf(i), s + 1);
                b.host(new Host(id, "10.0." + i + "." + (s + 2),
                        String.format("00:00:0a:00:%02x:%02x", i, s + 2), attach, null));
                b.cable(new ConnectPoint(id, 0), attach, hostLinkBps);
            }
            for (int j = 0; j < spines; j++) {
                b.cable(new ConnectPoint(leaf(i), hostsPerLeaf + 1 + j), new ConnectPoint(spine(j), i + 1), uplinkBps);
            }
        }
        return b.build();
    }

    public static String leaf(int index) {
        return "p0l" + index;
    }

    public static String spine(int index) {
        return "p0s" + index;
    }
}
