package org.fairfabric.monitor.input;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.fairfabric.monitor.MonitorSettings;
import org.fairfabric.monitor.catalog.Catalog;
import org.fairfabric.monitor.stream.BadRecord;
import org.fairfabric.monitor.stream.Json;
import org.fairfabric.monitor.stream.Out;

/**
 * ff.ctl.portstats.v1 → per-link load from the switch counters. Counters are cumulative; the rate
 * of a port over [previous ts, ts) is the difference over the elapsed time. The pipeline counts a
 * frame by its length as it entered the switch (docs/p4switch.md), so a link's load is read where
 * its frames enter a switch: the rx counter of its destination port; a link into a host has none,
 * its load is the tx counter of its source port, which counts the 20-byte fabric header of the
 * frames that came from the fabric (docs/monitor.md, "Λ_e from switch counters"). The bytes of [previous ts, ts) are split over the periods the
 * interval overlaps in proportion to the overlap ({@link MonitorSettings#split}), so a poller whose
 * readings drift against the period boundaries neither doubles nor loses a period. Pipeline drops (indexed by ingress port) are charged to the
 * link that arrives at the port; the queue depth (egress) to the link that leaves it; FACKs (when
 * the controller runs FACK, by the port they leave by) to the link from the edge to the host. A counter
 * that decreased means the switch restarted: that port's period is skipped and the counters
 * become the new baseline.
 */
public final class PortStatsReader extends InputReader {
    public static final String STORE = "portstats-order";
    public static final String COUNTERS_STORE = "portstats-counters";
    private KeyValueStore<String, String> counters;

    public PortStatsReader(String topic, MonitorSettings settings) {
        super(topic, STORE, settings);
    }

    @Override
    public void init(ProcessorContext<String, Out> context) {
        super.init(context);
        counters = context.getStateStore(COUNTERS_STORE);
    }

    @Override
    protected Stamp check(String key, JsonNode v) {
        Json.schema(v, 1);
        String device = Json.text(v, "device");
        if (!key.equals(device)) {
            throw new BadRecord("key '" + key + "' is not the device '" + device + "'");
        }
        Json.positiveLong(v, "period_ms");
        for (JsonNode p : Json.array(v, "ports")) {
            Json.nonNegativeLong(p, "port");
            for (String f : new String[] {"rx_bytes", "rx_packets", "tx_bytes", "tx_packets", "drops", "qdepth"}) {
                Json.nonNegativeLong(p, f);
            }
            if (p.has("facks_decrease") || p.has("facks_increase")) {
                Json.nonNegativeLong(p, "facks_decrease");
                Json.nonNegativeLong(p, "facks_increase");
            }
        }
        return new Stamp(Json.positiveLong(v, "ts_ms"), seqOrZero(v));
    }

    @Override
    protected long reportEndMs(JsonNode v) {
        return v.get("ts_ms").asLong();
    }

    @Override
    protected long reportStartMs(JsonNode v) {
        return v.get("ts_ms").asLong() - v.get("period_ms").asLong();
    }

    @Override
    protected void accept(String device, JsonNode v, Record<String, String> record) {
        long ts = v.get("ts_ms").asLong();
        for (JsonNode p : v.get("ports")) {
            String dp = device + "/" + p.get("port").asLong();
            long rx = p.get("rx_bytes").asLong();
            long tx = p.get("tx_bytes").asLong();
            long drops = p.get("drops").asLong();
            long qdepth = p.get("qdepth").asLong();
            boolean facks = p.has("facks_decrease");
            long facksDecrease = p.path("facks_decrease").asLong(0);
            long facksIncrease = p.path("facks_increase").asLong(0);
            String prev = counters.get(dp);
            counters.put(dp, ts + "," + rx + "," + tx + "," + drops + "," + facksDecrease + "," + facksIncrease);
            if (prev == null) {
                continue;
            }
            String[] f = prev.split(",");
            long prevTs = Long.parseLong(f[0]);
            long prevRx = Long.parseLong(f[1]);
            long prevTx = Long.parseLong(f[2]);
            long prevDrops = Long.parseLong(f[3]);
            // a baseline stored before FACK counts were read (FACK turned on, or an older store) has none
            long prevFacksDecrease = f.length > 4 ? Long.parseLong(f[4]) : facksDecrease;
            long prevFacksIncrease = f.length > 5 ? Long.parseLong(f[5]) : facksIncrease;
            if (ts <= prevTs || rx < prevRx || tx < prevTx || drops < prevDrops
                    || facksDecrease < prevFacksDecrease || facksIncrease < prevFacksIncrease) {
                continue;
            }
            long drawn = settings.periodOf(prevTs, ts);
            for (MonitorSettings.Share share : settings.split(prevTs, ts)) {
                // the interval's bytes that fall in the period, as a rate over the period
                double scale = share.fraction() * 8.0 * 1000.0 / settings.periodMs();
                boolean last = share.period() == drawn; // drops and queue depth go to the midpoint's period
                for (Catalog.Link link : catalog.linksAtPort(dp)) {
                    ObjectNode l = Json.object();
                    l.put("kind", "switch");
                    l.put("period", share.period());
                    boolean any = false;
                    if (link.src().equals(dp) && link.srcIsSwitch()) {
                        if (!link.dstIsSwitch()) {
                            l.put("bps", (tx - prevTx) * scale);
                            any = true;
                            if (last && facks) { // FACKs leave by the sender's host port, toward the sender
                                l.put("facks_decrease", facksDecrease - prevFacksDecrease);
                                l.put("facks_increase", facksIncrease - prevFacksIncrease);
                            }
                        }
                        if (last) {
                            l.put("qdepth", qdepth);
                            any = true;
                        }
                    }
                    if (link.dst().equals(dp)) {
                        l.put("bps", (rx - prevRx) * scale);
                        any = true;
                        if (last && drops > prevDrops) { // no signal for "no drops": a third of all signals
                            l.put("drops", drops - prevDrops);
                            any = true;
                        }
                    }
                    if (any) {
                        emit(link.id(), Out.Kind.LINK_SIGNAL, l, ts);
                    }
                }
            }
        }
        tick(Out.Kind.LINK_SIGNAL, ts);
        tick(Out.Kind.TENANT_SIGNAL, ts);
        tick(Out.Kind.PAIR_SIGNAL, ts);
    }
}
