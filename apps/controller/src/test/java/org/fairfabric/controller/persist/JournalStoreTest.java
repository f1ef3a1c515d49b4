package org.fairfabric.controller.persist;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.fairfabric.api.dto.HostDto;
import org.fairfabric.api.dto.LocationDto;
import org.fairfabric.api.dto.SessionDto;
import org.fairfabric.api.dto.TenantDto;
import org.fairfabric.api.store.Mutation;
import org.fairfabric.api.store.StoredState;
import org.fairfabric.api.service.EventLog;
import org.fairfabric.api.service.FabricService;
import org.fairfabric.api.json.SessionJson;
import org.fairfabric.api.json.Json;
import org.fairfabric.controller.netcfg.NetworkConfigParser;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JournalStoreTest {
    @TempDir
    Path dir;

    static final TenantDto BLUE = new TenantDto("blue", "Blue team", 2.5, 1_000_000L);
    static final TenantDto RED = new TenantDto("red", "red", 1, null);
    static final HostDto H1 = new HostDto("h1", "blue", "10.0.0.1", "00:00:00:00:00:01", new LocationDto("device:leaf1", 1));

    StoredState writeSome() {
        try (JournalStore s = JournalStore.open(dir)) {
            s.append(new Mutation.PutNetworkConfig("{\"devices\":{}}\n"));
            s.append(new Mutation.PutTenant(BLUE));
            s.append(new Mutation.PutTenant(RED));
            s.append(new Mutation.PutHost(H1));
            s.append(new Mutation.DeleteTenant("red"));
            return s.load();
        }
    }

    @Test
    void replaysWhatWasAppended() {
        StoredState written = writeSome();
        try (JournalStore s = JournalStore.open(dir)) {
            assertEquals(written, s.load());
            assertEquals(BLUE, s.load().tenants().get("blue"));
            assertEquals(H1, s.load().hosts().get("h1"));
            assertEquals("{\"devices\":{}}\n", s.load().networkConfig().orElseThrow());
            assertEquals(5, s.records());
        }
    }

    @Test
    void aTornLastRecordIsCutOffAndWritingGoesOn() throws Exception {
        StoredState written = writeSome();
        Path file = dir.resolve(JournalStore.FILE);
        Files.write(file, "0badc0de {\"op\":\"put-ten".getBytes(StandardCharsets.UTF_8), StandardOpenOption.APPEND);
        try (JournalStore s = JournalStore.open(dir)) {
            assertEquals(written, s.load());
            s.append(new Mutation.PutTenant(RED));
        }
        try (JournalStore s = JournalStore.open(dir)) {
            assertEquals(RED, s.load().tenants().get("red"));
            assertEquals(6, s.records());
        }
    }

    @Test
    void aDamagedRecordInsideTheJournalIsRefused() throws Exception {
        writeSome();
        Path file = dir.resolve(JournalStore.FILE);
        String text = Files.readString(file).replace("Blue team", "Blue teem");
        Files.writeString(file, text);
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> JournalStore.open(dir));
        assertTrue(e.getMessage().contains("damaged record"), e.getMessage());
    }

    @Test
    void compactionKeepsTheState() {
        StoredState written = writeSome();
        try (JournalStore s = JournalStore.open(dir)) {
            s.compact();
            assertEquals(3, s.records());
            s.append(new Mutation.DeleteHost("h1"));
        }
        try (JournalStore s = JournalStore.open(dir)) {
            assertEquals(written.tenants(), s.load().tenants());
            assertEquals(0, s.load().hosts().size());
            assertEquals(4, s.records());
        }
    }

    @Test
    void aJournalOfManyUpdatesCompactsItselfAndKeepsTheLatestState() {
        try (JournalStore s = JournalStore.open(dir)) {
            for (int i = 1; i <= 2500; i++) {
                s.append(new Mutation.PutTenant(new TenantDto("blue", "blue", i, null)));
            }
            assertTrue(s.records() < 1000, "records: " + s.records());
        }
        try (JournalStore s = JournalStore.open(dir)) {
            assertEquals(2500.0, s.load().tenants().get("blue").weight);
        }
    }

    @Test
    void oneControllerPerDataDirectory() {
        try (JournalStore s = JournalStore.open(dir)) {
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> JournalStore.open(dir));
            assertTrue(e.getMessage().contains("in use"), e.getMessage());
        }
    }

    // ---- declared sessions

    static final HostDto H2 = new HostDto("h2", "blue", "10.0.0.2", "00:00:00:00:00:02", new LocationDto("device:leaf1", 2));
    static final HostDto H3 = new HostDto("h3", "blue", "10.0.0.3", "00:00:00:00:00:03", new LocationDto("device:leaf2", 1));
    static final SessionDto S1 = new SessionDto("s1", "blue", "h1", "h2", 5_000_000L, SessionDto.DECLARED);
    static final SessionDto S2 = new SessionDto("s2", "blue", "h2", "h3", null, SessionDto.DECLARED, 0.25);

    StoredState writeSessions() {
        try (JournalStore s = JournalStore.open(dir)) {
            s.append(new Mutation.PutTenant(BLUE));
            s.append(new Mutation.PutHost(H1));
            s.append(new Mutation.PutHost(H2));
            s.append(new Mutation.PutHost(H3));
            s.append(new Mutation.PutSession(S1));
            s.append(new Mutation.PutSession(S2.withWeight(null)));
            s.append(new Mutation.PutSession(S2));
            return s.load();
        }
    }

    @Test
    void declaredSessionsComeBackFromTheJournalInOrderWithTheirLatestWeight() {
        StoredState written = writeSessions();
        try (JournalStore s = JournalStore.open(dir)) {
            assertEquals(written, s.load());
            assertEquals(java.util.List.of(S1, S2), java.util.List.copyOf(s.load().sessions().values()));
            assertEquals(7, s.records());
        }
    }

    @Test
    void deletingASessionIsDurable() {
        writeSessions();
        try (JournalStore s = JournalStore.open(dir)) {
            s.append(new Mutation.DeleteSession("s1"));
        }
        try (JournalStore s = JournalStore.open(dir)) {
            assertEquals(java.util.List.of("s2"), java.util.List.copyOf(s.load().sessions().keySet()));
            assertEquals(3, s.load().hosts().size());
        }
    }

    @Test
    void deletingAHostOrATenantDeletesItsSessionsDurably() {
        writeSessions();
        try (JournalStore s = JournalStore.open(dir)) {
            s.append(new Mutation.DeleteHost("h1"));
            assertEquals(java.util.List.of("s2"), java.util.List.copyOf(s.load().sessions().keySet()));
        }
        try (JournalStore s = JournalStore.open(dir)) {
            assertEquals(java.util.List.of("s2"), java.util.List.copyOf(s.load().sessions().keySet()));
            s.append(new Mutation.DeleteTenant("blue"));
        }
        try (JournalStore s = JournalStore.open(dir)) {
            assertEquals(0, s.load().tenants().size() + s.load().hosts().size() + s.load().sessions().size());
            assertEquals(2, s.load().sessionNumbersUsed(), "ids once used stay used");
        }
    }

    @Test
    void aTornSessionRecordIsCutOff() throws Exception {
        StoredState written = writeSessions();
        Path file = dir.resolve(JournalStore.FILE);
        String whole = Files.readString(file);
        String last = whole.substring(whole.lastIndexOf('\n', whole.length() - 2) + 1);
        // the process died while writing a delete-session: half of it reached the disk
        Files.writeString(file, whole.substring(0, whole.length() - last.length()));
        try (JournalStore s = JournalStore.open(dir)) {
            s.append(new Mutation.DeleteSession("s1"));
        }
        byte[] full = Files.readAllBytes(file);
        Files.write(file, java.util.Arrays.copyOf(full, full.length - 7));
        try (JournalStore s = JournalStore.open(dir)) {
            assertEquals(java.util.List.of(S1, S2.withWeight(null)), java.util.List.copyOf(s.load().sessions().values()));
            assertEquals(6, s.records());
            s.append(new Mutation.PutSession(S2));
        }
        try (JournalStore s = JournalStore.open(dir)) {
            assertEquals(written, s.load());
        }
    }

    @Test
    void aGarbledSessionRecordBeforeTheEndIsRefusedAndAGarbledLastOneCutOff() throws Exception {
        writeSessions();
        Path file = dir.resolve(JournalStore.FILE);
        String whole = Files.readString(file);
        Files.writeString(file, whole.replaceFirst("\"h1\",\"dstHost\"", "\"h9\",\"dstHost\""));
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> JournalStore.open(dir));
        assertTrue(e.getMessage().contains("damaged record"), e.getMessage());

        // the same damage in the last line: a write that was never acknowledged (no newline made it)
        String[] lines = whole.split("\n");
        String lastGarbled = lines[lines.length - 1].replace("0.25", "0.75");
        Files.writeString(file, String.join("\n", java.util.Arrays.copyOf(lines, lines.length - 1)) + "\n" + lastGarbled);
        try (JournalStore s = JournalStore.open(dir)) {
            assertEquals(S2.withWeight(null), s.load().sessions().get("s2"));
        }
    }

    @Test
    void compactionKeepsTheSessions() {
        StoredState written = writeSessions();
        try (JournalStore s = JournalStore.open(dir)) {
            s.compact();
            assertEquals(7, s.records()); // tenant, 3 hosts, 2 sessions, the session numbers used
            assertEquals(2, s.load().sessionNumbersUsed());
        }
        try (JournalStore s = JournalStore.open(dir)) {
            assertEquals(written, s.load());
        }
    }

    @Test
    void aStoredSessionMustReadBackUnderTheRequestRules() {
        String json = Json.write(SessionJson.storedTree(S2));
        assertEquals(S2, SessionJson.stored(Json.parse(json)));
        assertThrows(RuntimeException.class, () -> SessionJson.stored(Json.parse(json.replace("0.25", "-1"))));
        assertThrows(RuntimeException.class, () -> SessionJson.stored(Json.parse(json.replace("\"source\"", "\"sauce\""))));
    }

    @Test
    void aRestartedServiceHasTheDeclaredSessionsButNotTheDetectedOnesAndNumbersOnFromTheHighest() throws Exception {
        NetworkConfigParser netcfg = new NetworkConfigParser();
        try (JournalStore s = JournalStore.open(dir)) {
            FabricService fabric = new FabricService(s, netcfg, new EventLog(java.time.Clock.systemUTC(), 10));
            fabric.putNetworkConfig(Files.readString(Path.of("../../docs/examples/netcfg-fattree-k4.json")));
            fabric.createTenant(BLUE);
            fabric.addHost(onEdge(H1, "device:edge00", 1));
            fabric.addHost(onEdge(H2, "device:edge00", 2));
            fabric.addHost(onEdge(H3, "device:edge01", 1));
            String a = fabric.declareSession(SessionJson.create(Json.parse("{\"srcHost\":\"h1\",\"dstHost\":\"h2\"}"))).id;
            String b = fabric.declareSession(SessionJson.create(Json.parse("{\"srcHost\":\"h2\",\"dstHost\":\"h1\"}"))).id;
            fabric.detectSession("h1", "h3");
            fabric.setSessionWeight(b, 3.0);
            String c = fabric.declareSession(SessionJson.create(Json.parse("{\"srcHost\":\"h3\",\"dstHost\":\"h1\"}"))).id;
            fabric.removeSession(a);
            assertEquals(java.util.List.of("s2", "s3", "s4"), ids(fabric));
            assertEquals("s4", c);
        }
        try (JournalStore s = JournalStore.open(dir)) {
            FabricService fabric = new FabricService(s, netcfg, new EventLog(java.time.Clock.systemUTC(), 10));
            assertEquals(java.util.List.of("s2", "s4"), ids(fabric));
            assertEquals(3.0, fabric.session("s2").weight);
            assertEquals(SessionDto.DECLARED, fabric.session("s4").source);
            assertEquals("s5", fabric.declareSession(SessionJson.create(Json.parse("{\"srcHost\":\"h1\",\"dstHost\":\"h2\"}"))).id);
            fabric.removeHost("blue", "h2");
            assertEquals(java.util.List.of("s4"), ids(fabric));
        }
        try (JournalStore s = JournalStore.open(dir)) {
            assertEquals(java.util.List.of("s4"), java.util.List.copyOf(s.load().sessions().keySet()));
        }
    }

    private static HostDto onEdge(HostDto h, String device, int port) {
        return new HostDto(h.id, h.tenantId, h.ip.replace("10.0.0.", "10.200.0."), h.mac, new LocationDto(device, port));
    }

    private static java.util.List<String> ids(FabricService fabric) {
        java.util.List<String> out = new java.util.ArrayList<>();
        fabric.sessions().forEach(x -> out.add(x.id));
        return out;
    }
}
