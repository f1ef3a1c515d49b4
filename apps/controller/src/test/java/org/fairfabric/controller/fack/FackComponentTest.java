package org.fairfabric.controller.fack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.fairfabric.api.dto.HostDto;
import org.fairfabric.api.dto.LocationDto;
import org.fairfabric.api.dto.SessionDto;
import org.fairfabric.api.dto.TenantDto;
import org.fairfabric.controller.ControllerSettings;
import org.fairfabric.controller.alloc.AllocationInputs;
import org.fairfabric.controller.alloc.AllocationModel;
import org.fairfabric.controller.alloc.AllocationResult;
import org.fairfabric.controller.alloc.ProblemAdapter;
import org.fairfabric.controller.component.ControlBus;
import org.fairfabric.controller.component.ControlEvent;
import org.fairfabric.controller.netcfg.FabricConfigs;
import org.fairfabric.controller.netcfg.NetworkConfig;
import org.fairfabric.controller.netcfg.NetworkConfigParser;
import org.fairfabric.controller.p4rt.P4InfoIndex;
import org.fairfabric.core.allocator.ExactAllocator;
import org.fairfabric.core.platform.DeviceProgramming;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import p4.config.v1.P4InfoOuterClass.P4Info;
import p4.v1.P4RuntimeOuterClass.DirectMeterEntry;
import p4.v1.P4RuntimeOuterClass.Entity;
import p4.v1.P4RuntimeOuterClass.FieldMatch;
import p4.v1.P4RuntimeOuterClass.TableEntry;

/** FACK's entries from an allocation, against the fabric pipeline's real P4Info (docs/pipeline.md "P4TE FACK"). */
class FackComponentTest {
    static P4Info info;
    static P4InfoIndex p4;

    @BeforeAll
    static void p4info() throws Exception {
        info = P4InfoIndex.parseText(Files.readString(Path.of("../../pipeconfs/p4/p4info.txt")));
        p4 = new P4InfoIndex(info);
    }

    /** 2 leaves x 2 spines x 2 hosts at 100 Mbit/s; tenant t: h1 -> h3 and h2 -> h3 share h3's link (50 Mbit/s each). */
    static AllocationResult allocation() throws Exception {
        NetworkConfig cfg = new NetworkConfigParser().parse(FabricConfigs.leafSpine(2, 2, 2, "127.0.0.1", 50001, 100));
        List<HostDto> hosts = new ArrayList<>();
        for (String h : List.of("h1", "h2", "h3")) {
            NetworkConfig.Host c = cfg.hosts.stream().filter(x -> x.name.equals(h)).findFirst().orElseThrow();
            hosts.add(new HostDto(h, "t", c.ips.get(0), c.mac, new LocationDto(c.location.device, c.location.port)));
        }
        AllocationModel m = ProblemAdapter.build(new AllocationInputs(cfg, List.of(new TenantDto("t", "T", 1, null)), hosts,
                List.of(new SessionDto("s1", "t", "h1", "h3", null, "api"), new SessionDto("s2", "t", "h2", "h3", null, "api")),
                Set.of()));
        return AllocationResult.of(1, "t", m, new ExactAllocator(1e-9, 200).solve(m.problem()));
    }

    /** Records the last slice written per device. */
    static final class Recorder implements DeviceProgramming<Entity, Object> {
        final Map<String, List<Entity>> slices = new HashMap<>();

        @Override
        public synchronized CompletionStage<Object> setSlice(String slice, String deviceId, List<Entity> entities) {
            assertEquals(FackComponent.SLICE, slice);
            slices.put(deviceId, List.copyOf(entities));
            return CompletableFuture.completedFuture(null);
        }
    }

    String tableName(int id) {
        return info.getTablesList().stream().filter(t -> t.getPreamble().getId() == id).findFirst().orElseThrow()
                .getPreamble().getName();
    }

    String fieldName(TableEntry t, FieldMatch m) {
        return info.getTablesList().stream().filter(x -> x.getPreamble().getId() == t.getTableId()).findFirst().orElseThrow()
                .getMatchFieldsList().stream().filter(f -> f.getId() == m.getFieldId()).findFirst().orElseThrow().getName();
    }

