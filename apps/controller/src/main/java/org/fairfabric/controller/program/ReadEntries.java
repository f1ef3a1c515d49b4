package org.fairfabric.controller.program;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.concurrent.TimeUnit;
import org.fairfabric.api.json.Json;
import org.fairfabric.controller.p4rt.P4InfoIndex;
import p4.config.v1.P4InfoOuterClass.P4Info;
import p4.config.v1.P4InfoOuterClass.Table;
import p4.v1.P4RuntimeGrpc;
import p4.v1.P4RuntimeOuterClass.Entity;
import p4.v1.P4RuntimeOuterClass.FieldMatch;
import p4.v1.P4RuntimeOuterClass.ReadRequest;
import p4.v1.P4RuntimeOuterClass.ReadResponse;
import p4.v1.P4RuntimeOuterClass.TableEntry;

/**
 * Prints a switch's entries of the named tables, one JSON line each, read with the P4Runtime Read
 * RPC without arbitration (reads need no primary), so it never disturbs the controller:
 * {@code ReadEntries HOST:PORT DEVICE_ID P4INFO TABLE...}. Line: {@code {"table", "priority",
 * "match": {field: value | [value, mask]}, "action", "params": {name: value}}} with numbers as integers, and
 * with {@code --state} also {@code "counter": {packets, bytes}} (direct counter) and {@code "meter": {cir, cburst,
 * pir, pburst}} (direct meter, when configured).
 */
public final class ReadEntries {
    private ReadEntries() {
    }

    public static void main(String[] args) throws Exception {
        boolean state = args.length > 0 && args[0].equals("--state");
        if (state) {
            args = java.util.Arrays.copyOfRange(args, 1, args.length);
        }
        if (args.length < 4) {
            System.err.println("usage: ReadEntries [--state] HOST:PORT DEVICE_ID P4INFO TABLE...");
            System.exit(2);
        }
        P4Info info = P4InfoIndex.parseText(Files.readString(Path.of(args[2])));
        P4InfoIndex p4 = new P4InfoIndex(info);
        String[] hp = args[0].split(":");
        ManagedChannel ch = NettyChannelBuilder.forAddress(hp[0], Integer.parseInt(hp[1])).usePlaintext().build();
        try {
            P4RuntimeGrpc.P4RuntimeBlockingStub stub = P4RuntimeGrpc.newBlockingStub(ch).withDeadlineAfter(30, TimeUnit.SECONDS);
            for (int i = 3; i < args.length; i++) {
                int id = p4.tableId(args[i]);
                Table table = info.getTablesList().stream().filter(t -> t.getPreamble().getId() == id).findFirst().orElseThrow();
                print(stub, Long.parseLong(args[1]), info, table, state);
            }
        } finally {
            ch.shutdownNow();
        }
    }

    private static void print(P4RuntimeGrpc.P4RuntimeBlockingStub stub, long deviceId, P4Info info, Table table, boolean state) {
        TableEntry.Builder which = TableEntry.newBuilder().setTableId(table.getPreamble().getId());
        if (state) {
            which.setMeterConfig(p4.v1.P4RuntimeOuterClass.MeterConfig.getDefaultInstance())
                    .setCounterData(p4.v1.P4RuntimeOuterClass.CounterData.getDefaultInstance());
        }
        ReadRequest req = ReadRequest.newBuilder().setDeviceId(deviceId).addEntities(Entity.newBuilder().setTableEntry(which)).build();
        for (Iterator<ReadResponse> it = stub.read(req); it.hasNext(); ) {
            for (Entity e : it.next().getEntitiesList()) {
                TableEntry t = e.getTableEntry();
                ObjectNode line = Json.MAPPER.createObjectNode();
                line.put("table", table.getPreamble().getName());
                line.put("priority", t.getPriority());
                ObjectNode match = line.putObject("match");
                for (FieldMatch m : t.getMatchList()) {
                    String field = table.getMatchFieldsList().stream().filter(f -> f.getId() == m.getFieldId())
                            .findFirst().orElseThrow().getName();
                    switch (m.getFieldMatchTypeCase()) {
                        case EXACT -> match.put(field, num(m.getExact().getValue().toByteArray()));
                        case TERNARY -> {
                            ArrayNode vm = match.putArray(field);
                            vm.add(num(m.getTernary().getValue().toByteArray()));
                            vm.add(num(m.getTernary().getMask().toByteArray()));
                        }
                        case LPM -> match.putArray(field).add(num(m.getLpm().getValue().toByteArray())).add(m.getLpm().getPrefixLen());
                        default -> match.put(field, m.toString());
                    }
                }
                var action = info.getActionsList().stream()
                        .filter(a -> a.getPreamble().getId() == t.getAction().getAction().getActionId()).findFirst();
                line.put("action", action.map(a -> a.getPreamble().getName()).orElse(""));
                ObjectNode params = line.putObject("params");
                for (var p : t.getAction().getAction().getParamsList()) {
                    String name = action.orElseThrow().getParamsList().stream().filter(x -> x.getId() == p.getParamId())
                            .findFirst().orElseThrow().getName();
                    params.put(name, num(p.getValue().toByteArray()));
                }
                if (t.hasCounterData()) {
                    line.putObject("counter").put("packets", t.getCounterData().getPacketCount())
                            .put("bytes", t.getCounterData().getByteCount());
                }
                if (t.hasMeterConfig()) {
                    line.putObject("meter").put("cir", t.getMeterConfig().getCir()).put("cburst", t.getMeterConfig().getCburst())
                            .put("pir", t.getMeterConfig().getPir()).put("pburst", t.getMeterConfig().getPburst());
                }
                System.out.println(Json.write(line));
            }
        }
    }

    private static BigInteger num(byte[] b) {
        return new BigInteger(1, b);
    }
}
