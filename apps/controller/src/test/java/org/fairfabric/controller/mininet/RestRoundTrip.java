package org.fairfabric.controller.mininet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.fairfabric.controller.rest.HttpJson;

/** The REST round trip against a controller that runs a live fabric. */
final class RestRoundTrip {
    private RestRoundTrip() {
    }

    /** Tenants blue (weight 2: the first half of the hosts) and red (weight 1: the rest), read back field by field. */
    static void provisionTwoTenants(FabricController ctl, MininetFabric fabric) {
        List<String> hosts = new ArrayList<>(fabric.hosts());
        hosts.sort((a, b) -> Integer.compare(number(a), number(b)));
        int half = hosts.size() / 2;
        Map<String, List<String>> byTenant = Map.of("blue", hosts.subList(0, half), "red", hosts.subList(half, hosts.size()));
        Map<String, Integer> weights = Map.of("blue", 2, "red", 1);
        for (String t : List.of("blue", "red")) {
            HttpJson.Answer a = ctl.send("POST", "/tenants",
                    "{\"id\":\"" + t + "\",\"name\":\"Tenant " + t + "\",\"weight\":" + weights.get(t) + "}");
            assertEquals(201, a.status, a.toString());
            for (String h : byTenant.get(t)) {
                JsonNode info = fabric.host(h);
                HttpJson.Answer added = ctl.send("POST", "/tenants/" + t + "/hosts", hostJson(h, info));
                assertEquals(201, added.status, h + ": " + added);
            }
        }
        for (String t : List.of("blue", "red")) {
            JsonNode tenant = ctl.get("/tenants/" + t);
            assertEquals("Tenant " + t, tenant.path("name").asText());
            assertEquals(weights.get(t), tenant.path("weight").asInt());
            JsonNode listed = ctl.get("/tenants/" + t + "/hosts");
            assertEquals(byTenant.get(t).size(), listed.size(), t + ": " + listed);
            for (String h : byTenant.get(t)) {
                JsonNode got = ctl.get("/tenants/" + t + "/hosts/" + h);
                JsonNode info = fabric.host(h);
                assertEquals(info.path("ip").asText(), got.path("ip").asText(), h);
                assertEquals(info.path("mac").asText(), got.path("mac").asText(), h);
                assertEquals("device:" + info.path("switch").asText(), got.path("location").path("device").asText(), h);
                assertEquals(info.path("port").asInt(), got.path("location").path("port").asInt(), h);
            }
        }
        assertEquals(java.util.Set.of("blue weight 2.0", "red weight 1.0"), tenantsAndHosts(ctl).keySet());
    }

    static String hostJson(String name, JsonNode info) {
        return "{\"id\":\"" + name + "\",\"ip\":\"" + info.path("ip").asText() + "\",\"mac\":\"" + info.path("mac").asText()
                + "\",\"location\":{\"device\":\"device:" + info.path("switch").asText() + "\",\"port\":"
                + info.path("port").asInt() + "}}";
    }

    /** "id weight W" of each tenant → its host ids, as the controller reports them. */
    static Map<String, List<String>> tenantsAndHosts(FabricController ctl) {
        Map<String, List<String>> out = new TreeMap<>();
        ctl.get("/tenants").forEach(t -> {
            List<String> hosts = new ArrayList<>();
            ctl.get("/tenants/" + t.path("id").asText() + "/hosts").forEach(h -> hosts.add(h.path("id").asText()));
            hosts.sort(null);
            out.put(t.path("id").asText() + " weight " + t.path("weight").asDouble(), hosts);
        });
        return out;
    }

    private record Bad(String method, String path, String body, boolean withToken, int status, String field) {
    }

