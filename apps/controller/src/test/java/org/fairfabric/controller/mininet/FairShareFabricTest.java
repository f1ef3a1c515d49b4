package org.fairfabric.controller.mininet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.fairfabric.controller.rest.HttpJson;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;

/**
 * The Promenade loop closed on a live k=4 fat-tree with a host shim on every host: three tenants
 * (amber, green, violet; weights 1:2:3) with one VM each on the sending server cfh2 and one each on
 * the receiving server cfh15 (other pod), greedy iperf3 TCP VM to VM. Their sessions share cfh2's
 * cable, the one link all of them cross, so the weighted proportional-fair optimum gives each
 * {@code weight / 6} of the link rate. "Achieved" is measured where the traffic arrives, by
 * iptables counters per sending VM on cfh15, counted as frames on the wire (IP bytes + 14 bytes
 * of Ethernet + 4 of the path's VLAN tag per packet), as the allocation counts them.
 *
 * <p>The link rate is {@link #LINK_MBIT} (4 Mbit/s). Each window prints beside it where a shortfall
 * comes from ({@link Diagnosis}). The best of at most {@link #WINDOWS} consecutive windows is
 * checked, as a CPU stall of the machine is not the product's error.
 */
class FairShareFabricTest extends FabricTestBase {
    static final double LINK_MBIT = Double.parseDouble(System.getProperty("fairfabric.mininet.fairLinkMbit", "4"));
    static final double C = LINK_MBIT * 1e6;
    static final String SENDER = "cfh2";
    static final String RECEIVER = "cfh15";
    static final String[] TENANTS = {"amber", "green", "violet"};
    static final int[] WEIGHTS = {1, 2, 3};
    static final int BASE_PORT = 5301;
    static final double WINDOW_S = 10;
    static final int WINDOWS = 3;
    static final double TOLERANCE = 0.05;

