package org.fairfabric.controller.mininet;

import com.fasterxml.jackson.databind.JsonNode;
import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import java.math.BigInteger;
import java.nio.file.Files;
import java.util.Iterator;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.fairfabric.controller.p4rt.P4InfoIndex;
import p4.config.v1.P4InfoOuterClass.P4Info;
import p4.v1.P4RuntimeGrpc;
import p4.v1.P4RuntimeOuterClass.CounterData;
import p4.v1.P4RuntimeOuterClass.Entity;
import p4.v1.P4RuntimeOuterClass.ReadRequest;
import p4.v1.P4RuntimeOuterClass.ReadResponse;
import p4.v1.P4RuntimeOuterClass.TableEntry;

/**
 * A switch's table entries with their direct counters, read over P4Runtime without arbitration
 * (reads need no primary, so the controller stays undisturbed), keyed by the entry's first exact
 * match value (e.g. a pinned path's VLAN id).
 */
final class DirectCounters {
    private static P4Info info;

    private DirectCounters() {
    }

    private static synchronized P4Info p4info() throws Exception {
        if (info == null) {
            info = P4InfoIndex.parseText(Files.readString(MininetRequirements.repositoryRoot().resolve("pipeconfs/p4/p4info.txt")));
        }
        return info;
    }

    /** Entries of {@code table} (full name) on the fabric's switch: first exact match value → {packets, bytes}. */
    static Map<Long, long[]> read(MininetFabric fabric, String switchName, String table) throws Exception {
        Map<Long, long[]> out = new TreeMap<>();
        for (TableEntry t : entries(fabric, switchName, table)) {
            long key = t.getMatchCount() > 0 && t.getMatch(0).hasExact()
                    ? new BigInteger(1, t.getMatch(0).getExact().getValue().toByteArray()).longValue() : -1;
            out.put(key, new long[] {t.getCounterData().getPacketCount(), t.getCounterData().getByteCount()});
        }
        return out;
    }

    /** {entries, packets, bytes} of every entry of {@code table} together. */
    static long[] total(MininetFabric fabric, String switchName, String table) throws Exception {
        long[] out = new long[3];
        for (TableEntry t : entries(fabric, switchName, table)) {
            out[0]++;
            out[1] += t.getCounterData().getPacketCount();
            out[2] += t.getCounterData().getByteCount();
        }
        return out;
    }

    private static java.util.List<TableEntry> entries(MininetFabric fabric, String switchName, String table) throws Exception {
        JsonNode sw = fabric.ready.path("switches").path(switchName);
        if (sw.isMissingNode()) {
            throw new IllegalArgumentException("no switch " + switchName);
        }
        int tableId = new P4InfoIndex(p4info()).tableId(table);
        ManagedChannel ch = NettyChannelBuilder.forAddress("127.0.0.1", sw.path("grpc_port").asInt()).usePlaintext().build();
        try {
            P4RuntimeGrpc.P4RuntimeBlockingStub stub = P4RuntimeGrpc.newBlockingStub(ch).withDeadlineAfter(30, TimeUnit.SECONDS);
            TableEntry which = TableEntry.newBuilder().setTableId(tableId).setCounterData(CounterData.getDefaultInstance()).build();
            ReadRequest req = ReadRequest.newBuilder().setDeviceId(sw.path("device_id").asLong())
                    .addEntities(Entity.newBuilder().setTableEntry(which)).build();
            java.util.List<TableEntry> out = new java.util.ArrayList<>();
            for (Iterator<ReadResponse> it = stub.read(req); it.hasNext(); ) {
                for (Entity e : it.next().getEntitiesList()) {
                    out.add(e.getTableEntry());
                }
            }
            return out;
        } finally {
            ch.shutdownNow();
        }
    }
}
