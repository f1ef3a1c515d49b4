package org.fairfabric.controller.monitor;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigInteger;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import p4.v1.P4RuntimeOuterClass.CounterEntry;
import p4.v1.P4RuntimeOuterClass.Entity;
import p4.v1.P4RuntimeOuterClass.RegisterEntry;

/** One device's per-port counters read in one P4Runtime Read, and their ff.ctl.portstats.v1 record. */
public final class PortStats {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** The wildcard reads of the three counters and the queue-depth register. */
    public static List<Entity> queries(PortCounterIds ids) {
        return List.of(
                Entity.newBuilder().setCounterEntry(CounterEntry.newBuilder().setCounterId(ids.rx())).build(),
                Entity.newBuilder().setCounterEntry(CounterEntry.newBuilder().setCounterId(ids.tx())).build(),
                Entity.newBuilder().setCounterEntry(CounterEntry.newBuilder().setCounterId(ids.drops())).build(),
                Entity.newBuilder().setRegisterEntry(RegisterEntry.newBuilder().setRegisterId(ids.qdepth())).build());
    }

    /**
     * The record of {@code ports} from the read's {@code entities}; a port the read did not
     * return counts 0.
     */
    public static String record(String device, long seq, long tsMs, long periodMs, Collection<Integer> ports,
                                PortCounterIds ids, List<Entity> entities) {
        Map<Integer, long[]> byPort = new TreeMap<>();
        for (int p : ports) {
            byPort.put(p, new long[6]);
        }
        for (Entity e : entities) {
            if (e.hasCounterEntry()) {
                CounterEntry c = e.getCounterEntry();
                long[] v = byPort.get((int) c.getIndex().getIndex());
                if (v == null) {
                    continue;
                }
                if (c.getCounterId() == ids.rx()) {
                    v[0] = c.getData().getByteCount();
                    v[1] = c.getData().getPacketCount();
                } else if (c.getCounterId() == ids.tx()) {
                    v[2] = c.getData().getByteCount();
                    v[3] = c.getData().getPacketCount();
                } else if (c.getCounterId() == ids.drops()) {
                    v[4] = c.getData().getPacketCount();
                }
            } else if (e.hasRegisterEntry() && e.getRegisterEntry().getRegisterId() == ids.qdepth()) {
                RegisterEntry r = e.getRegisterEntry();
                long[] v = byPort.get((int) r.getIndex().getIndex());
                if (v != null && r.getData().hasBitstring()) {
                    v[5] = new BigInteger(1, r.getData().getBitstring().toByteArray()).longValue();
                }
            }
        }
        ObjectNode o = JSON.createObjectNode();
        o.put("schema", 1);
        o.put("device", device);
        o.put("seq", seq);
        o.put("ts_ms", tsMs);
        o.put("period_ms", periodMs);
        ArrayNode arr = o.putArray("ports");
        byPort.forEach((port, v) -> arr.addObject().put("port", port).put("rx_bytes", v[0]).put("rx_packets", v[1])
                .put("tx_bytes", v[2]).put("tx_packets", v[3]).put("drops", v[4]).put("qdepth", v[5]));
        return o.toString();
    }

    private PortStats() {
    }
}
