package org.fairfabric.controller.netcfg;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.fairfabric.api.json.Json;

/**
 * Builds the network configurations of the papers' fabrics: the k-ary fat-tree (Promenade; k=4
 * gives 20 switches and 16 hosts) and the one-pod leaf-spine (P4TE; 4 leaves x 4 spines, 16 hosts).
 * Switch i (1-based, in the order built) listens for P4Runtime on {@code grpcBasePort + i - 1}
 * with device_id i. Port numbering: down-facing ports first (hosts or lower layer), then up.
 */
public final class FabricConfigs {
    public static final String PIPECONF = "org.fairfabric.pipeconf.fabric";

    private final ObjectNode root = Json.MAPPER.createObjectNode();
    private final ObjectNode devices = root.putObject("devices");
    private final ObjectNode ports = root.putObject("ports");
    private final ObjectNode links = root.putObject("links");
    private final ObjectNode hosts = root.putObject("hosts");
    private final String grpcHost;
    private final int grpcBasePort;
    private final long bandwidthMbps;
    private int switches;

    private FabricConfigs(String grpcHost, int grpcBasePort, long bandwidthMbps) {
        this.grpcHost = grpcHost;
        this.grpcBasePort = grpcBasePort;
        this.bandwidthMbps = bandwidthMbps;
    }

    /** Fat-tree: hosts 10.pod.edge.(2+n) as in Al-Fares et al.; core switch j of group i is core(i*k/2+j). */
    public static String fatTree(int k, String grpcHost, int grpcBasePort, long bandwidthMbps) {
        if (k < 2 || k % 2 != 0 || k > 16) {
            throw new IllegalArgumentException("k must be even, 2-16, got " + k);
        }
        FabricConfigs c = new FabricConfigs(grpcHost, grpcBasePort, bandwidthMbps);
        int half = k / 2;
        for (int i = 0; i < half * half; i++) {
            c.device("core" + (i + 1), "core", null, k);
        }
        for (int pod = 0; pod < k; pod++) {
            for (int a = 0; a < half; a++) {
                c.device("agg" + pod + a, "aggregation", pod, k);
            }
            for (int e = 0; e < half; e++) {
                c.device("edge" + pod + e, "edge", pod, k);
            }
        }
        int hostNumber = 0;
        for (int pod = 0; pod < k; pod++) {
            for (int e = 0; e < half; e++) {
                for (int n = 0; n < half; n++) {
                    hostNumber++;
                    c.host("h" + hostNumber, "10." + pod + "." + e + "." + (2 + n), "edge" + pod + e, 1 + n);
                }
                for (int a = 0; a < half; a++) {
                    c.link("edge" + pod + e, half + 1 + a, "agg" + pod + a, 1 + e);
                }
            }
            for (int a = 0; a < half; a++) {
                for (int j = 0; j < half; j++) {
                    c.link("agg" + pod + a, half + 1 + j, "core" + (a * half + j + 1), pod + 1);
                }
            }
        }
        return c.write();
    }

    /** Leaf-spine: host n of leaf l is 10.0.l.n (both 1-based); leaf port hostsPerLeaf+s goes to spine s. */
    public static String leafSpine(int leaves, int spines, int hostsPerLeaf, String grpcHost, int grpcBasePort, long bandwidthMbps) {
        if (leaves < 1 || spines < 1 || hostsPerLeaf < 1 || leaves > 250 || hostsPerLeaf > 250) {
            throw new IllegalArgumentException("need 1-250 leaves, >= 1 spine, 1-250 hosts per leaf");
        }
        FabricConfigs c = new FabricConfigs(grpcHost, grpcBasePort, bandwidthMbps);
        for (int l = 1; l <= leaves; l++) {
            c.device("leaf" + l, "leaf", 0, hostsPerLeaf + spines);
        }
        for (int s = 1; s <= spines; s++) {
            c.device("spine" + s, "spine", 0, leaves);
        }
        int hostNumber = 0;
        for (int l = 1; l <= leaves; l++) {
            for (int n = 1; n <= hostsPerLeaf; n++) {
                hostNumber++;
                c.host("h" + hostNumber, "10.0." + l + "." + n, "leaf" + l, n);
            }
            for (int s = 1; s <= spines; s++) {
                c.link("leaf" + l, hostsPerLeaf + s, "spine" + s, l);
            }
        }
        return c.write();
    }

    private void device(String name, String role, Integer pod, int portCount) {
        switches++;
        ObjectNode d = devices.putObject("device:" + name);
        d.putObject("basic")
                .put("managementAddress", "grpc://" + grpcHost + ":" + (grpcBasePort + switches - 1) + "?device_id=" + switches)
                .put("driver", "p4runtime")
                .put("pipeconf", PIPECONF)
                .put("name", name);
        ObjectNode ff = d.putObject("fairfabric").put("role", role);
        if (pod != null) {
            ff.put("pod", pod);
        }
        for (int p = 1; p <= portCount; p++) {
            ports.putObject("device:" + name + "/" + p).putArray("interfaces").addObject().put("name", name + "-eth" + p);
        }
    }

    private void link(String a, int pa, String b, int pb) {
        links.putObject("device:" + a + "/" + pa + "-device:" + b + "/" + pb).putObject("basic")
                .put("type", "DIRECT").put("bandwidth", bandwidthMbps).put("bidirectional", true);
    }

    private void host(String name, String ip, String edge, int port) {
        String[] o = ip.split("\\.");
        String mac = String.format("00:00:%02x:%02x:%02x:%02x", Integer.parseInt(o[0]), Integer.parseInt(o[1]),
                Integer.parseInt(o[2]), Integer.parseInt(o[3]));
        ObjectNode basic = hosts.putObject(mac + "/None").putObject("basic");
        basic.put("name", name);
        basic.putArray("ips").add(ip);
        basic.putArray("locations").add("device:" + edge + "/" + port);
    }

    private String write() {
        try {
            return Json.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(root) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
