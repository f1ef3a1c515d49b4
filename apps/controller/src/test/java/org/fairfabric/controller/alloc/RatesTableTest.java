package org.fairfabric.controller.alloc;

import static org.fairfabric.controller.alloc.Fixtures.inputs;
import static org.fairfabric.controller.alloc.Fixtures.leafSpine;
import static org.fairfabric.controller.alloc.Fixtures.session;
import static org.fairfabric.controller.alloc.Fixtures.tenant;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.fairfabric.api.json.Json;
import org.fairfabric.controller.netcfg.NetworkConfig;
import org.fairfabric.core.allocator.ExactAllocator;
import org.junit.jupiter.api.Test;

/** Rates tables against the schema of ff.ctl.rates.v1 as docs/kafka.md documents it (and host-shim/ratetable enforces it). */
class RatesTableTest {
    static final Path KAFKA_DOC = Path.of("../../docs/kafka.md");

    static AllocationResult twoSessions(String... shims) throws Exception {
        NetworkConfig cfg = leafSpine(2, 2, 2, 100, shims);
        AllocationModel m = ProblemAdapter.build(inputs(cfg, List.of(tenant("blue", 2, null), tenant("red", 1, null)),
                List.of(session("s1", "blue", "h1", "h3", null), session("s2", "red", "h2", "h4", 30_000_000L)), Set.of()));
        return AllocationResult.of(1, "2026-11-22T00:00:00Z", m, new ExactAllocator(1e-8, 200).solve(m.problem()));
    }

    /** The JSON example and the field names of the table under "## `ff.ctl.rates.v1`" in docs/kafka.md. */
    static String documentedExample() throws Exception {
        String doc = Files.readString(KAFKA_DOC);
        int at = doc.indexOf("## `ff.ctl.rates.v1`");
        int start = doc.indexOf("```json", at) + "```json".length();
        return doc.substring(start, doc.indexOf("```", start));
    }

    static Set<String> documentedFields() throws Exception {
        String doc = Files.readString(KAFKA_DOC);
        int at = doc.indexOf("## `ff.ctl.rates.v1`");
        String section = doc.substring(at, doc.indexOf("\n## ", at + 5));
        Set<String> out = new TreeSet<>();
        Matcher m = Pattern.compile("(?m)^\\| `([a-z_\\[\\].]+)` \\|").matcher(section);
        while (m.find()) {
            out.add(m.group(1));
        }
        return out;
    }

    static Set<String> fieldPaths(JsonNode n, String prefix, Set<String> out) {
        n.fields().forEachRemaining(e -> {
            String name = prefix + e.getKey();
            out.add(name);
            if (e.getValue().isArray() && e.getValue().size() > 0 && e.getValue().get(0).isObject()) {
                fieldPaths(e.getValue().get(0), e.getKey() + "[].", out);
            }
        });
        return out;
    }

    @Test
    void theDocumentedExampleIsValidAndOurTablesUseExactlyTheDocumentedFields() throws Exception {
        RatesTableJson.check("h1", "h1", documentedExample());
        Set<String> documented = documentedFields();
        assertTrue(documented.containsAll(Set.of("schema", "host", "version", "sessions", "sessions[].id", "paths[].rate_bps")), documented.toString());

        Map<String, RatesTable> tables = RatesTable.fromAllocation(twoSessions("h1", "h2"), List.of("h1", "h2"));
        String json = RatesTableJson.write(tables.get("h1").withVersion(7));
        RatesTableJson.check("h1", "h1", json);
        assertEquals(documented, fieldPaths(Json.MAPPER.readTree(json), "", new TreeSet<>()));
    }

