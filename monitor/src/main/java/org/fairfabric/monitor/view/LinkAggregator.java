package org.fairfabric.monitor.view;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Iterator;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.fairfabric.monitor.MonitorSettings;
import org.fairfabric.monitor.catalog.Catalog;
import org.fairfabric.monitor.stream.Json;
import org.fairfabric.monitor.stream.Out;

/**
 * Per directed link: n_e (active sessions crossing it), Λ_e per period from the shims' path
 * bytes (the parts of the reports of each session-path that fall in the period add up: only its
 * receiver reports it) and from the switch counters, their difference, utilisation and failure state.
 * A period's figures are published when it closes; n_e and failure changes at once with the
 * latest figures. Utilisation is the switch load over capacity when the switch reported the
 * link in the period, else the shim load over capacity.
 */
public final class LinkAggregator extends Stage {
    public static final String STORE = "links";
    public static final String PERIODS_STORE = "link-periods";
    /** FACKs sent toward a host in the period: present only when the controller runs FACK. */
    private static final String[] FACKS = {"facks_decrease", "facks_increase"};
    private final String signalTopic;
    private OpenPeriods periods;

    public LinkAggregator(String signalTopic, MonitorSettings settings) {
        super(STORE, settings);
        this.signalTopic = signalTopic;
    }

    @Override
    public void init(ProcessorContext<String, Out> context) {
        super.init(context);
        periods = new OpenPeriods(context.getStateStore(PERIODS_STORE));
    }

    private ObjectNode load(String link) {
        String v = state.get(link);
        if (v != null) {
            return (ObjectNode) Json.parseObject(v);
        }
        ObjectNode s = Json.object();
        s.put("active_sessions", 0);
        s.putObject("failed_by");
        return s;
    }

    @Override
    protected void handle(String link, JsonNode signal, long ts, long now) {
        String kind = signal.path("kind").asText();
        switch (kind) {
            case "sessions" -> {
                ObjectNode s = load(link);
                s.put("active_sessions", Math.max(0, s.get("active_sessions").asInt() + signal.get("delta").asInt()));
                state.put(link, Json.write(s));
                emit(link, Out.Kind.LINK_VIEW, view(link, s, "sessions"), ts);
            }
            case "failure" -> {
                ObjectNode s = load(link);
                boolean wasFailed = failed(s);
                ObjectNode by = s.with("failed_by");
                if (signal.get("failed").asBoolean()) {
                    by.put(signal.get("by").asText(), ts);
                } else {
                    by.remove(signal.get("by").asText());
                }
                state.put(link, Json.write(s));
                if (failed(s) != wasFailed) {
                    ObjectNode d = Json.object();
                    d.put("reported_by", signal.get("by").asText());
                    event(failed(s) ? "link.failed" : "link.restored", link, ts, d);
                }
                emit(link, Out.Kind.LINK_VIEW, view(link, s, "failure"), ts);
            }
            case "shim", "switch" -> {
                long period = signal.get("period").asLong();
                if (settings.closed(period, now)) {
                    rejectLate(signalTopic, link, signal, ts, now);
                    return;
                }
                periods.update(period, link, acc -> {
                    if (kind.equals("shim")) {
                        String contrib = signal.get("contrib").asText();
                        acc.with("shim").put(contrib, acc.path("shim").path(contrib).asDouble(0) + signal.get("bps").asDouble());
                    } else {
                        if (signal.has("bps")) {
                            acc.put("switch_bps", acc.path("switch_bps").asDouble(0) + signal.get("bps").asDouble());
                        }
                        if (signal.has("drops")) {
                            acc.put("drops", acc.path("drops").asLong(0) + signal.get("drops").asLong());
                        }
                        for (String facks : FACKS) {
                            if (signal.has(facks)) {
                                acc.put(facks, acc.path(facks).asLong(0) + signal.get(facks).asLong());
                            }
                        }
                        if (signal.has("qdepth")) {
                            acc.put("qdepth", Math.max(acc.path("qdepth").asLong(0), signal.get("qdepth").asLong()));
                        }
                    }
                });
            }
            default -> {
            }
        }
    }

