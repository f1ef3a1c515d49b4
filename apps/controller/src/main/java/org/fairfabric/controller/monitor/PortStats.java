package org.fairfabric.controller.monitor;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigInteger;
import java.util.ArrayList;
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

    /** The wildcard reads of the three counters and the queue-depth register, and of the FACK counters when read. */
    public static List<Entity> queries(PortCounterIds ids) {
        List<Entity> q = new ArrayList<>(List.of(counterRead(ids.rx()), counterRead(ids.tx()), counterRead(ids.drops()),
                Entity.newBuilder().setRegisterEntry(RegisterEntry.newBuilder().setRegisterId(ids.qdepth())).build()));
        if (ids.facks()) {
            q.add(counterRead(ids.fackDecrease()));
            q.add(counterRead(ids.fackIncrease()));
        }
        return q;
    }

    private static Entity counterRead(int id) {
        return Entity.newBuilder().setCounterEntry(CounterEntry.newBuilder().setCounterId(id)).build();
    }

    /**
     * The record of {@code ports} from the read's {@code entities}; a port the read did not
     * return counts 0. With the FACK counters read, every port also has {@code facks_decrease}
     * and {@code facks_increase}.
     */
    public static String record(String device, long seq, long tsMs, long periodMs, Collection<Integer> ports,
                                PortCounterIds ids, List<Entity> entities) {
        Map<Integer, long[]> byPort = new TreeMap<>();
        for (int p : ports) {
            byPort.put(p, new long[8]);
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
                } else if (ids.facks() && c.getCounterId() == ids.fackDecrease()) {
                    v[6] = c.getData().getPacketCount();
                } else if (ids.facks() && c.getCounterId() == ids.fackIncrease()) {
                    v[7] = c.getData().getPacketCount();
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
        byPort.forEach((port, v) -> {
            ObjectNode p = arr.addObject().put("port", port).put("rx_bytes", v[0]).put("rx_packets", v[1])
                    .put("tx_bytes", v[2]).put("tx_packets", v[3]).put("drops", v[4]).put("qdepth", v[5]);
            if (ids.facks()) {
                p.put("facks_decrease", v[6]).put("facks_increase", v[7]);
            }
        });
        return o.toString();
    }

    private PortStats() {
    }
}
