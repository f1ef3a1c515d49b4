package org.fairfabric.controller.mininet;

import static org.fairfabric.controller.mininet.FabricChecks.awaitGroups;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import org.fairfabric.controller.Controller;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;

/**
 * vFab failure detection at the controller's default echo interval (250 ms) on the 4x4 leaf-spine
 * at 10 Mbit/s (docs/pipeline.md "vFab failure detection"): a starved controller declares nothing,
 * a 3 % lossy uplink is not declared failed, a 5 % one is — only that link — and leaves the
 * routing groups (its traffic fails over). cjleaf1's uplinks to cjspine3/cjspine4 are down for the class, so
 * that cjh1/cjh2's traffic to cjleaf4 shares two uplinks (ports 5 and 6). For the 5 % test the uplink
 * to cjspine2 (port 6) is cut too, so that every packet to cjleaf4 crosses the lossy port and the loss
 * batches (≥ 1000 packets each) fill at the link's rate: detection no longer depends on how the
 * leaf's routing spreads the 16 flows (with two uplinks, few of them crossed port 5 in one CI run and
 * nothing was declared within 45 s).
 */
class VfabDetectionFabricTest extends FabricTestBase {
    static final String LEAF = "device:cjleaf1";
    private SwitchAdmin admin;
    static final int LOSSY_PORT = 5;

    @Override
    String topology() {
        return "leafspine";
    }

    @Override
    double linkMbit() {
        return 10;
    }

    @Override
    long echoIntervalMs() {
        return Controller.ECHO_INTERVAL_MS;
    }

    @BeforeAll
    void twoUplinksOnly() throws Exception {
        fabric.call("link", "a", "cjleaf1", "b", "cjspine3", "state", "down");
        fabric.call("link", "a", "cjleaf1", "b", "cjspine4", "state", "down");
        awaitGroups(ctl, "cjleaf1", gs -> gs.stream().noneMatch(g -> FabricChecks.ports(g).contains(7)
                || FabricChecks.ports(g).contains(8)), 60, "ports 7 and 8 out of cjleaf1's groups");
    }

    @AfterAll
    void uplinksBack() {
        if (fabric != null) {
            fabric.tryCall("link", "a", "cjleaf1", "b", "cjspine3", "state", "up");
            fabric.tryCall("link", "a", "cjleaf1", "b", "cjspine4", "state", "up");
        }
    }

    /** A controller stopped for 2 s (SIGSTOP: starved of CPU) and resumed: no link is declared failed. */
    @Test
    @Order(1)
    void aStarvedControllerDeclaresNoFailure() throws Exception {
        long after = ctl.lastEventSeq();
        for (int i = 0; i < 3; i++) {
            signal("STOP", ctl.pid());
            Thread.sleep(2000);
            signal("CONT", ctl.pid());
            Thread.sleep(3000);
        }
        assertEquals(List.of(), linksDown(after), "links declared failed after controller stalls");
    }

    @Test
    @Order(2)
    void threePercentLossIsNotDeclared() throws Exception {
        long after = ctl.lastEventSeq();
        long dropsBefore = admin().lossDrops(LOSSY_PORT);
        List<Integer> jobs = startTraffic(20);
        admin().setLoss(LOSSY_PORT, 0.03);
        try {
            waitTraffic(jobs);
        } finally {
            admin().setLoss(LOSSY_PORT, 0);
        }
        long dropped = admin().lossDrops(LOSSY_PORT) - dropsBefore;
        System.out.println("3 % loss on cjleaf1/" + LOSSY_PORT + ": " + dropped + " packets dropped, links declared failed: "
                + linksDown(after));
        assertTrue(dropped >= 90, "too little traffic crossed the lossy port to judge three batches: " + dropped + " dropped");
        assertEquals(List.of(), linksDown(after), "a 3 % lossy link was declared failed");
    }

