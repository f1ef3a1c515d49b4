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
import org.fairfabric.api.dto.TenantDto;
import org.fairfabric.api.store.Mutation;
import org.fairfabric.api.store.StoredState;
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
}
