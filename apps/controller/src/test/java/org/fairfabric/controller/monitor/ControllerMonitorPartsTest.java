package org.fairfabric.controller.monitor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.ByteString;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.fairfabric.api.dto.AllocationDto;
import org.fairfabric.api.dto.HostDto;
import org.fairfabric.api.dto.LocationDto;
import org.fairfabric.api.dto.SessionDto;
import org.fairfabric.api.dto.TenantDto;
import org.fairfabric.controller.netcfg.FabricConfigs;
import org.fairfabric.controller.netcfg.NetworkConfig;
import org.fairfabric.controller.netcfg.NetworkConfigParser;
import org.fairfabric.controller.p4rt.P4InfoIndex;
import org.junit.jupiter.api.Test;
import p4.v1.P4RuntimeOuterClass.CounterData;
import p4.v1.P4RuntimeOuterClass.CounterEntry;
import p4.v1.P4RuntimeOuterClass.Entity;
import p4.v1.P4RuntimeOuterClass.Index;
import p4.v1.P4DataOuterClass.P4Data;
import p4.v1.P4RuntimeOuterClass.RegisterEntry;

/** The controller side of the monitor without a broker: counter ids, port-stats records, the catalog, detected sessions. */
class ControllerMonitorPartsTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static PortCounterIds fabricIds() throws Exception {
        return PortCounterIds.of(P4InfoIndex.parseText(Files.readString(Path.of("../../pipeconfs/p4/p4info.txt"))))
                .orElseThrow(() -> new AssertionError("fabric.p4 lacks the contract C1 counters"));
    }

    @Test
    void theFabricPipelineHasThePortCountersOfContractC1() throws Exception {
        PortCounterIds ids = fabricIds();
        assertEquals(6, new TreeSet<>(List.of(ids.rx(), ids.tx(), ids.drops(), ids.qdepth(), ids.fackDecrease(),
                ids.fackIncrease())).size());
        assertEquals(6, PortStats.queries(ids).size(), "with FACK on, its counters are read too");
        assertEquals(4, PortStats.queries(ids.withoutFacks()).size());
    }

    @Test
    void withFackOnEveryPortCarriesItsFackCounts() throws Exception {
        PortCounterIds ids = fabricIds();
        List<Entity> read = List.of(counter(ids.rx(), 1, 100, 1), counter(ids.fackDecrease(), 1, 0, 5),
                counter(ids.fackIncrease(), 1, 0, 9), counter(ids.fackDecrease(), 2, 0, 1));
        JsonNode on = JSON.readTree(PortStats.record("device:leaf1", 1, 1763770000000L, 1000, List.of(1, 3), ids, read));
        assertEquals("{\"port\":1,\"rx_bytes\":100,\"rx_packets\":1,\"tx_bytes\":0,\"tx_packets\":0,"
                + "\"drops\":0,\"qdepth\":0,\"facks_decrease\":5,\"facks_increase\":9}", on.get("ports").get(0).toString());
        assertEquals(0, on.get("ports").get(1).get("facks_decrease").asLong(), "a port without FACKs counts 0");
        JsonNode off = JSON.readTree(PortStats.record("device:leaf1", 1, 1763770000000L, 1000, List.of(1), ids.withoutFacks(), read));
        assertFalse(off.get("ports").get(0).has("facks_decrease"), "FACK off: no FACK fields");
    }

    @Test
    void aPortStatsRecordHasTheFieldsOfTheDocumentedExample() throws Exception {
        PortCounterIds ids = fabricIds();
        List<Entity> read = List.of(
                counter(ids.rx(), 3, 52000, 800), counter(ids.tx(), 3, 1_000_000, 700), counter(ids.drops(), 3, 0, 2),
                counter(ids.tx(), 9, 5, 5),
                Entity.newBuilder().setRegisterEntry(RegisterEntry.newBuilder().setRegisterId(ids.qdepth())
                        .setIndex(Index.newBuilder().setIndex(3))
                        .setData(P4Data.newBuilder().setBitstring(ByteString.copyFrom(new byte[] {4})))).build());
        JsonNode r = JSON.readTree(PortStats.record("device:leaf1", 7, 1763770000000L, 1000, List.of(3, 4), ids.withoutFacks(), read));
        JsonNode doc = docExample("ff.ctl.portstats.v1");
        assertEquals(names(doc), names(r));
        assertEquals(names(doc.get("ports").get(0)), names(r.get("ports").get(0)));
        assertEquals("{\"port\":3,\"rx_bytes\":52000,\"rx_packets\":800,\"tx_bytes\":1000000,\"tx_packets\":700,"
                + "\"drops\":2,\"qdepth\":4}", r.get("ports").get(0).toString());
        assertEquals(0, r.get("ports").get(1).get("tx_bytes").asLong(), "a port the read did not return counts 0");
        assertEquals(2, r.get("ports").size(), "only the ports asked for");
    }

    private static Entity counter(int id, long port, long bytes, long packets) {
        return Entity.newBuilder().setCounterEntry(CounterEntry.newBuilder().setCounterId(id)
                .setIndex(Index.newBuilder().setIndex(port))
                .setData(CounterData.newBuilder().setByteCount(bytes).setPacketCount(packets))).build();
    }

    private static Set<String> names(JsonNode o) {
        Set<String> s = new TreeSet<>();
        o.fieldNames().forEachRemaining(s::add);
        return s;
    }

    /** The first ```json block under the docs/kafka.md heading naming the topic. */
    static JsonNode docExample(String topic) throws Exception {
        List<String> lines = Files.readAllLines(Path.of("../../docs/kafka.md"));
        int i = 0;
        while (!(lines.get(i).startsWith("#") && lines.get(i).contains("`" + topic + "`"))) {
            i++;
        }
        while (!lines.get(i).equals("```json")) {
            i++;
        }
        StringBuilder b = new StringBuilder();
        for (i++; !lines.get(i).equals("```"); i++) {
            b.append(lines.get(i)).append('\n');
        }
        return JSON.readTree(b.toString());
    }

    private static NetworkConfig leafSpine() throws Exception {
        return new NetworkConfigParser().parse(FabricConfigs.leafSpine(2, 2, 2, "127.0.0.1", 50001, 100));
    }

    private static HostDto host(NetworkConfig cfg, String name, String tenant) {
        for (NetworkConfig.Host h : cfg.hosts) {
            if (h.name.equals(name)) {
                return new HostDto(name, tenant, h.ips.get(0), h.mac, new LocationDto(h.location.device, h.location.port));
            }
        }
        throw new IllegalArgumentException(name);
    }

    @Test
    void theCatalogMapsEveryPairOfATenantsHostsToPathsOverKnownLinks() throws Exception {
        NetworkConfig cfg = leafSpine();
        List<HostDto> hosts = List.of(host(cfg, cfg.hosts.get(0).name, "t1"), host(cfg, cfg.hosts.get(2).name, "t1"),
                host(cfg, cfg.hosts.get(3).name, "t2"));
        HostDto a = hosts.get(0);
        HostDto b = hosts.get(1);
        Map<String, String> c = CatalogBuilder.build(cfg, List.of(new TenantDto("t1", "T1", 1, 50_000_000L),
                        new TenantDto("t2", "T2", 1, null)), hosts,
                List.of(new SessionDto("s1", "t1", a.id, b.id, null, "api")),
                List.of(new AllocationDto("s1", "t1", 40_000_000, List.of(), "2026-11-26T00:00:00Z", true)));
        assertTrue(c.containsKey("pair/" + a.ip + ">" + b.ip) && c.containsKey("pair/" + b.ip + ">" + a.ip));
        assertFalse(c.keySet().stream().anyMatch(k -> k.startsWith("pair/") && k.contains(hosts.get(2).ip)),
                "no pairs across tenants");
        JsonNode pair = JSON.readTree(c.get("pair/" + a.ip + ">" + b.ip));
        assertEquals(2, pair.get("paths").size(), "two spines: two paths between the leaves");
        for (JsonNode p : pair.get("paths")) {
            assertTrue(p.get("id").asInt() > 0);
            for (JsonNode l : p.get("links")) {
                assertTrue(c.containsKey("link/" + l.asText()), "path link " + l + " is in the catalog");
            }
        }
        JsonNode first = JSON.readTree(c.get("link/" + pair.get("paths").get(0).get("links").get(0).asText()));
        assertFalse(first.get("src_is_switch").asBoolean(), "the path starts on the host's uplink");
        assertEquals("{\"schema\":1,\"weight\":1.0,\"guarantee_bps\":50000000,\"allocated_bps\":40000000}", c.get("tenant/t1"));
        assertEquals("{\"schema\":1,\"tenant\":\"t1\",\"src\":\"" + a.ip + "\",\"dst\":\"" + b.ip + "\"}", c.get("session/s1"));
        assertEquals("t1", JSON.readTree(c.get("host/" + a.ip)).get("tenant").asText());
    }

    @Test
    void activeSessionsOfOneTenantThatNoRestSessionCoversAreAllocatedAsDetected() throws Exception {
        NetworkConfig cfg = leafSpine();
        HostDto a = host(cfg, cfg.hosts.get(0).name, "t1");
        HostDto b = host(cfg, cfg.hosts.get(2).name, "t1");
        HostDto x = host(cfg, cfg.hosts.get(3).name, "t2");
        MonitorView view = new MonitorView();
        assertTrue(view.apply("sessions", a.ip + ">" + b.ip, session(a, b, "active")));
        assertFalse(view.apply("sessions", a.ip + ">" + b.ip, session(a, b, "active")), "no change");
        view.apply("sessions", b.ip + ">" + a.ip, session(b, a, "inactive"));
        view.apply("sessions", a.ip + ">" + x.ip, session(a, x, "active"));
        List<HostDto> hosts = List.of(a, b, x);
        List<SessionDto> detected = view.detectedSessions(hosts, List.of());
        assertEquals(1, detected.size());
        SessionDto d = detected.get(0);
        assertEquals(List.of("detected/" + a.id + "-" + b.id, "t1", a.id, b.id, "monitor"),
                List.of(d.id, d.tenantId, d.srcHost, d.dstHost, d.source));
        assertEquals(List.of(), view.detectedSessions(hosts, List.of(new SessionDto("s1", "t1", a.id, b.id, null, "api"))),
                "a REST session of the same pair stays the one allocated");
        assertTrue(view.apply("sessions", a.ip + ">" + b.ip, null), "a tombstone removes it");
        assertEquals(List.of(), view.detectedSessions(hosts, List.of()));
    }

    /** A monitor that stopped with sessions active leaves them in the compacted topic: history, not sessions. */
    @Test
    void noSessionIsDetectedFromRecordsOfEarlierRunsUntilTheMonitorIsHeard() throws Exception {
        NetworkConfig cfg = leafSpine();
        HostDto a = host(cfg, cfg.hosts.get(0).name, "t1");
        HostDto b = host(cfg, cfg.hosts.get(2).name, "t1");
        long[] now = {1_000_000};
        MonitorView view = new MonitorView(() -> now[0]);
        view.apply("sessions", a.ip + ">" + b.ip, session(a, b, "active"), now[0] - 3_600_000);
        assertEquals(List.of(), view.detectedSessions(List.of(a, b), List.of()), "an hour-old record only");
        now[0] += 5000;
        view.apply("links", "l1", JSON.createObjectNode().put("load_bps", 0), now[0]);
        assertEquals(1, view.detectedSessions(List.of(a, b), List.of()).size(), "the monitor runs: its view holds");
    }

    /** Work conservation (docs/guarantees.md): which declared sessions the allocation treats as idle. */
    @Test
    void declaredSessionsTheLiveViewSeesNoTrafficOfAreIdle() throws Exception {
        NetworkConfig cfg = leafSpine();
        HostDto a = host(cfg, cfg.hosts.get(0).name, "t1");
        HostDto b = host(cfg, cfg.hosts.get(2).name, "t1");
        HostDto c = host(cfg, cfg.hosts.get(3).name, "t1");
        long[] now = {1_000_000};
        MonitorView view = new MonitorView(() -> now[0]);
        List<HostDto> hosts = List.of(a, b, c);
        List<SessionDto> declared = List.of(new SessionDto("ab", "t1", a.id, b.id, null, "api"),
                new SessionDto("ac", "t1", a.id, c.id, null, "api"), new SessionDto("ba", "t1", b.id, a.id, null, "api"));
        assertEquals(Set.of(), view.idleSessions(hosts, declared), "no monitor heard from: nothing is idle");
        // records of an earlier run with the same addresses (the compacted topic keeps them): not these sessions'
        long earlier = now[0] - 60_000;
        view.apply("sessions", a.ip + ">" + c.ip, sent(a, c, "inactive", earlier));
        view.apply("sessions", a.ip + ">" + b.ip, sent(a, b, "active", earlier));
        view.apply("sessions", a.ip + ">" + b.ip, null); // a restarted monitor timing the earlier run's session out
        assertEquals(Set.of(), view.idleSessions(hosts, declared), "sent only before they were declared: not idle");
        now[0] += 1000;
        view.apply("sessions", a.ip + ">" + b.ip, sent(a, b, "active", now[0]));
        view.apply("sessions", b.ip + ">" + a.ip, sent(b, a, "active", now[0]));
        view.apply("sessions", b.ip + ">" + a.ip, sent(b, a, "inactive", now[0] + 500));
        assertEquals(Set.of("ba"), view.idleSessions(hosts, declared), "sent, then inactive: idle; never seen (ac): not idle");
        now[0] += MonitorView.LIVE_MS + 1;
        assertEquals(Set.of("ba"), view.idleSessions(hosts, declared), "the view went quiet: only what it says is inactive");
        view.apply("sessions", b.ip + ">" + a.ip, sent(b, a, "active", now[0]));
        view.apply("sessions", a.ip + ">" + b.ip, null);
        assertEquals(Set.of("ab"), view.idleSessions(hosts, declared), "removed after its liveness timeout: idle");

        // the sender's shim report names the session (its source is the server's address, not the VM's): it decides
        ObjectNode report = (ObjectNode) sent(c, b, "inactive", earlier);
        report.put("session", "ba");
        view.apply("sessions", c.ip + ">" + b.ip, report);
        assertEquals(Set.of("ab"), view.idleSessions(hosts, declared), "a report never active here (an earlier run's s-id): not used");
        report = (ObjectNode) sent(c, b, "active", now[0]);
        report.put("session", "ba");
        view.apply("sessions", c.ip + ">" + b.ip, report);
        report = (ObjectNode) sent(c, b, "inactive", now[0]);
        report.put("session", "ba");
        view.apply("sessions", c.ip + ">" + b.ip, report);
        assertEquals(Set.of("ab", "ba"), view.idleSessions(hosts, declared), "the pair's traffic record is stale, the report is not");
        report = (ObjectNode) sent(c, a, "active", now[0]);
        report.put("session", "ab");
        view.apply("sessions", c.ip + ">" + a.ip, report);
        assertEquals(Set.of("ba"), view.idleSessions(hosts, declared), "reported active: not idle");

        // declared again (deleted, then created with the same id): what it sent before does not count
        assertEquals(Set.of(), view.idleSessions(hosts, List.of()));
        now[0] += 1000;
        assertEquals(Set.of(), view.idleSessions(hosts, declared), "re-declared, not sent since: not idle");
    }

    /** A record of the monitor's sessions topic that last saw its pair send at {@code atMs}. */
    private static JsonNode sent(HostDto src, HostDto dst, String state, long atMs) {
        ObjectNode s = (ObjectNode) session(src, dst, state);
        s.put("last_traffic_ms", atMs);
        if (state.equals("active")) {
            s.put("since_ms", atMs);
        }
        return s;
    }

    private static JsonNode session(HostDto src, HostDto dst, String state) {
        ObjectNode s = JSON.createObjectNode();
        s.put("schema", 1).put("src", src.ip).put("dst", dst.ip).put("state", state);
        return s;
    }

    @Test
    void tenantsCarryTheMonitorsMeasuredRatesOnceItReportedThem() {
        MonitorView view = new MonitorView();
        ObjectNode t = JSON.createObjectNode();
        t.put("schema", 1).put("tenant", "t1").put("achieved_bps", 26806400.0).put("allocated_bps", 40000000);
        view.apply("tenants", "t1", t);
        List<ObjectNode> out = MonitorRoutes.withRates(List.of(new TenantDto("t1", "T1", 1, null),
                new TenantDto("t2", "T2", 2, null)), view);
        assertEquals(26806400.0, out.get(0).get("achievedBps").asDouble());
        assertEquals(40000000.0, out.get(0).get("allocatedBps").asDouble());
        assertTrue(out.get(1).get("achievedBps").isNull());
        assertEquals("T2", out.get(1).get("name").asText());
    }

    @Test
    void thePortStatsPeriodIsConfigurableAndCheckedAsBadInput() {
        assertEquals(1000, ControllerMonitor.periodMs(Map.of()));
        assertEquals(250, ControllerMonitor.periodMs(Map.of(ControllerMonitor.PERIOD_ENV, "250")));
        for (String bad : new String[] {"0", "-5", "1s"}) {
            IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                    () -> ControllerMonitor.periodMs(Map.of(ControllerMonitor.PERIOD_ENV, bad)));
            assertTrue(e.getMessage().contains(ControllerMonitor.PERIOD_ENV));
        }
    }
}
