package org.fairfabric.controller.mininet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.fairfabric.controller.rest.HttpJson;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;

/**
 * The controller's ECMP routing mode ({@code --routing ecmp}, docs/controller.md "Routing modes") on
 * a k=4 fat-tree with a shim on every host: no switch holds a pinned path or a path classifier,
 * every switch's uplinks form one hash group (level 0 of each metric, left alone by metric events),
 * the shim limits the session's total on one untagged path (id 0), and a session of 8 TCP streams
 * from ceh1 (pod 0) to ceh5 (pod 1) is carried through the upward hash groups, over more than one
 * core switch, at no more than its allocation.
 */
class EcmpFabricTest extends FabricTestBase {
    static final double LINK_MBIT = 4;
    static final String SENDER = "ceh1";
    static final String RECEIVER = "ceh5";

    @Override
    String topology() {
        return "fattree";
    }

    @Override
    double linkMbit() {
        return LINK_MBIT;
    }

    @Override
    String prefix() {
        return "ce";
    }

    @Override
    boolean shims() {
        return true;
    }

    @Override
    List<String> controllerArgs() {
        return List.of("--routing", "ecmp");
    }

    @Test
    @Order(1)
    void ecmpModeProgramsHashGroupsNoPinnedPathsAndCarriesTheSessionAtItsTotal() throws Exception {
        assertEquals(201, ctl.send("POST", "/tenants", "{\"id\":\"ochre\",\"name\":\"Tenant ochre\",\"weight\":1}").status);
        for (String h : List.of(SENDER, RECEIVER)) {
            HttpJson.Answer a = ctl.send("POST", "/tenants/ochre/hosts", RestRoundTrip.hostJson(h, fabric.host(h)));
            assertEquals(201, a.status, h + ": " + a);
        }
        HttpJson.Answer s = ctl.send("POST", "/sessions", "{\"srcHost\":\"" + SENDER + "\",\"dstHost\":\"" + RECEIVER + "\"}");
        assertEquals(201, s.status, s.toString());
        String session = s.json().path("id").asText();

        double total = -1;
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (total < 0) {
            for (JsonNode a : ctl.get("/allocations")) {
                if (a.path("sessionId").asText().equals(session)) {
                    total = a.path("totalBps").asDouble();
                }
            }
            assertTrue(System.nanoTime() < deadline, "no allocation within 60 s");
            Thread.sleep(200);
        }
        assertEquals(LINK_MBIT * 1e6, total, LINK_MBIT * 1e6 * 1e-3, "the session's total: the sender's cable");
        // the shim: one untagged path at the total
        JsonNode inForce = null;
        while (inForce == null) {
            for (JsonNode t : fabric.call("shim", "host", SENDER, "path", "/rates").path("body").path("sessions")) {
                if (t.path("id").asText().equals(session)) {
                    inForce = t.path("paths");
                }
            }
            assertTrue(System.nanoTime() < deadline + 30_000_000_000L, "the shim on " + SENDER + " never had the session");
            Thread.sleep(200);
        }
        assertEquals(1, inForce.size(), inForce.toString());
        assertEquals(0, inForce.get(0).path("id").asInt(), "untagged: " + inForce);
        assertEquals((long) Math.floor(total), inForce.get(0).path("rate_bps").asLong(), inForce.toString());

        // the switches: no pinned paths, no path classifiers, one hash group of all uplinks per metric
        Map<String, Integer> uplinks = new LinkedHashMap<>();
        for (String sw : fabric.switches()) {
            assertEquals(Map.of(), DirectCounters.read(fabric, sw, MultipathFabricTest.PINNED_PATH), sw + "'s pinned paths");
            assertEquals(0, DirectCounters.total(fabric, sw, "FabricIngress.path_classifier.path_classifier")[0],
                    sw + "'s path classifiers");
            if (!"core".equals(fabric.role(sw))) {
                uplinks.put(sw, 2);
            }
        }
        FabricChecks.assertEcmp(ctl, uplinks);

        String edge = fabric.host(SENDER).path("switch").asText();
        long[] upBefore = DirectCounters.total(fabric, edge, UP_QUEUE);
        assertTrue(upBefore[0] >= 1, edge + " has an upward hash-group entry");
        Map<String, Long> coreBefore = coreDequeued();
        JsonNode r = fabric.call("iperf3", "src", SENDER, "dst", RECEIVER, "seconds", 15, "streams", 8, "omit", 3, "port", 5402);
        long[] upAfter = DirectCounters.total(fabric, edge, UP_QUEUE);
        Map<String, Long> coreAfter = coreDequeued();
        double received = r.path("received_bps").asDouble();
        List<String> used = new ArrayList<>();
        coreAfter.forEach((core, n) -> {
            if (n - coreBefore.get(core) > 100) {
                used.add(core);
            }
        });
        System.out.printf("[mininet] ECMP routing: 8 TCP streams %s -> %s, goodput %.3f Mbit/s of a %.3f Mbit/s allocation;"
                + " %d packets through %s's upward hash group; cores carrying them (toward pod 1): %s (load %s)%n",
                SENDER, RECEIVER, received / 1e6, total / 1e6, upAfter[1] - upBefore[1], edge, used, loadAverage());
        assertTrue(upAfter[1] - upBefore[1] > 1000, "the session's packets matched the upward hash group");
        assertTrue(used.size() >= 2, "the streams were hashed over more than one core: " + coreAfter);
        assertTrue(received > 0.5 * total, "the session's traffic is carried: " + r);
        assertTrue(received <= total, "the shim limits the session's total: goodput " + received + " > " + total);
    }

    static final String UP_QUEUE = "FabricIngress.upward_routing.up_queue";

    /** Core switch → packets its port toward pod 1 (port 2) sent so far. */
    private Map<String, Long> coreDequeued() {
        Map<String, Long> out = new LinkedHashMap<>();
        for (String sw : fabric.switches()) {
            if ("core".equals(fabric.role(sw))) {
                for (JsonNode p : fabric.call("ports", "switch", sw).path("ports")) {
                    if (p.path("port").asInt() == 2) {
                        out.put(sw, p.path("dequeued").asLong());
                    }
                }
            }
        }
        return out;
    }
}
