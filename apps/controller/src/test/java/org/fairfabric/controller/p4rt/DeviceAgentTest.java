package org.fairfabric.controller.p4rt;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.Status;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;
import p4.config.v1.P4InfoOuterClass.P4Info;
import p4.v1.P4RuntimeOuterClass.Action;
import p4.v1.P4RuntimeOuterClass.DigestList;
import p4.v1.P4RuntimeOuterClass.Entity;
import p4.v1.P4RuntimeOuterClass.FieldMatch;
import p4.v1.P4RuntimeOuterClass.ForwardingPipelineConfig;
import p4.v1.P4RuntimeOuterClass.PacketIn;
import p4.v1.P4RuntimeOuterClass.PacketOut;
import p4.v1.P4RuntimeOuterClass.TableAction;
import p4.v1.P4RuntimeOuterClass.TableEntry;
import p4.v1.P4RuntimeOuterClass.Uint128;
import p4.v1.P4RuntimeOuterClass.Update;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class DeviceAgentTest {
    static final long DEVICE_ID = 7;
    static final P4Info P4INFO = FakeP4RuntimeSwitch.p4info(1, 2);
    static final byte[] CONFIG = {1, 2, 3};

    final String name = "fake-" + System.nanoTime();
    final List<Boolean> readiness = new CopyOnWriteArrayList<>();
    final List<PacketIn> packetIns = new CopyOnWriteArrayList<>();
    final List<DigestList> digests = new CopyOnWriteArrayList<>();
    FakeP4RuntimeSwitch sw;
    Server server;
    ManagedChannel channel;
    DeviceAgent agent;

    @BeforeEach
    void setUp() throws Exception {
        startSwitch();
        channel = InProcessChannelBuilder.forName(name).build();
    }

    @AfterEach
    void tearDown() throws Exception {
        if (agent != null) {
            agent.close();
        }
        channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
        server.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }

    void startSwitch() throws Exception {
        sw = new FakeP4RuntimeSwitch(DEVICE_ID);
        server = InProcessServerBuilder.forName(name).addService(sw).build().start();
    }

    /** The switch process dies and comes back empty. */
    void restartSwitch() throws Exception {
        server.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
        startSwitch();
    }

    DeviceAgent startAgent(Uint128 election) {
        agent = new DeviceAgent("leaf1", channel, DEVICE_ID, election, new DeviceListener() {
            @Override
            public void onReady(boolean ready) {
                readiness.add(ready);
            }

            @Override
            public void onPacketIn(PacketIn packet, long receivedNanos) {
                packetIns.add(packet);
            }

            @Override
            public void onDigest(DigestList digest) {
                digests.add(digest);
            }
        }, 4);
        agent.start();
        return agent;
    }

    static Uint128 election(long low) {
        return Uint128.newBuilder().setLow(low).build();
    }

    static Entity entry(int table, int dst, int port) {
        return Entity.newBuilder().setTableEntry(TableEntry.newBuilder().setTableId(table)
                .addMatch(FieldMatch.newBuilder().setFieldId(1).setExact(FieldMatch.Exact.newBuilder().setValue(ByteString.copyFrom(new byte[] {(byte) dst}))))
                .setAction(TableAction.newBuilder().setAction(Action.newBuilder().setActionId(10)
                        .addParams(Action.Param.newBuilder().setParamId(1).setValue(ByteString.copyFrom(new byte[] {(byte) port})))))).build();
    }

    static Update insert(Entity e) {
        return Update.newBuilder().setType(Update.Type.INSERT).setEntity(e).build();
    }

    static Update modify(Entity e) {
        return Update.newBuilder().setType(Update.Type.MODIFY).setEntity(e).build();
    }

    static Update delete(Entity e) {
        return Update.newBuilder().setType(Update.Type.DELETE).setEntity(e).build();
    }

    /** Waits (bounded) for a condition that the agent reaches asynchronously. */
    static void await(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting for: " + what);
            }
            Thread.sleep(10);
        }
    }

    Set<ByteString> keys(List<Entity> es) {
        return es.stream().map(EntityKey::of).collect(Collectors.toSet());
    }

    @Test
    void becomesPrimaryPushesThePipelineAndReportsEachUpdate() throws Exception {
        startAgent(election(100));
        agent.setPipeline(P4INFO, CONFIG).get(10, TimeUnit.SECONDS);
        await("ready", agent::ready);
        assertTrue(sw.hasPipeline());
        assertEquals(1, sw.pipelinePushes);

        WriteResult r = agent.write(List.of(insert(entry(1, 1, 1)), insert(entry(9, 1, 1)), insert(entry(2, 2, 2)))).get(10, TimeUnit.SECONDS);
        assertFalse(r.deferred);
        assertEquals(List.of(Status.Code.OK, Status.Code.NOT_FOUND, Status.Code.OK), r.results.stream().map(u -> u.code).toList());
        assertEquals(keys(List.of(entry(1, 1, 1), entry(2, 2, 2))), keys(sw.entities()));
        assertEquals(keys(sw.entities()), keys(agent.intendedEntities().get()), "a refused update leaves no intent behind");

        WriteResult dup = agent.write(List.of(insert(entry(1, 1, 5)), delete(entry(1, 3, 1)))).get(10, TimeUnit.SECONDS);
        assertEquals(List.of(Status.Code.ALREADY_EXISTS, Status.Code.NOT_FOUND), dup.results.stream().map(u -> u.code).toList());

        assertEquals(2, agent.read(List.of(Entity.newBuilder().setTableEntry(TableEntry.getDefaultInstance()).build())).get().size());
        assertEquals(List.of(true), readiness);
    }

    @Test
    void writesReachTheSwitchInSubmissionOrderInBatches() throws Exception {
        startAgent(election(100));
        agent.setPipeline(P4INFO, CONFIG);
        await("ready", agent::ready);
        List<CompletableFuture<WriteResult>> futures = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            futures.add(agent.write(List.of(insert(entry(1, i, 1)))));
            futures.add(agent.write(List.of(modify(entry(1, i, 2)))));
            if (i % 2 == 0) {
                futures.add(agent.write(List.of(delete(entry(1, i, 2)))));
            }
        }
        futures.add(agent.write(List.of(insert(entry(2, 1, 1)), insert(entry(2, 2, 1)), insert(entry(2, 3, 1)),
                insert(entry(2, 4, 1)), insert(entry(2, 5, 1)), insert(entry(2, 6, 1)))));
        for (CompletableFuture<WriteResult> f : futures) {
            assertTrue(f.get(10, TimeUnit.SECONDS).allOk(), f.get().toString());
        }
        List<Entity> held = sw.entities();
        assertEquals(15 + 6, held.size());
        for (Entity e : held) {
            if (e.getTableEntry().getTableId() == 1) {
                assertEquals(2, e.getTableEntry().getAction().getAction().getParams(0).getValue().byteAt(0));
            }
        }
        // the six-update write went out in batches of at most 4
        assertTrue(sw.writes.stream().allMatch(w -> w.getUpdatesCount() <= 4));
        assertEquals(2, sw.writes.get(sw.writes.size() - 1).getUpdatesCount());
    }

    @Test
    void aRestartedSwitchGetsThePipelineAndEveryEntryBack() throws Exception {
        startAgent(election(100));
        agent.setPipeline(P4INFO, CONFIG);
        await("ready", agent::ready);
        List<Update> batch = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            batch.add(insert(entry(1 + i % 2, i, i)));
        }
        assertTrue(agent.write(batch).get(10, TimeUnit.SECONDS).allOk());

        restartSwitch();
        await("the agent notices", () -> !agent.ready());
        // written while the switch is away: kept in the intended state and delivered later
        WriteResult during = agent.write(List.of(insert(entry(2, 100, 1)), delete(entry(1, 0, 0)))).get(10, TimeUnit.SECONDS);
        assertTrue(during.deferred && during.allOk(), during.toString());

        await("reconnected", agent::ready);
        await("reconciled", () -> sw.entities().size() == 10);
        assertEquals(1, sw.pipelinePushes);
        assertEquals(keys(agent.intendedEntities().get()), keys(sw.entities()));
        assertTrue(keys(sw.entities()).contains(EntityKey.of(entry(2, 100, 1))));
        assertFalse(keys(sw.entities()).contains(EntityKey.of(entry(1, 0, 0))));
        assertEquals(2, agent.reconciliations());
        assertEquals(List.of(true, false, true), readiness);
    }

    @Test
    void reconciliationRemovesStrayEntriesAndRepairsChangedOnesWithoutRepushing() throws Exception {
        // The controller restarted; the switch kept its pipeline and entries, some now stale.
        ForwardingPipelineConfig same = ForwardingPipelineConfig.newBuilder().setP4Info(P4INFO)
                .setCookie(ForwardingPipelineConfig.Cookie.newBuilder().setCookie(DeviceAgent.cookie(P4INFO, CONFIG))).build();
        sw.preload(same, List.of(entry(1, 1, 1), entry(1, 2, 9), entry(2, 3, 3)));
        startAgent(election(200));
        agent.setPipeline(P4INFO, CONFIG);
        CompletableFuture<WriteResult> written = agent.write(List.of(insert(entry(1, 1, 1)), insert(entry(1, 2, 2)), insert(entry(2, 4, 4))));
        await("ready", agent::ready);
        // deferred (then part of the reconciliation) or, if the session came up first, written after it
        assertTrue(written.get(10, TimeUnit.SECONDS).allOk());
        assertEquals(0, sw.pipelinePushes, "the same pipeline is not pushed again (that would wipe the switch)");
        Set<ByteString> expect = keys(List.of(entry(1, 1, 1), entry(1, 2, 2), entry(2, 4, 4)));
        assertEquals(expect, keys(sw.entities()));
        Set<Entity> normal = sw.entities().stream().map(Reconciler::normal).collect(Collectors.toSet());
        assertTrue(normal.contains(Reconciler.normal(entry(1, 2, 2))), "the changed entry was modified back");
    }

    @Test
    void aNewerControllerTakesOverAndTheOldOneStopsWriting() throws Exception {
        startAgent(election(100));
        agent.setPipeline(P4INFO, CONFIG);
        await("ready", agent::ready);
        try (DeviceAgent newer = new DeviceAgent("leaf1-b", channel, DEVICE_ID, election(300), new DeviceListener() { }, 100)) {
            newer.setPipeline(P4INFO, CONFIG);
            newer.start();
            await("newer ready", newer::ready);
            await("older demoted", () -> !agent.ready());
            assertTrue(newer.write(List.of(insert(entry(1, 1, 1)))).get(10, TimeUnit.SECONDS).allOk());
        }
    }

    @Test
    void packetsAndDigestsTravelOnTheStream() throws Exception {
        startAgent(election(100));
        agent.setPipeline(P4INFO, CONFIG);
        await("ready", agent::ready);
        sw.sendPacketIn(new byte[] {9, 8, 7});
        await("packet-in", () -> packetIns.size() == 1);
        assertArrayEquals(new byte[] {9, 8, 7}, packetIns.get(0).getPayload().toByteArray());

        assertTrue(agent.packetOut(PacketOut.newBuilder().setPayload(ByteString.copyFrom(new byte[] {1})).build()));
        await("packet-out", () -> sw.packetOuts.size() == 1);

        sw.sendDigest(5, 42, new byte[] {3});
        await("digest acked", () -> sw.digestAcks.size() == 1);
        assertEquals(1, digests.size());
        assertEquals(5, sw.digestAcks.get(0).getDigestId());
        assertEquals(42, sw.digestAcks.get(0).getListId());
        assertEquals(new HashSet<>(List.of(true)), new HashSet<>(readiness));
    }
}
