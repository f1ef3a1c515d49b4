package org.fairfabric.controller.p4rt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import p4.config.v1.P4InfoOuterClass.P4Info;
import p4.v1.P4RuntimeOuterClass.Action;
import p4.v1.P4RuntimeOuterClass.Entity;
import p4.v1.P4RuntimeOuterClass.FieldMatch;
import p4.v1.P4RuntimeOuterClass.TableAction;
import p4.v1.P4RuntimeOuterClass.TableEntry;
import p4.v1.P4RuntimeOuterClass.Update;

/**
 * The device agent against the real switch binary: p4switch runs the l3router test program.
 * The binary is $FF_P4SWITCH or bin/p4switch (built by ./fairfabric setup); the sources are looked
 * up under $FF_P4SWITCH_ROOT or the repository root. Skipped only in a tree that has no p4switch
 * 'run' command yet; a tree that has it but no binary fails.
 */
class P4SwitchAgentTest {
    static final Path ROOT = Path.of(System.getenv().getOrDefault("FF_P4SWITCH_ROOT", "../..")).toAbsolutePath().normalize();
    static final Path PROGRAM = ROOT.resolve("p4switch/testdata/l3router/l3router.p4");

    @TempDir
    Path tmp;

    static Path binary() {
        Assumptions.assumeTrue(Files.exists(ROOT.resolve("p4switch/cmd/p4switch/run.go")) && Files.exists(PROGRAM),
                "this tree has no p4switch 'run' command and l3router program yet");
        Path bin = Path.of(System.getenv().getOrDefault("FF_P4SWITCH", ROOT.resolve("bin/p4switch").toString()));
        assertTrue(Files.isExecutable(bin), bin + " is missing: run ./fairfabric setup (or go build -o bin/p4switch ./p4switch/cmd/p4switch)");
        return bin;
    }

    @Test
    void programsTheRealSwitchAndReconcilesItAfterKill9() throws Exception {
        Path bin = binary();
        P4Info p4info = P4InfoIndex.parseText(P4SwitchProcess.tool(bin, "p4info", PROGRAM.toString()));
        Path bundle = tmp.resolve("l3router.bundle");
        P4SwitchProcess.tool(bin, "bundle", PROGRAM.toString(), "-o", bundle.toString());
        P4InfoIndex ids = new P4InfoIndex(p4info);

        List<Update> routes = new ArrayList<>();
        for (int i = 1; i <= 20; i++) {
            routes.add(Update.newBuilder().setType(Update.Type.INSERT).setEntity(route(ids, "10.0." + i + ".0", 24, "00:00:0a:00:00:" + String.format("%02x", i), i)).build());
        }
        // an update the switch must refuse (port 600 does not fit bit<9>), in the middle of the batch
        routes.add(10, Update.newBuilder().setType(Update.Type.INSERT).setEntity(route(ids, "10.9.0.0", 16, "00:00:0a:00:00:99", 600)).build());

        try (P4SwitchProcess sw = new P4SwitchProcess(bin, 1, tmp.resolve("p4switch.log"))) {
            sw.start();
            ManagedChannel channel = NettyChannelBuilder.forAddress("127.0.0.1", sw.port).usePlaintext().build();
            try (DeviceAgent agent = new DeviceAgent("l3", channel, 1, DeviceAgent.electionIdNow(), new DeviceListener() { }, 8)) {
                agent.setPipeline(p4info, Files.readAllBytes(bundle));
                agent.start();
                DeviceAgentTest.await("ready", agent::ready);

                WriteResult r = agent.write(routes).get(30, TimeUnit.SECONDS);
                assertEquals(20, r.results.stream().filter(UpdateResult::ok).count(), r.toString());
                assertTrue(r.results.get(10).code != Status.Code.OK, r.toString());
                assertEquals(normal(agent.intendedEntities().get()), normal(readAll(agent)));
                assertEquals(20, readAll(agent).size());

                sw.kill9();
                DeviceAgentTest.await("the agent notices the switch died", () -> !agent.ready());
                sw.start();
                DeviceAgentTest.await("reconciled", () -> agent.ready() && agent.reconciliations() == 2);
                assertEquals(normal(agent.intendedEntities().get()), normal(readAll(agent)));
                assertEquals(20, readAll(agent).size());
            } finally {
                channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
            }
        }
    }

    static Entity route(P4InfoIndex ids, String prefix, int len, String mac, int port) {
        String t = "RouterIngress.ipv4_lpm";
        String a = "RouterIngress.ipv4_forward";
        return Entity.newBuilder().setTableEntry(TableEntry.newBuilder().setTableId(ids.tableId(t))
                .addMatch(FieldMatch.newBuilder().setFieldId(ids.matchFieldId(t, "hdr.ipv4.dstAddr"))
                        .setLpm(FieldMatch.LPM.newBuilder().setValue(P4Bytes.ipv4(prefix)).setPrefixLen(len)))
                .setAction(TableAction.newBuilder().setAction(Action.newBuilder().setActionId(ids.actionId(a))
                        .addParams(Action.Param.newBuilder().setParamId(ids.paramId(a, "dstAddr")).setValue(P4Bytes.mac(mac)))
                        .addParams(Action.Param.newBuilder().setParamId(ids.paramId(a, "port")).setValue(P4Bytes.of(port)))))).build();
    }

    static List<Entity> readAll(DeviceAgent agent) throws Exception {
        return agent.read(List.of(Entity.newBuilder().setTableEntry(TableEntry.getDefaultInstance()).build())).get(30, TimeUnit.SECONDS);
    }

    static Set<Entity> normal(List<Entity> es) {
        return es.stream().map(Reconciler::normal).collect(Collectors.toSet());
    }
}