    long value(TableEntry t, String field) {
        for (FieldMatch m : t.getMatchList()) {
            if (fieldName(t, m).equals(field)) {
                return new java.math.BigInteger(1, m.getExact().getValue().toByteArray()).longValue();
            }
        }
        throw new AssertionError("no field " + field + " in " + t);
    }

    /** "table(field=value,...)" of a table entry, or "meter table(...) cir/cburst/pir/pburst" of a direct meter. */
    String describe(Entity e) {
        if (e.hasPacketReplicationEngineEntry()) {
            var c = e.getPacketReplicationEngineEntry().getCloneSessionEntry();
            return "clone " + c.getSessionId() + "->" + c.getReplicas(0).getEgressPort();
        }
        TableEntry t = e.hasDirectMeterEntry() ? e.getDirectMeterEntry().getTableEntry() : e.getTableEntry();
        List<String> fields = new ArrayList<>();
        for (FieldMatch m : t.getMatchList()) {
            fields.add(fieldName(t, m).replaceAll(".*\\.", "") + "=" + value(t, fieldName(t, m)));
        }
        String name = tableName(t.getTableId()).replaceAll(".*\\.", "") + "(" + String.join(",", fields) + ")";
        if (e.hasDirectMeterEntry()) {
            DirectMeterEntry d = e.getDirectMeterEntry();
            return "meter " + name + " " + d.getConfig().getCir() + "/" + d.getConfig().getCburst() + "/" + d.getConfig().getPir()
                    + "/" + d.getConfig().getPburst();
        }
        if (t.getAction().getAction().getParamsCount() > 0) {
            name += " " + new java.math.BigInteger(1, t.getAction().getAction().getParams(0).getValue().toByteArray());
        }
        return name;
    }

    List<String> described(List<Entity> es) {
        List<String> out = new ArrayList<>();
        es.forEach(e -> out.add(describe(e)));
        return out;
    }

    @Test
    void allocationProgramsEveryLeafsFackTablesAndMeters() throws Exception {
        Recorder devices = new Recorder();
        try (ControlBus bus = new ControlBus()) {
            bus.register(new FackComponent(p4, devices, FackSettings.parse("0,10", "6000")));
            bus.post(new ControlEvent.Allocated(allocation()));
            bus.sync();
        }
        assertEquals(Set.of("device:leaf1", "device:leaf2"), devices.slices.keySet());
        // 50 Mbit/s each from h1 (leaf1 port 1) and h2 (port 2): 6,250,000 bytes/s, burst 10 ms.
        // Uplinks 3 and 4 at 100 Mbit/s: CIR 70 % = 8,750,000 B/s, PIR 90 % = 11,250,000 B/s.
        assertEquals(List.of(
                "fack_classes(dscp=0) 6000", "fack_classes(dscp=10) 6000",
                "clone 1025->1",
                "class_safe_rate(ingress_port=1,dscp=0)", "meter class_safe_rate(ingress_port=1,dscp=0) 6250000/62500/6250000/62500",
                "class_safe_rate(ingress_port=1,dscp=10)", "meter class_safe_rate(ingress_port=1,dscp=10) 6250000/62500/6250000/62500",
                "clone 1026->2",
                "class_safe_rate(ingress_port=2,dscp=0)", "meter class_safe_rate(ingress_port=2,dscp=0) 6250000/62500/6250000/62500",
                "class_safe_rate(ingress_port=2,dscp=10)", "meter class_safe_rate(ingress_port=2,dscp=10) 6250000/62500/6250000/62500",
                "link_util(egress_port=3)", "meter link_util(egress_port=3) 8750000/87500/11250000/112500",
                "link_util(egress_port=4)", "meter link_util(egress_port=4) 8750000/87500/11250000/112500"),
                described(devices.slices.get("device:leaf1")));
        // leaf2's host h3 only receives: no safe rate, so its traffic is GREEN and never gets a FACK.
        List<String> leaf2 = described(devices.slices.get("device:leaf2"));
        assertTrue(leaf2.contains("clone 1025->1"), leaf2.toString());
        assertFalse(leaf2.stream().anyMatch(s -> s.contains("class_safe_rate")), leaf2.toString());
        assertTrue(leaf2.contains("link_util(egress_port=3)"), leaf2.toString());
    }