    /**
     * Bad requests against the live fabric: each is refused with its status and the field named,
     * and neither the tenants, hosts, network configuration and routing groups nor the event log
     * change (the controller checks everything before it makes a change durable).
     */
    static void assertRefusedRequestsChangeNothing(FabricController ctl, MininetFabric fabric) {
        JsonNode h1 = fabric.host("cjh1");
        JsonNode h9 = fabric.host("cjh9");
        String blueHost = hostJson("cjh1", h1);
        String edge = "device:" + h1.path("switch").asText();
        String spare = "{\"id\":\"spare\",\"ip\":\"10.9.9.9\",\"mac\":\"00:00:0a:09:09:09\",\"location\":{\"device\":\"" + edge
                + "\",\"port\":1}}";
        List<Bad> cases = List.of(
                new Bad("POST", "/tenants", "{\"id\":\"green\",\"weight\":1}", false, 401, null),
                new Bad("POST", "/tenants", "{\"id\":\"green\",\"weight\":", true, 400, null),
                new Bad("POST", "/tenants", "{\"id\":\"green\",\"weight\":\"heavy\"}", true, 400, "weight"),
                new Bad("POST", "/tenants", "{\"id\":\"green\",\"weight\":1,\"colour\":\"x\"}", true, 400, "colour"),
                new Bad("POST", "/tenants", "{\"id\":\"green\",\"weight\":-2}", true, 422, "weight"),
                new Bad("POST", "/tenants", "{\"id\":\"green\"}", true, 422, "weight"),
                new Bad("POST", "/tenants", "{\"id\":\"Green!\",\"weight\":1}", true, 422, "id"),
                new Bad("POST", "/tenants", "{\"id\":\"blue\",\"weight\":1}", true, 409, "id"),
                new Bad("PATCH", "/tenants/blue", "{\"weight\":0}", true, 422, "weight"),
                new Bad("PATCH", "/tenants/green", "{\"weight\":1}", true, 404, "tenantId"),
                // a host on a fabric-link port (the edge's first uplink), on an unknown switch, a bad IP
                new Bad("POST", "/tenants/blue/hosts", spare.replace("\"port\":1", "\"port\":3"), true, 422, "location.port"),
                new Bad("POST", "/tenants/blue/hosts", spare.replace(edge, "device:nosuch"), true, 422, "location.device"),
                new Bad("POST", "/tenants/blue/hosts", spare.replace("10.9.9.9", "10.9.9.300"), true, 422, "ip"),
                new Bad("POST", "/tenants/blue/hosts", spare.replace("10.9.9.9", "224.0.0.1"), true, 422, "ip"),
                // cjh1 is blue's already; cjh9's address belongs to red's host
                new Bad("POST", "/tenants/blue/hosts", blueHost, true, 409, "id"),
                new Bad("POST", "/tenants/blue/hosts", spare.replace("10.9.9.9", h9.path("ip").asText()), true, 409, "ip"),
                new Bad("POST", "/tenants/green/hosts", spare, true, 404, "tenantId"),
                new Bad("DELETE", "/tenants/blue/hosts/nosuch", null, true, 404, "hostId"),
                new Bad("PUT", "/network-config", "{\"devices\":{}}", true, 422, "devices"),
                new Bad("POST", "/sessions", "{\"srcHost\":\"cjh1\",\"dstHost\":\"cjh9\"}", true, 422, "dstHost"),
                new Bad("DELETE", "/tenants/red", null, false, 401, null));

        Map<String, String> before = snapshot(ctl);
        long seq = ctl.lastEventSeq();
        for (Bad c : cases) {
            HttpJson.Answer a = ctl.http().send(c.method, "/api/v1" + c.path, c.body, c.withToken ? ctl.token() : null);
            String what = c.method + " " + c.path + " " + c.body + " -> " + a;
            assertEquals(c.status, a.status, what);
            JsonNode err = a.json();
            assertEquals(c.status, err.path("status").asInt(), what);
            assertEquals(c.field, err.path("field").isNull() ? null : err.path("field").asText(), what);
            assertFalse(err.path("message").asText().isBlank(), what);
        }
        assertEquals(before, snapshot(ctl), "state after refused requests");
        List<JsonNode> changes = ctl.eventsAfter(seq).stream().filter(e -> !e.path("type").asText().startsWith("routing-group")
                && !e.path("type").asText().equals("device.state") && !e.path("type").asText().equals("link.state")).toList();
        assertEquals(List.of(), changes, "events caused by refused requests");
        assertTrue(cases.size() >= 20);
    }