    @Test
    void tablesCarryEachSendersSessionsWithIntegerRatesThatAddUpToTheAllocation() throws Exception {
        AllocationResult r = twoSessions("h1", "h2");
        Map<String, RatesTable> tables = RatesTable.fromAllocation(r, List.of("h1", "h2", "h3"));
        assertEquals(Set.of("h1", "h2", "h3"), tables.keySet());
        assertEquals(List.of(), tables.get("h3").sessions()); // a shim host that sends nothing: sessions []
        RatesTable.Entry s1 = tables.get("h1").sessions().get(0);
        assertEquals("s1", s1.id());
        assertEquals("blue", s1.tenant());
        assertEquals("10.0.2.1", s1.dst());
        long sum = 0;
        for (RatesTable.PathRate p : s1.paths()) {
            assertTrue(p.id() >= 1 && p.id() <= 2, "path ids are the fabric's VIDs");
            sum += p.rateBps();
        }
        double total = r.sessions().get(0).totalBps();
        assertTrue(sum <= total && sum > total - 2 - 2 * RatesTable.MIN_RATE_BPS, sum + " vs " + total);
        assertEquals(30_000_000, tables.get("h2").sessions().get(0).paths().stream().mapToLong(RatesTable.PathRate::rateBps).sum(), 2);
        for (RatesTable t : tables.values()) {
            RatesTableJson.check(t.host(), t.host(), RatesTableJson.write(t.withVersion(1)));
        }
    }

    @Test
    void inEcmpModeEverySessionHasOneUntaggedPathAtItsTotal() throws Exception {
        AllocationResult r = twoSessions("h1", "h2");
        Map<String, RatesTable> tables = RatesTable.fromAllocation(r, List.of("h1", "h2"), false);
        for (SessionAllocation s : r.sessions()) {
            RatesTable.Entry e = tables.get(s.session().srcHost).sessions().get(0);
            assertEquals(s.session().id, e.id());
            assertEquals(List.of(new RatesTable.PathRate(0, (long) Math.floor(s.totalBps()))), e.paths());
        }
        for (RatesTable t : tables.values()) {
            RatesTableJson.check(t.host(), t.host(), RatesTableJson.write(t.withVersion(1)));
        }
    }

    @Test
    void pathsBelowTheShimsMinimumAreDroppedOrRaisedToIt() {
        SessionAllocation tiny = new SessionAllocation(session("s9", "t", "h1", "h3", null), 5000,
                List.of(new PathAllocation(1, List.of(), 1000), new PathAllocation(2, List.of(), 4000)));
        assertEquals(List.of(new RatesTable.PathRate(2, 8000)), RatesTable.paths(tiny));
        SessionAllocation mixed = new SessionAllocation(session("s9", "t", "h1", "h3", null), 1e6 + 7999.9,
                List.of(new PathAllocation(1, List.of(), 1e6), new PathAllocation(2, List.of(), 7999.9)));
        assertEquals(List.of(new RatesTable.PathRate(1, 1_000_000)), RatesTable.paths(mixed));
    }