    /** Session id per tenant, in {@link #TENANTS} order. */
    final List<String> sessions = new ArrayList<>();
    final List<Integer> clientJobs = new ArrayList<>();

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
        return "cf";
    }

    @Override
    boolean shims() {
        return true;
    }

    static String srcIp(int n) {
        return "10.201." + (n + 1) + ".1";
    }

    static String dstIp(int n) {
        return "10.201." + (n + 1) + ".2";
    }

    /**
     * The weighted proportional-fair optimum computed here, independently of the controller's
     * allocator: maximise sum w_i log x_i subject to sum x_i <= C (the sender's cable; every other
     * link of the sessions' paths is as wide and carries at most their sum) gives x_i = C w_i / sum w.
     */
    static double optimum(int[] weights, int i) {
        double sum = 0;
        for (int w : weights) {
            sum += w;
        }
        return C * weights[i] / sum;
    }

    @Test
    @Order(1)
    void threeTenantsOnOneServerGetTheWeightedOptimumAndAchieveIt() throws Exception {
        provision();
        Map<String, Double> alloc = awaitAllocation(WEIGHTS, 30);
        for (int i = 0; i < TENANTS.length; i++) {
            assertEquals(optimum(WEIGHTS, i), alloc.get(sessions.get(i)), C * 1e-6, TENANTS[i] + "'s allocation");
        }
        awaitShimRates(alloc, 30);
        startTraffic();
        Thread.sleep(8000); // TCP's start and the first allocation rounds with traffic
        assertAchievedWithin(alloc, "weights 1:2:3");
    }

    @Test
    @Order(2)
    void aWeightChangeOverRestMovesTheAchievedSharesWithinTwoSeconds() throws Exception {
        int[] weights = {6, 2, 3};
        Counters before = Counters.read(fabric, RECEIVER);
        long t0 = System.nanoTime();
        HttpJson.Answer a = ctl.send("PATCH", "/tenants/amber", "{\"weight\":6}");
        assertEquals(200, a.status, a.toString());
        Map<String, Double> alloc = awaitAllocation(weights, 10);
        double allocatedAfterS = (System.nanoTime() - t0) / 1e9;
        // the first one-second window (sliding by 0.25 s) in which every tenant is within 10 % of its new rate
        List<Counters> samples = new ArrayList<>();
        List<Double> at = new ArrayList<>();
        samples.add(before);
        at.add(0.0);
        double movedAfterS = -1;
        Map<String, Double> moved = null;
        while (movedAfterS < 0 && (System.nanoTime() - t0) / 1e9 < 10) {
            Thread.sleep(250);
            samples.add(Counters.read(fabric, RECEIVER));
            at.add((System.nanoTime() - t0) / 1e9);
            int last = samples.size() - 1;
            int first = last;
            while (first > 0 && at.get(last) - at.get(first) < 1.0) {
                first--;
            }
            if (at.get(last) - at.get(first) < 1.0) {
                continue;
            }
            Map<String, Double> rates = samples.get(last).ratesSince(samples.get(first), at.get(last) - at.get(first));
            boolean all = true;
            for (int i = 0; i < TENANTS.length; i++) {
                double want = alloc.get(sessions.get(i));
                all &= Math.abs(rates.get(srcIp(i)) - want) <= 0.10 * want;
            }
            if (all) {
                movedAfterS = at.get(last);
                moved = rates;
            }
        }
        System.out.printf("[mininet] PATCH amber weight 1 -> 6: new allocation read back after %.2f s; achieved within 10 %%"
                + " of it (1 s window) %.2f s after the PATCH: %s (load %s)%n", allocatedAfterS, movedAfterS, moved, loadAverage());
        assertTrue(movedAfterS > 0 && movedAfterS <= 2.0 + 1.0,
                "achieved shares within 10 % of the new allocation by a one-second window ending at most 3 s after the PATCH"
                + " (so within 2 s of the change plus the window); got " + movedAfterS + " s");
        assertAchievedWithin(alloc, "weights 6:2:3");
    }

    @Test
    @Order(3)
    void refusedRestClashesChangeNothingAndLeaveTheTrafficAlone() throws Exception {
        Map<String, Double> alloc = awaitAllocation(new int[] {6, 2, 3}, 10);
        Map<String, String> before = RestRoundTrip.snapshot(ctl);
        JsonNode server = fabric.host(SENDER);
        String at = "\"location\":{\"device\":\"device:" + server.path("switch").asText() + "\",\"port\":"
                + server.path("port").asInt() + "}";
        HttpJson.Answer sameIp = ctl.send("POST", "/tenants/green/hosts",
                "{\"id\":\"green-clash\",\"ip\":\"" + srcIp(0) + "\",\"mac\":\"02:ff:01:00:09:01\"," + at + "}");
        assertEquals(409, sameIp.status, "a VM with amber's VM address: " + sameIp);
        assertEquals("ip", sameIp.json().path("field").asText());
        JsonNode other = fabric.host("cfh9");
        HttpJson.Answer otherMac = ctl.send("POST", "/tenants/violet/hosts",
                "{\"id\":\"violet-clash\",\"ip\":\"10.201.9.9\",\"mac\":\"" + other.path("mac").asText() + "\"," + at + "}");
        assertEquals(409, otherMac.status, "a VM with cfh9's MAC: " + otherMac);
        assertEquals("mac", otherMac.json().path("field").asText());
        assertEquals(before, RestRoundTrip.snapshot(ctl), "refused requests change nothing");
        assertEquals(alloc, awaitAllocation(new int[] {6, 2, 3}, 1), "the allocation is unchanged");
        assertAchievedWithin(alloc, "after the refused requests");
    }

    /**
     * 20 sessions arrive over REST (tenant teal, bare-metal hosts cfh3-cfh14, random pairs), one at a
     * time while the three tenants' traffic runs: each arrival is allocated and its new rates are in
     * force at every affected shim (the sending hosts whose sessions' rates changed: their shim's
     * /rates equals GET /allocations). Prints the time from the POST to the last affected shim,
     * p50/p99 (shims polled every 10 ms through the driver).
     */
    @Test
    @Order(4)
    void arrivingSessionsAreInForceAtEveryAffectedShim() throws Exception {
        HttpJson.Answer t = ctl.send("POST", "/tenants", "{\"id\":\"teal\",\"name\":\"Tenant teal\",\"weight\":1}");
        assertEquals(201, t.status, t.toString());
        List<String> teal = new ArrayList<>();
        for (int i = 3; i <= 14; i++) {
            String h = "cfh" + i;
            HttpJson.Answer a = ctl.send("POST", "/tenants/teal/hosts", RestRoundTrip.hostJson(h, fabric.host(h)));
            assertEquals(201, a.status, h + ": " + a);
            teal.add(h);
        }
        java.util.Random random = new java.util.Random(16);
        Map<String, Map<String, Map<Integer, Long>>> before = expectedTables(ctl.get("/allocations"));
        List<Double> ms = new ArrayList<>();
        List<String> arrived = new ArrayList<>();
        java.util.Set<String> pairs = new java.util.HashSet<>();
        for (int n = 0; n < 20; n++) {
            String src = teal.get(random.nextInt(teal.size()));
            String dst;
            do {
                dst = teal.get(random.nextInt(teal.size()));
            } while (dst.equals(src) || !pairs.add(src + ">" + dst)); // one session per pair
            long t0 = System.nanoTime();
            HttpJson.Answer s = ctl.send("POST", "/sessions", "{\"srcHost\":\"" + src + "\",\"dstHost\":\"" + dst + "\"}");
            assertEquals(201, s.status, s.toString());
            String id = s.json().path("id").asText();
            arrived.add(id);
            JsonNode allocs;
            while (true) {
                allocs = ctl.get("/allocations");
                boolean found = false;
                for (JsonNode a : allocs) {
                    found |= a.path("sessionId").asText().equals(id);
                }
                if (found) {
                    break;
                }
                assertTrue(System.nanoTime() - t0 < 30_000_000_000L, "session " + id + " not allocated within 30 s");
                Thread.sleep(10);
            }
            Map<String, Map<String, Map<Integer, Long>>> want = expectedTables(allocs);
            List<String> pending = new ArrayList<>();
            want.forEach((host, table) -> {
                if (!table.equals(before.get(host))) {
                    pending.add(host);
                }
            });
            assertTrue(pending.contains(src), "the new session's sender " + src + " is affected: " + pending);
            while (!pending.isEmpty()) {
                // a later round (a link flap under load) may change the rates again: compare with the allocation now in force
                Map<String, Map<String, Map<Integer, Long>>> now = expectedTables(ctl.get("/allocations"));
                want.putAll(now);
                pending.removeIf(host -> java.util.Objects.equals(want.get(host), inForce(host)));
                if (!pending.isEmpty()) {
                    assertTrue(System.nanoTime() - t0 < 30_000_000_000L, "arrival " + id + ": shims " + pending + " without the new rates after 30 s");
                    Thread.sleep(10);
                }
            }
            ms.add((System.nanoTime() - t0) / 1e6);
            before.clear();
            before.putAll(want);
            Thread.sleep(300);
        }
        List<Double> sorted = new ArrayList<>(ms);
        java.util.Collections.sort(sorted);
        System.out.printf("[mininet] session arrival (POST /sessions) -> new rates in force at every affected shim, 20 arrivals:"
                + " p50 %.0f ms, p99 %.0f ms, max %.0f ms (load %s)%n", sorted.get(9), sorted.get(19), sorted.get(19), loadAverage());
        for (String id : arrived) { // the next test wants cfh2's tenants alone again
            assertEquals(204, ctl.send("DELETE", "/sessions/" + id, null).status, id);
        }
    }

    /**
     * violet's session ends — its traffic stops and its session is deleted (DELETE /sessions/{id}):
     * amber and green, still sending, share cfh2's cable 6:2 within one allocation round, and achieve
     * it (±5 %, 10 s windows). (A deleted session's traffic that went on would leave the shim
     * unlimited, no class being left for it, and take the cable from the others.)
     */
    @Test
    @Order(5)
    void aSessionThatEndsGivesItsShareToTheOthers() throws Exception {
        fabric.tryCall("bg_wait", "job", clientJobs.get(2), "timeout", 1); // stops violet's iperf3 client
        clientJobs.remove(2);
        long t0 = System.nanoTime();
        HttpJson.Answer d = ctl.send("DELETE", "/sessions/" + sessions.get(2), null);
        assertEquals(204, d.status, d.toString());
        Map<String, Double> alloc = new LinkedHashMap<>();
        while (true) {
            alloc.clear();
            for (JsonNode a : ctl.get("/allocations")) {
                if (a.path("sessionId").asText().equals(sessions.get(0)) || a.path("sessionId").asText().equals(sessions.get(1))) {
                    alloc.put(a.path("sessionId").asText(), a.path("totalBps").asDouble());
                }
            }
            Double amber = alloc.get(sessions.get(0));
            if (amber != null && Math.abs(amber - C * 6 / 8) <= C * 1e-6) {
                break;
            }
            assertTrue(System.nanoTime() - t0 < 10_000_000_000L, "amber's share after violet left: " + alloc);
            Thread.sleep(50);
        }
        System.out.printf("[mininet] violet's session deleted: amber and green reallocated 6:2 after %.2f s%n", (System.nanoTime() - t0) / 1e9);
        assertEquals(C * 2 / 8, alloc.get(sessions.get(1)), C * 1e-6);
        sessions.remove(2);
        Thread.sleep(2000);
        assertAchievedWithin(alloc, "violet gone, weights 6:2");
    }

    /** Sending host (a VM's server) → session → path id → rate, as the shims' tables should hold them. */
    private Map<String, Map<String, Map<Integer, Long>>> expectedTables(JsonNode allocs) {
        Map<String, Map<String, Map<Integer, Long>>> out = new LinkedHashMap<>();
        Map<String, String> vmServer = new java.util.HashMap<>();
        for (String t : TENANTS) {
            vmServer.put(t + "-vm1", SENDER);
            vmServer.put(t + "-vm2", RECEIVER);
        }
        Map<String, String> srcOf = new java.util.HashMap<>();
        for (JsonNode s : ctl.get("/sessions")) {
            srcOf.put(s.path("id").asText(), s.path("srcHost").asText());
        }
        for (JsonNode a : allocs) {
            String src = srcOf.get(a.path("sessionId").asText());
            if (src == null) {
                continue;
            }
            Map<Integer, Long> paths = new java.util.TreeMap<>();
            JsonNode best = null;
            for (JsonNode p : a.path("paths")) {
                long r = (long) Math.floor(p.path("rateBps").asDouble());
                if (r >= org.fairfabric.controller.alloc.RatesTable.MIN_RATE_BPS) {
                    paths.put(p.path("pathId").asInt(), r);
                }
                if (best == null || p.path("rateBps").asDouble() > best.path("rateBps").asDouble()) {
                    best = p;
                }
            }
            if (paths.isEmpty() && best != null) {
                paths.put(best.path("pathId").asInt(), Math.max(org.fairfabric.controller.alloc.RatesTable.MIN_RATE_BPS,
                        (long) Math.floor(a.path("totalBps").asDouble())));
            }
            out.computeIfAbsent(vmServer.getOrDefault(src, src), x -> new java.util.TreeMap<>()).put(a.path("sessionId").asText(), paths);
        }
        return out;
    }

    /** The rates table in force at a host's shim (its /rates): session → path id → rate. */
    private Map<String, Map<Integer, Long>> inForce(String host) {
        JsonNode table = fabric.call("shim", "host", host, "path", "/rates").path("body");
        Map<String, Map<Integer, Long>> out = new java.util.TreeMap<>();
        for (JsonNode s : table.path("sessions")) {
            Map<Integer, Long> paths = new java.util.TreeMap<>();
            s.path("paths").forEach(p -> paths.put(p.path("id").asInt(), p.path("rate_bps").asLong()));
            out.put(s.path("id").asText(), paths);
        }
        return out;
    }

    @AfterAll
    void stopTraffic() {
        for (int job : clientJobs) {
            fabric.tryCall("bg_wait", "job", job, "timeout", 1);
        }
    }

    private void provision() {
        JsonNode tx = fabric.host(SENDER);
        JsonNode rx = fabric.host(RECEIVER);
        for (int n = 0; n < TENANTS.length; n++) {
            String t = TENANTS[n];
            HttpJson.Answer a = ctl.send("POST", "/tenants", "{\"id\":\"" + t + "\",\"name\":\"Tenant " + t + "\",\"weight\":" + WEIGHTS[n] + "}");
            assertEquals(201, a.status, a.toString());
            addVm(t, t + "-vm1", srcIp(n), String.format("02:ff:01:00:%02x:01", n + 1), SENDER, tx);
            addVm(t, t + "-vm2", dstIp(n), String.format("02:ff:01:00:%02x:02", n + 1), RECEIVER, rx);
            HttpJson.Answer s = ctl.send("POST", "/sessions", "{\"srcHost\":\"" + t + "-vm1\",\"dstHost\":\"" + t + "-vm2\"}");
            assertEquals(201, s.status, s.toString());
            sessions.add(s.json().path("id").asText());
            JsonNode rule = fabric.call("cmd", "host", RECEIVER, "argv",
                    List.of("iptables", "-w", "-A", "INPUT", "-s", srcIp(n) + "/32", "-d", dstIp(n) + "/32"));
            assertEquals(0, rule.path("rc").asInt(), "counting rule on " + RECEIVER + ": " + rule);
        }
    }

    private void addVm(String tenant, String id, String ip, String mac, String server, JsonNode info) {
        String body = "{\"id\":\"" + id + "\",\"ip\":\"" + ip + "\",\"mac\":\"" + mac + "\",\"location\":{\"device\":\"device:"
                + info.path("switch").asText() + "\",\"port\":" + info.path("port").asInt() + "}}";
        HttpJson.Answer a = ctl.send("POST", "/tenants/" + tenant + "/hosts", body);
        assertEquals(201, a.status, id + ": " + a);
        JsonNode alias = fabric.call("cmd", "host", server, "argv", List.of("ip", "addr", "add", ip + "/32", "dev", info.path("intf").asText()));
        assertEquals(0, alias.path("rc").asInt(), alias.toString());
    }

    private void startTraffic() throws InterruptedException {
        for (int n = 0; n < TENANTS.length; n++) {
            fabric.iperf3Server(RECEIVER, dstIp(n), BASE_PORT + n);
        }
        for (int n = 0; n < TENANTS.length; n++) {
            clientJobs.add(fabric.call("bg", "host", SENDER, "argv", List.of("iperf3", "-c", dstIp(n), "-B", srcIp(n),
                    "-p", Integer.toString(BASE_PORT + n), "-t", "900")).path("job").asInt()); // the class takes 6+ min at load 60
        }
    }

    /** Session id → allocated bit/s once GET /allocations gives every session its share of {@code weights}. */
    private Map<String, Double> awaitAllocation(int[] weights, double timeoutS) throws InterruptedException {
        long deadline = System.nanoTime() + (long) (timeoutS * 1e9);
        Map<String, Double> got = new LinkedHashMap<>();
        while (true) {
            got.clear();
            for (JsonNode a : ctl.get("/allocations")) {
                got.put(a.path("sessionId").asText(), a.path("totalBps").asDouble());
            }
            boolean match = true;
            for (int i = 0; i < sessions.size(); i++) {
                Double r = got.get(sessions.get(i));
                match &= r != null && Math.abs(r - optimum(weights, i)) <= C * 1e-6;
            }
            if (match) {
                Map<String, Double> out = new LinkedHashMap<>();
                sessions.forEach(s -> out.put(s, got.get(s)));
                return out;
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("no allocation matching weights " + java.util.Arrays.toString(weights) + " within "
                        + timeoutS + " s: " + got + "\n" + ctl.logTail());
            }
            Thread.sleep(100);
        }
    }

    /** Waits until the sending server's shim has the allocation's rates in force (its /stats: allocated per session). */
    private void awaitShimRates(Map<String, Double> alloc, double timeoutS) throws InterruptedException {
        long deadline = System.nanoTime() + (long) (timeoutS * 1e9);
        while (true) {
            Map<String, Double> inForce = new LinkedHashMap<>();
            JsonNode paths = fabric.call("shim", "host", SENDER).path("body").path("paths");
            paths.forEach(p -> inForce.merge(p.path("session").asText(), p.path("allocated_bps").asDouble(), Double::sum));
            boolean all = true;
            for (Map.Entry<String, Double> e : alloc.entrySet()) {
                Double r = inForce.get(e.getKey());
                all &= r != null && Math.abs(r - e.getValue()) <= 8; // the table carries whole bit/s per path
            }
            if (all) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("the shim on " + SENDER + " has " + inForce + ", not " + alloc);
            }
            Thread.sleep(200);
        }
    }

    /** Every tenant's achieved rate within ±5 % of its allocation in one of at most {@link #WINDOWS} windows of 10 s. */
    private void assertAchievedWithin(Map<String, Double> alloc, String what) throws InterruptedException {
        String last = "";
        for (int w = 1; w <= WINDOWS; w++) {
            Diagnosis d0 = Diagnosis.read(fabric, SENDER);
            Counters a = Counters.read(fabric, RECEIVER);
            long t0 = System.nanoTime();
            Thread.sleep((long) (WINDOW_S * 1000));
            Counters b = Counters.read(fabric, RECEIVER);
            Diagnosis d1 = Diagnosis.read(fabric, SENDER);
            Map<String, Double> rates = b.ratesSince(a, (System.nanoTime() - t0) / 1e9);
            StringBuilder line = new StringBuilder();
            boolean all = true;
            for (int i = 0; i < sessions.size(); i++) {
                double want = alloc.get(sessions.get(i));
                double got = rates.get(srcIp(i));
                double err = (got - want) / want;
                all &= Math.abs(err) <= TOLERANCE;
                line.append(String.format(" %s %.3f/%.3f Mbit/s (%+.1f %%)", TENANTS[i], got / 1e6, want / 1e6, 100 * err));
            }
            last = line.toString();
            System.out.printf("[mininet] %s, %.0f Mbit/s links, window %d of %.0f s, achieved/allocated:%s (load %s)%n",
                    what, LINK_MBIT, w, WINDOW_S, last, loadAverage());
            System.out.printf("[mininet]   where: %s%n", d1.since(d0, (System.nanoTime() - t0) / 1e9));
            if (all) {
                return;
            }
        }
        throw new AssertionError(what + ": no " + WINDOW_S + " s window in " + WINDOWS + " with every tenant within ±5 % of its allocation;"
                + " last:" + last);
    }

    /**
     * Where a shortfall comes from, printed beside each window: per session the shim's sent rate
     * (frames leaving its class; a class that sends less than its rate with an empty backlog had
     * nothing to send), its backlog at the end, the sender's TCP retransmissions and the switches'
     * queue drops over the window, and each flow's TCP state (ss -ti: cwnd, rtt, pacing and delivery
     * rate, bytes not yet sent, time limited by the receive window or the send buffer).
     */
    record Diagnosis(Map<String, long[]> sentBytesAndBacklog, long retrans, Map<String, Long> queueDrops, Map<String, long[]> queues,
                     String tcp) {
        static Diagnosis read(MininetFabric fabric, String sender) {
            JsonNode stats = fabric.call("shim", "host", sender).path("body");
            Map<String, long[]> sent = new LinkedHashMap<>();
            for (JsonNode p : stats.path("paths")) {
                long[] v = sent.computeIfAbsent(p.path("session").asText(), x -> new long[2]);
                v[0] += p.path("sent_bytes").asLong();
                v[1] += p.path("backlog_bytes").asLong();
            }
            Map<String, Long> drops = new LinkedHashMap<>();
            Map<String, long[]> queues = new LinkedHashMap<>(); // switch/port -> {packets waiting, dequeued so far}
            for (String sw : fabric.switches()) {
                long n = 0;
                for (JsonNode port : fabric.call("ports", "switch", sw).path("ports")) {
                    n += port.path("queue_drops").asLong();
                    long waiting = port.path("enqueued").asLong() - port.path("dequeued").asLong();
                    queues.put(sw + "/" + port.path("port").asInt(), new long[] {waiting, port.path("dequeued").asLong()});
                }
                drops.put(sw, n);
            }
            JsonNode ss = fabric.call("cmd", "host", sender, "argv", List.of("ss", "-tin", "state", "established"));
            StringBuilder tcp = new StringBuilder();
            for (String line : ss.path("out").asText().split("\n")) {
                java.util.regex.Matcher peer = java.util.regex.Pattern.compile("(10\\.201\\.\\d+\\.2:\\d+)").matcher(line);
                if (peer.find()) {
                    tcp.append(' ').append(peer.group(1));
                    continue;
                }
                java.util.regex.Matcher m = java.util.regex.Pattern.compile(
                        "(cwnd:\\d+|rtt:[\\d.]+/[\\d.]+|pacing_rate \\S+|delivery_rate \\S+|notsent:\\d+|unacked:\\d+|busy:\\d+ms|rwnd_limited:\\S+|sndbuf_limited:\\S+|retrans:\\S+)").matcher(line);
                StringBuilder one = new StringBuilder();
                while (m.find()) {
                    one.append(' ').append(m.group(1));
                }
                if (one.length() > 0) {
                    tcp.append(" {").append(one.toString().trim()).append('}');
                }
            }
            return new Diagnosis(sent, stats.path("drops").path("tcp_retrans").asLong(), drops, queues, tcp.toString());
        }

        String since(Diagnosis before, double seconds) {
            StringBuilder out = new StringBuilder("shim sent (Mbit/s, backlog B):");
            sentBytesAndBacklog.forEach((session, v) -> {
                long[] was = before.sentBytesAndBacklog.getOrDefault(session, new long[2]);
                out.append(String.format(" %s %.3f (%d)", session, (v[0] - was[0]) * 8 / seconds / 1e6, v[1]));
            });
            out.append("; sender TCP retransmissions ").append(retrans - before.retrans).append("; switch queue drops {");
            queueDrops.forEach((sw, n) -> {
                long d = n - before.queueDrops.getOrDefault(sw, 0L);
                if (d > 0) {
                    out.append(sw).append('=').append(d).append(' ');
                }
            });
            out.append("}; switch ports with packets waiting (now, dequeued pkt/s) {");
            queues.forEach((port, q) -> {
                if (q[0] >= 3) {
                    long[] was = before.queues.getOrDefault(port, new long[2]);
                    out.append(String.format("%s=%d,%.0f ", port, q[0], (q[1] - was[1]) / seconds));
                }
            });
            return out.append("}; tcp").append(tcp).toString();
        }
    }


    /** iptables INPUT counters of a host: source address → (packets, IP bytes). */
    record Counters(Map<String, long[]> bySource) {
        static Counters read(MininetFabric fabric, String host) {
            JsonNode out = fabric.call("cmd", "host", host, "argv", List.of("iptables", "-w", "-L", "INPUT", "-v", "-x", "-n"));
            assertEquals(0, out.path("rc").asInt(), out.toString());
            Map<String, long[]> m = new LinkedHashMap<>();
            for (String line : out.path("out").asText().split("\n")) {
                String[] f = line.trim().split("\\s+");
                // pkts bytes target prot opt in out source destination
                if (f.length >= 8 && f[0].matches("\\d+") && f[1].matches("\\d+")) {
                    String src = f[f.length - 2].replace("/32", "");
                    m.put(src, new long[] {Long.parseLong(f[0]), Long.parseLong(f[1])});
                }
            }
            return new Counters(m);
        }

        /** Source → bit/s on the wire since {@code earlier}: IP bytes plus Ethernet header and VLAN tag per packet. */
        Map<String, Double> ratesSince(Counters earlier, double seconds) {
            Map<String, Double> out = new LinkedHashMap<>();
            for (Map.Entry<String, long[]> e : bySource.entrySet()) {
                long[] was = earlier.bySource.getOrDefault(e.getKey(), new long[2]);
                long packets = e.getValue()[0] - was[0];
                long bytes = e.getValue()[1] - was[1];
                out.put(e.getKey(), (bytes + 18.0 * packets) * 8 / seconds);
            }
            return out;
        }
    }
}