    /** What a refused request must not change, as the REST API shows it. */
    static Map<String, String> snapshot(FabricController ctl) {
        Map<String, String> out = new TreeMap<>();
        out.put("tenants", ctl.get("/tenants").toString());
        for (JsonNode t : ctl.get("/tenants")) {
            String id = t.path("id").asText();
            out.put("hosts of " + id, ctl.get("/tenants/" + id + "/hosts").toString());
        }
        out.put("network-config", ctl.get("/network-config").toString());
        out.put("sessions", ctl.get("/sessions").toString());
        out.put("topology hosts", ctl.get("/topology").path("hosts").toString());
        return out;
    }

    private static int number(String host) {
        return Integer.parseInt(host.replaceAll("\\D", ""));
    }

    /**
     * A VM of red on blue's server cjh1 (its port, its cable): accepted, reachable from red's
     * cjh9 through the fabric (a /32 route and proxy ARP for it; frames leave with the server's
     * MAC and the server delivers by address); a VM that takes a taken address or a host's MAC
     * at another port is refused naming the host, and everyone's reachability stays. The VM is
     * removed at the end.
     */
    static void vmOnASharedServer(FabricController ctl, MininetFabric fabric) {
        JsonNode server = fabric.host("cjh1");
        String at = "\"location\":{\"device\":\"device:" + server.path("switch").asText() + "\",\"port\":"
                + server.path("port").asInt() + "}";
        HttpJson.Answer added = ctl.send("POST", "/tenants/red/hosts",
                "{\"id\":\"redvm1\",\"ip\":\"10.9.1.1\",\"mac\":\"02:00:00:09:01:01\"," + at + "}");
        assertEquals(201, added.status, added.toString());
        JsonNode alias = fabric.call("cmd", "host", "cjh1", "argv", List.of("ip", "addr", "add", "10.9.1.1/8", "dev", "cjh1-eth0"));
        assertEquals(0, alias.path("rc").asInt(), alias.toString());
        try {
            // 201 comes before the switches hold the VM's /32 route: programming is asynchronous.
            JsonNode ping = null;
            long deadline = System.nanoTime() + 20_000_000_000L;
            do {
                ping = fabric.call("cmd", "host", "cjh9", "argv", List.of("ping", "-c", "3", "-i", "0.3", "-W", "1", "10.9.1.1"));
            } while (ping.path("rc").asInt() != 0 && System.nanoTime() < deadline);
            if (ping.path("rc").asInt() != 0) {
                fail("red's cjh9 reaches red's VM on cjh1 within 20 s: " + ping + "\ncjh9's neighbours: "
                        + fabric.call("cmd", "host", "cjh9", "argv", List.of("ip", "neigh")).path("out").asText()
                        + "\nthe controller's hosts: " + ctl.get("/topology").path("hosts") + "\n" + ctl.logTail());
            }

            Map<String, String> before = snapshot(ctl);
            HttpJson.Answer sameIp = ctl.send("POST", "/tenants/blue/hosts",
                    "{\"id\":\"bluevm1\",\"ip\":\"10.9.1.1\",\"mac\":\"02:00:00:09:01:02\"," + at + "}");
            assertEquals(409, sameIp.status, sameIp.toString());
            assertEquals("ip", sameIp.json().path("field").asText());
            assertTrue(sameIp.json().path("message").asText().contains("redvm1"), sameIp.toString());
            JsonNode h9 = fabric.host("cjh9");
            HttpJson.Answer otherMac = ctl.send("POST", "/tenants/blue/hosts",
                    "{\"id\":\"bluevm2\",\"ip\":\"10.9.1.2\",\"mac\":\"" + h9.path("mac").asText() + "\"," + at + "}");
            assertEquals(409, otherMac.status, otherMac.toString());
            assertEquals("mac", otherMac.json().path("field").asText());
            assertEquals(before, snapshot(ctl), "refused VMs change nothing");
            assertEquals(0.0, fabric.pingAll(30).path("loss").asDouble(), "every host still reaches every other");
        } finally {
            fabric.call("cmd", "host", "cjh1", "argv", List.of("ip", "addr", "del", "10.9.1.1/8", "dev", "cjh1-eth0"));
            assertEquals(204, ctl.send("DELETE", "/tenants/red/hosts/redvm1", null).status);
        }
    }
}
