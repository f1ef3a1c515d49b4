package org.fairfabric.controller.alloc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.fairfabric.api.json.Json;
import org.junit.jupiter.api.Test;

/**
 * The publisher checks a rates table itself, not its JSON parsed back: that keeps the guarantee of
 * never sending a table the shim rejects only if {@link RatesTableJson#write} always gives the JSON
 * of exactly that table, and the table check and the JSON check agree on every table.
 */
class RatesTableJsonTest {
    private static final String[] IDS = {"s1", "s2", "", "x".repeat(128), "x".repeat(129), "q\"uo\\te", "tab\tnew\nline", "é✓", null};
    private static final String[] TENANTS = {"blue", "", "\"red\"", "\u0001", null};
    private static final String[] DSTS = {"10.0.0.1", "10.0.0.2", "192.168.7.200", "223.255.255.254", "224.0.0.1", "0.0.0.0",
        "255.255.255.255", "10.0.0.256", "10.0.0", "01.0.0.1", "", null};
    private static final String[] SPLITS = {"packet", "flow", "", "round-robin", null};
    private static final int[] PATH_IDS = {1, 2, 3, 4094, 0, 4095, -1};
    private static final long[] RATES = {8000, 1_000_000, 100_000_000_000L, 7999, 100_000_000_001L, -8000, Long.MAX_VALUE, Long.MIN_VALUE};
    private static final long[] VERSIONS = {1, 1_795_814_075_824L, Long.MAX_VALUE, 0, -1, Long.MIN_VALUE};

    @Test
    void theTableCheckAndTheJsonCheckGiveTheSameVerdictOnEveryTable() {
        Random random = new Random(16);
        int accepted = 0;
        for (int n = 0; n < 20_000; n++) {
            RatesTable t = randomTable(random);
            String json = RatesTableJson.write(t);
            String byTable = verdict(() -> RatesTableJson.check("h1", t));
            String byJson = verdict(() -> RatesTableJson.check("h1", "h1", json));
            assertEquals(byJson, byTable, json);
            if (byTable == null) {
                accepted++;
                assertEquals(t, parse(json), json);
            }
        }
        assertTrue(accepted > 1000 && accepted < 19_000, "both verdicts are exercised: " + accepted + " accepted");
    }

    @Test
    void aTableWithTooManySessionsOrAnotherHostIsRefusedByBoth() {
        List<RatesTable.Entry> many = new ArrayList<>();
        for (int i = 0; i <= RatesTable.MAX_SESSIONS; i++) {
            many.add(new RatesTable.Entry("s" + i, "t", "10.0." + (i / 250) + "." + (1 + i % 250), "packet",
                    List.of(new RatesTable.PathRate(1, 8000))));
        }
        RatesTable big = new RatesTable("h1", 1, many);
        assertEquals(verdict(() -> RatesTableJson.check("h1", "h1", RatesTableJson.write(big))), verdict(() -> RatesTableJson.check("h1", big)));
        assertTrue(verdict(() -> RatesTableJson.check("h1", big)).contains("exceed"));
        RatesTable other = new RatesTable("h2", 1, List.of());
        assertEquals(verdict(() -> RatesTableJson.check("h1", "h1", RatesTableJson.write(other))), verdict(() -> RatesTableJson.check("h1", other)));
        RatesTable.Entry ok = many.get(0);
        assertEquals(null, verdict(() -> RatesTableJson.check("h1", new RatesTable("h1", 1, List.of(ok)))));
    }

    private static RatesTable randomTable(Random r) {
        List<RatesTable.Entry> sessions = new ArrayList<>();
        int count = r.nextInt(4);
        for (int i = 0; i < count; i++) {
            boolean valid = r.nextInt(3) > 0; // mostly valid fields, so that whole tables pass too
            String id = valid ? "s" + i : pick(r, IDS);
            String tenant = valid ? "blue" : pick(r, TENANTS);
            String dst = valid ? "10.0.1." + (1 + i) : pick(r, DSTS);
            String split = valid ? "packet" : pick(r, SPLITS);
            List<RatesTable.PathRate> paths = new ArrayList<>();
            int pathCount = valid ? 1 + r.nextInt(RatesTable.MAX_PATHS) : r.nextInt(RatesTable.MAX_PATHS + 2);
            for (int j = 0; j < pathCount; j++) {
                int pathId = valid ? 1 + j : PATH_IDS[r.nextInt(PATH_IDS.length)];
                long rate = valid ? 8000 + r.nextInt(1_000_000) : RATES[r.nextInt(RATES.length)];
                paths.add(new RatesTable.PathRate(pathId, rate));
            }
            sessions.add(new RatesTable.Entry(id, tenant, dst, split, paths));
        }
        long version = r.nextInt(4) > 0 ? VERSIONS[r.nextInt(3)] : VERSIONS[r.nextInt(VERSIONS.length)];
        return new RatesTable("h1", version, sessions);
    }

    private static String pick(Random r, String[] values) {
        return values[r.nextInt(values.length)];
    }

    /** The table the JSON holds (of a table both checks accept). */
    private static RatesTable parse(String json) {
        JsonNode t = Json.parse(json);
        List<RatesTable.Entry> sessions = new ArrayList<>();
        for (JsonNode s : t.get("sessions")) {
            List<RatesTable.PathRate> paths = new ArrayList<>();
            for (JsonNode p : s.get("paths")) {
                paths.add(new RatesTable.PathRate(p.get("id").intValue(), p.get("rate_bps").longValue()));
            }
            sessions.add(new RatesTable.Entry(s.get("id").textValue(), s.get("tenant").textValue(), s.get("dst").textValue(),
                    s.get("split").textValue(), paths));
        }
        return new RatesTable(t.get("host").textValue(), t.get("version").longValue(), sessions);
    }

    /** The message of the check's IllegalArgumentException, null when it passes. */
    private static String verdict(Runnable check) {
        try {
            check.run();
            return null;
        } catch (IllegalArgumentException e) {
            return e.getMessage();
        }
    }
}