    private static boolean failed(ObjectNode s) {
        return s.path("failed_by").size() > 0;
    }

    @Override
    protected void advanced(long before, long now) {
        long last = lastClosedPeriod(now);
        if (before != Long.MIN_VALUE && last == lastClosedPeriod(before)) {
            return;
        }
        for (OpenPeriods.Closed c : periods.closeUpTo(last)) {
            ObjectNode s = load(c.subject());
            ObjectNode acc = c.accumulator();
            double shim = 0;
            for (Iterator<Map.Entry<String, JsonNode>> it = acc.path("shim").fields(); it.hasNext(); ) {
                shim += it.next().getValue().asDouble();
            }
            ObjectNode f = s.putObject("period");
            f.put("period_start_ms", c.period());
            f.put("load_bps_shim", shim);
            if (acc.has("switch_bps")) {
                f.put("load_bps_switch", acc.get("switch_bps").asDouble());
            } else {
                f.putNull("load_bps_switch");
            }
            f.put("drops", acc.path("drops").asLong(0));
            f.put("qdepth", acc.path("qdepth").asLong(0));
            for (String facks : FACKS) {
                if (acc.has(facks)) {
                    f.put(facks, acc.get(facks).asLong());
                }
            }
            state.put(c.subject(), Json.write(s));
            emit(c.subject(), Out.Kind.LINK_VIEW, view(c.subject(), s, "period"), c.period() + settings.periodMs());
        }
    }

    /** @param update what made this record: {@code period} (a period closed), {@code sessions} (n_e), {@code failure} */
    private ObjectNode view(String link, ObjectNode s, String update) {
        Optional<Catalog.Link> known = catalog.link(link);
        long capacity = known.map(Catalog.Link::capacityBps).orElse(0L);
        ObjectNode o = Json.object();
        o.put("schema", 1);
        o.put("link", link);
        o.put("update", update);
        o.put("capacity_bps", capacity);
        o.put("active_sessions", s.get("active_sessions").asInt());
        o.put("failed", failed(s));
        o.set("failed_by", Json.MAPPER.valueToTree(s.path("failed_by").properties().stream()
                .map(Map.Entry::getKey).sorted().toList()));
        o.put("period_ms", settings.periodMs());
        JsonNode f = s.get("period");
        if (f == null) {
            for (String k : new String[] {"period_start_ms", "load_bps_shim", "load_bps_switch", "utilisation",
                    "utilisation_shim", "utilisation_switch", "difference_bps", "difference_ratio", "drops", "qdepth"}) {
                o.putNull(k);
            }
            return o;
        }
        double shim = f.get("load_bps_shim").asDouble();
        boolean hasSwitch = !f.get("load_bps_switch").isNull();
        double sw = f.get("load_bps_switch").asDouble();
        o.put("period_start_ms", f.get("period_start_ms").asLong());
        o.put("load_bps_shim", shim);
        o.set("load_bps_switch", f.get("load_bps_switch"));
        putRatio(o, "utilisation", hasSwitch ? sw : shim, capacity);
        putRatio(o, "utilisation_shim", shim, capacity);
        if (hasSwitch) {
            putRatio(o, "utilisation_switch", sw, capacity);
            o.put("difference_bps", sw - shim);
            putRatio(o, "difference_ratio", sw - shim, sw);
        } else {
            o.putNull("utilisation_switch");
            o.putNull("difference_bps");
            o.putNull("difference_ratio");
        }
        o.put("drops", f.get("drops").asLong());
        o.put("qdepth", f.get("qdepth").asLong());
        for (String facks : FACKS) {
            if (f.has(facks)) {
                o.put(facks, f.get(facks).asLong());
            }
        }
        return o;
    }

    private static void putRatio(ObjectNode o, String field, double value, double over) {
        if (over > 0) {
            o.put(field, value / over);
        } else {
            o.putNull(field);
        }
    }
}