    /** One rule broken per case: the check names it, as the shim would reject the table. */
    @Test
    void everyRuleOfTheSchemaIsChecked() throws Exception {
        String good = RatesTableJson.write(RatesTable.fromAllocation(twoSessions("h1"), List.of("h1")).get("h1").withVersion(3));
        List<Consumer<ObjectNode>> breaks = new ArrayList<>();
        List<String> says = new ArrayList<>();
        breaks.add(t -> t.put("schema", 2)); says.add("schema");
        breaks.add(t -> t.put("host", "h2")); says.add("host");
        breaks.add(t -> t.put("version", 0)); says.add("version");
        breaks.add(t -> t.put("version", -5)); says.add("version");
        breaks.add(t -> t.remove("sessions")); says.add("sessions is required");
        breaks.add(t -> t.put("extra", 1)); says.add("unknown field");
        breaks.add(t -> s(t).put("id", "")); says.add(".id");
        breaks.add(t -> s(t).put("id", "x".repeat(129))); says.add(".id");
        breaks.add(t -> ((ArrayNode) t.get("sessions")).add(s(t).deepCopy())); says.add("twice");
        breaks.add(t -> {
            ObjectNode c = s(t).deepCopy().put("id", "other");
            ((ArrayNode) t.get("sessions")).add(c);
        }); says.add("destination");
        breaks.add(t -> s(t).put("dst", "224.0.0.1")); says.add("unicast");
        breaks.add(t -> s(t).put("dst", "10.0.0.256")); says.add("unicast");
        breaks.add(t -> s(t).put("split", "round-robin")); says.add("split");
        breaks.add(t -> s(t).put("colour", "red")); says.add("unknown field");
        breaks.add(t -> s(t).putArray("paths")); says.add("paths must hold");
        breaks.add(t -> {
            ArrayNode ps = s(t).putArray("paths");
            for (int i = 1; i <= 5; i++) {
                ps.addObject().put("id", i).put("rate_bps", 10_000);
            }
        }); says.add("paths must hold");
        breaks.add(t -> p(t).put("id", 4095)); says.add("0..4094");
        breaks.add(t -> {
            ArrayNode ps = s(t).putArray("paths");
            ps.addObject().put("id", 0).put("rate_bps", 10_000);
            ps.addObject().put("id", 1).put("rate_bps", 10_000);
        }); says.add("single path");
        breaks.add(t -> {
            ArrayNode ps = s(t).putArray("paths");
            ps.addObject().put("id", 1).put("rate_bps", 10_000);
            ps.addObject().put("id", 1).put("rate_bps", 10_000);
        }); says.add("appears twice");
        breaks.add(t -> p(t).put("rate_bps", 7999)); says.add("rate_bps");
        breaks.add(t -> p(t).put("rate_bps", 100_000_000_001L)); says.add("rate_bps");
        breaks.add(t -> p(t).put("rate_bps", 1e6)); says.add("rate_bps");
        breaks.add(t -> p(t).put("mtu", 1500)); says.add("unknown field");
        for (int i = 0; i < breaks.size(); i++) {
            ObjectNode t = (ObjectNode) Json.MAPPER.readTree(good);
            breaks.get(i).accept(t);
            String bad = Json.MAPPER.writeValueAsString(t);
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> RatesTableJson.check("h1", "h1", bad), bad);
            assertTrue(e.getMessage().contains(says.get(i)), "case " + i + ": " + e.getMessage());
        }
        assertThrows(IllegalArgumentException.class, () -> RatesTableJson.check("h1", "h2", good));
        assertThrows(IllegalArgumentException.class, () -> RatesTableJson.check("h1", "h1", "{\"schema\": 1,"));
        RatesTableJson.check("h1", "h1", good);
    }

    static ObjectNode s(ObjectNode t) {
        return (ObjectNode) t.get("sessions").get(0);
    }

    static ObjectNode p(ObjectNode t) {
        return (ObjectNode) s(t).get("paths").get(0);
    }

    @Test
    void thePublisherSendsChangedTablesWithIncreasingVersionsAndNeverAnInvalidOne() throws Exception {
        List<String[]> sent = new ArrayList<>();
        long[] clock = {5000};
        RatesPublisher pub = new RatesPublisher((host, json) -> sent.add(new String[] {host, json}), () -> clock[0]);
        AllocationResult r = twoSessions("h1", "h3");
        pub.publish(r);
        assertEquals(List.of("h1", "h3"), sent.stream().map(x -> x[0]).toList()); // h3 sends nothing: an empty table
        assertEquals(5000, Json.MAPPER.readTree(sent.get(0)[1]).get("version").asLong());
        pub.publish(r);
        assertEquals(2, sent.size(), "unchanged tables are not sent again");

        // same content, new round: nothing; a changed allocation: a higher version even if the clock went back
        clock[0] = 10;
        AllocationModel m = r.model();
        List<SessionAllocation> changed = new ArrayList<>(r.sessions());
        changed.set(0, new SessionAllocation(changed.get(0).session(), 1e7, List.of(new PathAllocation(2, List.of(), 1e7))));
        pub.publish(new AllocationResult(2, "t", changed, 1, 0, m));
        assertEquals(3, sent.size());
        assertEquals("h1", sent.get(2)[0]);
        assertEquals(5001, Json.MAPPER.readTree(sent.get(2)[1]).get("version").asLong());

        // a session id the shim would refuse (over 128 characters): the table is not sent
        changed.set(0, new SessionAllocation(session("x".repeat(129), "blue", "h1", "h3", null), 1e7,
                List.of(new PathAllocation(2, List.of(), 1e7))));
        pub.publish(new AllocationResult(3, "t", changed, 1, 0, m));
        assertEquals(3, sent.size());
        assertEquals(3, pub.published());
    }

    @Test
    void onlyTheTablesOfSendersWhoseSessionsCameWentOrChangedAreBuilt() throws Exception {
        NetworkConfig cfg = leafSpine(2, 2, 2, 100, "h1", "h2", "h3");
        List<org.fairfabric.api.dto.TenantDto> tenants = List.of(tenant("blue", 2, null), tenant("red", 1, null));
        List<org.fairfabric.api.dto.SessionDto> three = List.of(session("s1", "blue", "h1", "h3", null),
                session("s2", "red", "h2", "h4", 30_000_000L), session("s3", "blue", "h3", "h1", null));
        AllocationInputs in = inputs(cfg, tenants, three, Set.of());
        AllocationModel m = ProblemAdapter.build(in);
        AllocationResult exact = AllocationResult.of(1, "t", m, new ExactAllocator(1e-8, 200).solve(m.problem()));
        List<String> sent = new ArrayList<>();
        RatesPublisher pub = new RatesPublisher((host, json) -> sent.add(host), () -> 1);
        pub.publish(exact);
        assertEquals(List.of("h1", "h2", "h3"), sent);

        // an interim allocation with the same rates keeps every session's object: nothing to rebuild
        double[] rates = new double[m.problem().pathCount()];
        SessionAllocation[] previous = new SessionAllocation[3];
        for (int i = 0; i < 3; i++) {
            previous[i] = exact.sessions().get(i);
            for (int j = 0; j < previous[i].paths().size(); j++) {
                rates[m.problem().firstPath(i) + j] = previous[i].paths().get(j).rateBps();
            }
        }
        AllocationResult same = AllocationResult.interim(2, "t", m, rates, previous);
        for (int i = 0; i < 3; i++) {
            assertSame(exact.sessions().get(i), same.sessions().get(i));
        }
        assertEquals(Set.of(), RatesPublisher.changedSenders(exact, same));

        // s2 cut in half: only h2's table is built (and sent)
        int s2 = m.problem().sessionIndex("s2");
        double[] cutRates = rates.clone();
        for (int q = m.problem().firstPath(s2); q < m.problem().endPath(s2); q++) {
            cutRates[q] /= 2;
        }
        AllocationResult cut = AllocationResult.interim(3, "t", m, cutRates, previous);
        assertSame(exact.sessions().get(0), cut.sessions().get(0));
        assertNotSame(exact.sessions().get(s2), cut.sessions().get(s2));
        assertEquals(Set.of("h2"), RatesPublisher.changedSenders(same, cut));
        pub.publish(cut);
        assertEquals(List.of("h1", "h2", "h3", "h2"), sent);

        // s3 leaves: its sender h3 gets a table without it; s1 moves to h2 (same id): h1 and h2
        AllocationInputs left = new AllocationInputs(cfg, tenants, in.hosts(), three.subList(0, 2), Set.of());
        AllocationModel m2 = ProblemAdapter.build(left, in, m);
        AllocationResult departed = AllocationResult.interim(4, "t", m2, java.util.Arrays.copyOf(cutRates, m2.problem().pathCount()),
                new SessionAllocation[] {cut.sessions().get(0), cut.sessions().get(1)});
        assertEquals(Set.of("h3"), RatesPublisher.changedSenders(cut, departed));
        pub.publish(departed);
        assertEquals("h3", sent.get(sent.size() - 1));
        List<SessionAllocation> moved = new ArrayList<>(departed.sessions());
        moved.set(0, new SessionAllocation(session("s1", "blue", "h2", "h3", null), 1e6, moved.get(0).paths()));
        assertEquals(Set.of("h1", "h2"), RatesPublisher.changedSenders(departed, new AllocationResult(5, "t", moved, 0, 0, m2)));
    }
}