    @Test
    @Order(3)
    void fivePercentLossIsDetectedOnlyThereAndLeavesTheRoutingGroups() throws Exception {
        fabric.call("link", "a", "cjleaf1", "b", "cjspine2", "state", "down");
        List<Integer> jobs = List.of();
        try {
            awaitGroups(ctl, "cjleaf1", gs -> gs.stream().noneMatch(g -> FabricChecks.ports(g).contains(6)), 60,
                    "port 6 (cut) out of cjleaf1's groups");
            long after = ctl.lastEventSeq();
            long dropsBefore = admin().lossDrops(LOSSY_PORT);
            // port 5 is cjleaf1's only uplink left: it carries the 16 flows at the link's rate
            jobs = startTraffic(60);
            admin().setLoss(LOSSY_PORT, 0.05);
            long t0 = System.nanoTime();
            List<JsonNode> down;
            try {
                down = ctl.awaitEvents(after, e -> isLinkState(e, false) && !e.path("subject").asText().contains("cjspine2"), 45,
                        "a link declared failed");
            } catch (AssertionError e) {
                long moves = ctl.eventsAfter(after).stream().filter(ev -> ev.path("type").asText().startsWith("routing-group")).count();
                throw new AssertionError("(" + (admin().lossDrops(LOSSY_PORT) - dropsBefore) + " packets dropped by the loss setting; "
                        + moves + " routing-group events; cjleaf1's ports " + fabric.call("ports", "switch", "cjleaf1")
                        + "; its groups " + FabricChecks.groups(ctl, "cjleaf1") + "; cjh1's neighbours "
                        + fabric.call("cmd", "host", "cjh1", "argv", List.of("ip", "neigh")).path("out").asText() + "; iperf3 clients: "
                        + fabric.call("cmd", "host", "cjh1", "argv", List.of("sh", "-c", "tail -n 5 /tmp/ff-vfab-cjh*.log")).path("out").asText() + ") " + e.getMessage(), e);
            }
            double detectS = (System.nanoTime() - t0) / 1e9;
            for (JsonNode e : down) {
                String by = e.path("detail").path("reportedBy").asText();
                assertTrue(by.equals(LEAF + "/" + LOSSY_PORT) || by.equals("device:cjspine1/1"), "declared elsewhere: " + e);
            }
            System.out.printf("5 %% loss on cjleaf1/%d declared failed after %.1f s (load %s)%n", LOSSY_PORT, detectS, loadAverage());
            awaitGroups(ctl, "cjleaf1", gs -> gs.stream().noneMatch(g -> FabricChecks.ports(g).contains(LOSSY_PORT)), 10,
                    "the lossy port out of cjleaf1's groups");
            // Not asserted: staying avoided. With no traffic left on it, the failed port's echoes
            // are good batches and it recovers after 10 intervals although it still loses 5 %
            // (vFab's test packets are not implemented; docs/pipeline.md) — printed as a figure.
            long dropsAvoided = admin().lossDrops(LOSSY_PORT);
            Thread.sleep(3000);
            System.out.println("packets dropped on the failed port in the 3 s after it left the groups: "
                    + (admin().lossDrops(LOSSY_PORT) - dropsAvoided) + " (0 while it stays failed)");
        } finally {
            admin().setLoss(LOSSY_PORT, 0);
            fabric.tryCall("link", "a", "cjleaf1", "b", "cjspine2", "state", "up");
            waitTraffic(jobs);
        }
    }


    private List<String> linksDown(long after) {
        List<String> out = new ArrayList<>();
        for (JsonNode e : ctl.eventsAfter(after)) {
            if (isLinkState(e, false)) {
                out.add(e.path("subject").asText() + " by " + e.path("detail").path("reportedBy").asText());
            }
        }
        return out;
    }

    private static boolean isLinkState(JsonNode e, boolean up) {
        return e.path("type").asText().equals("link.state") && e.path("detail").path("up").asBoolean() == up
                && !e.path("subject").asText().contains("cjspine3") && !e.path("subject").asText().contains("cjspine4");
    }

    /**
     * cjh1 and cjh2 send 8 UDP flows each at 8 Mbit/s in total to cjh13/cjh14 for {@code seconds};
     * returns once every stream is set up. Loss is set after that: iperf3 sets up each UDP stream
     * with one datagram and gives up when it is lost ("unable to read from stream socket"): with
     * 5 % loss on the way, 16 streams all came up in under half of the runs (CI: no traffic, nothing
     * declared failed).
     */
    private List<Integer> startTraffic(int seconds) throws InterruptedException {
        List<Integer> jobs = new ArrayList<>();
        String[][] pairs = {{"cjh1", "cjh13"}, {"cjh2", "cjh14"}};
        for (String[] p : pairs) {
            jobs.add(fabric.iperf3Server(p[1], null, 5301));
        }
        fabric.call("cmd", "host", "cjh1", "argv", List.of("sh", "-c", "rm -f /tmp/ff-vfab-cjh*.log"));
        for (String[] p : pairs) {
            String ip = fabric.host(p[1]).path("ip").asText();
            jobs.add(fabric.call("bg", "host", p[0], "argv", List.of("iperf3", "-c", ip, "-p", "5301", "-u", "-b", "1M",
                    "-P", "8", "-l", "1400", "-t", Integer.toString(seconds), "--logfile", "/tmp/ff-vfab-" + p[0] + ".log")).path("job").asInt());
        }
        long deadline = System.nanoTime() + 20_000_000_000L;
        for (String[] p : pairs) {
            while (true) {
                String log = fabric.call("cmd", "host", p[0], "argv", List.of("cat", "/tmp/ff-vfab-" + p[0] + ".log")).path("out").asText();
                if (log.contains("error") || System.nanoTime() > deadline) {
                    throw new AssertionError("iperf3 " + p[0] + " -> " + p[1] + " did not set up its 8 streams:\n" + log);
                }
                if (log.split("connected to", -1).length - 1 == 8) {
                    break;
                }
                Thread.sleep(200);
            }
        }
        return jobs;
    }

    private void waitTraffic(List<Integer> jobs) {
        for (int job : jobs) {
            fabric.tryCall("bg_wait", "job", job, "timeout", 90);
        }
    }

    private static void signal(String sig, long pid) throws Exception {
        Process p = new ProcessBuilder("kill", "-" + sig, Long.toString(pid)).inheritIO().start();
        assertEquals(0, p.waitFor());
    }

    /** The leaf's switch admin interface (its address is in the netcfg, written when the fabric started). */
    private SwitchAdmin admin() throws Exception {
        if (admin == null) {
            admin = new SwitchAdmin(fabric.netcfg, LEAF);
        }
        return admin;
    }
}