    @Test
    void everyEntryFitsTheP4Info() throws Exception {
        Recorder devices = new Recorder();
        try (ControlBus bus = new ControlBus()) {
            bus.register(new FackComponent(p4, devices, FackSettings.parse("63", null)));
            bus.post(new ControlEvent.Allocated(allocation()));
            bus.sync();
        }
        for (Entity e : devices.slices.get("device:leaf1")) {
            TableEntry t = e.hasDirectMeterEntry() ? e.getDirectMeterEntry().getTableEntry() : e.getTableEntry();
            if (e.hasPacketReplicationEngineEntry()) {
                continue;
            }
            var table = info.getTablesList().stream().filter(x -> x.getPreamble().getId() == t.getTableId()).findFirst().orElseThrow();
            assertEquals(table.getMatchFieldsCount(), t.getMatchCount(), table.getPreamble().getName());
            for (FieldMatch m : t.getMatchList()) {
                var f = table.getMatchFieldsList().stream().filter(x -> x.getId() == m.getFieldId()).findFirst().orElseThrow();
                assertTrue(new java.math.BigInteger(1, m.getExact().getValue().toByteArray()).bitLength() <= f.getBitwidth(), f.getName());
            }
            if (e.hasDirectMeterEntry()) {
                assertFalse(t.hasAction(), "a direct meter entry names its table entry by match only");
                assertTrue(table.getDirectResourceIdsList().stream().anyMatch(id -> info.getDirectMetersList().stream()
                        .anyMatch(dm -> dm.getPreamble().getId() == id)), table.getPreamble().getName() + " has a direct meter");
            } else {
                assertTrue(table.getActionRefsList().stream().anyMatch(a -> a.getId() == t.getAction().getAction().getActionId()));
            }
        }
        assertTrue(described(devices.slices.get("device:leaf1")).contains("fack_classes(dscp=63) " + FackSettings.DEFAULT_MIN_BYTES));
    }

    @Test
    void aNewFleetGetsTheLastEntriesAgain() throws Exception {
        Recorder devices = new Recorder();
        try (ControlBus bus = new ControlBus()) {
            bus.register(new FackComponent(p4, devices, FackSettings.parse("0", null)));
            AllocationResult r = allocation();
            bus.post(new ControlEvent.Allocated(r));
            bus.sync();
            List<Entity> before = devices.slices.get("device:leaf1");
            devices.slices.clear();
            bus.post(new ControlEvent.TopologyChanged(r.model().topology(), true));
            bus.sync();
            assertEquals(before, devices.slices.get("device:leaf1"));
        }
    }

    @Test
    void offByDefaultAndBadFlagsAreRefused() throws Exception {
        assertFalse(FackSettings.parse(null, null).enabled());
        assertEquals(FackSettings.OFF.toString(), "FACK off");
        assertThrows(IllegalArgumentException.class, () -> new FackComponent(p4, new Recorder(), FackSettings.OFF));
        for (String[] bad : new String[][] {{"64", null}, {"-1", null}, {"", null}, {"0,,1", null}, {"x", null},
                {"0", "0"}, {"0", "many"}, {"0", "4294967296"}, {null, "5000"}}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> FackSettings.parse(bad[0], bad[1]));
            assertTrue(e.getMessage().contains("--fack-"), e.getMessage());
        }
        Path dir = Files.createTempDirectory("fack-settings");
        Map<String, String> env = Map.of("FF_API_TOKEN", "secret");
        assertFalse(ControllerSettings.parse(new String[] {"--data-dir", dir.toString()}, env).fack.enabled());
        ControllerSettings on = ControllerSettings.parse(new String[] {"--data-dir", dir.toString(), "--fack-dscp", "10,0",
                "--fack-min-bytes", "3000"}, env);
        assertEquals(Set.of(0, 10), on.fack.dscps());
        assertEquals(3000, on.fack.minBytesBetween());
        assertEquals(Set.of(0, 10), on.withPipeline(Path.of("p4info.txt"), Path.of("fabric.json")).fack.dscps());
        assertThrows(IllegalArgumentException.class, () -> ControllerSettings.parse(new String[] {"--data-dir", dir.toString(),
                "--fack-dscp", "99"}, env));
    }
}
