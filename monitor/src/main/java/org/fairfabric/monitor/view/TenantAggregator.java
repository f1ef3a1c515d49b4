package org.fairfabric.monitor.view;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Iterator;
import java.util.Map;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.fairfabric.monitor.MonitorSettings;
import org.fairfabric.monitor.stream.Json;
import org.fairfabric.monitor.stream.Out;

/**
 * Per tenant and period: the achieved rate (received bytes of its sessions that fall in the
 * period), its allocated rate and guarantee (catalog), and its demand from the senders'
 * stats: what they sent, or unbounded when a session-path's queue held a backlog. Without stats
 * the demand is unknown and no violation is judged. A period is <em>below</em> when achieved
 * &lt; (1 − tolerance)·min(guarantee, demand); when the periods below since the first of a run
 * span the hold time, a {@code guarantee.violated} event is published once, and
 * {@code guarantee.restored} at the first period that is not below.
 */
public final class TenantAggregator extends Stage {
    public static final String STORE = "tenants";
    public static final String PERIODS_STORE = "tenant-periods";
    private final String signalTopic;
    private OpenPeriods periods;

    public TenantAggregator(String signalTopic, MonitorSettings settings) {
        super(STORE, settings);
        this.signalTopic = signalTopic;
    }

    @Override
    public void init(ProcessorContext<String, Out> context) {
        super.init(context);
        periods = new OpenPeriods(context.getStateStore(PERIODS_STORE));
    }

    @Override
    protected void handle(String tenant, JsonNode signal, long ts, long now) {
        String kind = signal.path("kind").asText();
        if (!kind.equals("achieved") && !kind.equals("demand")) {
            return;
        }
        long period = signal.get("period").asLong();
        if (settings.closed(period, now)) {
            rejectLate(signalTopic, tenant, signal, ts, now);
            return;
        }
        periods.update(period, tenant, acc -> {
            if (kind.equals("achieved")) {
                String contrib = signal.get("contrib").asText();
                acc.with("achieved").put(contrib, acc.path("achieved").path(contrib).asDouble(0) + signal.get("bps").asDouble());
            } else {
                ObjectNode d = acc.with("demand").putObject(signal.get("contrib").asText());
                d.put("bps", signal.get("bps").asDouble());
                d.put("backlog", signal.get("backlog").asBoolean());
            }
        });
    }

    @Override
    protected void advanced(long before, long now) {
        long last = lastClosedPeriod(now);
        if (before != Long.MIN_VALUE && last == lastClosedPeriod(before)) {
            return;
        }
        for (OpenPeriods.Closed c : periods.closeUpTo(last)) {
            close(c.subject(), c.period(), c.accumulator());
        }
    }

    private void close(String tenant, long period, ObjectNode acc) {
        double achieved = 0;
        for (Iterator<Map.Entry<String, JsonNode>> it = acc.path("achieved").fields(); it.hasNext(); ) {
            achieved += it.next().getValue().asDouble();
        }
        String demandKind = "unknown";
        double demand = 0;
        if (acc.has("demand")) {
            demandKind = "measured";
            for (Iterator<Map.Entry<String, JsonNode>> it = acc.get("demand").fields(); it.hasNext(); ) {
                JsonNode d = it.next().getValue();
                demand += d.get("bps").asDouble();
                if (d.get("backlog").asBoolean()) {
                    demandKind = "unbounded";
                }
            }
        }
        long[] rates = catalog.tenantRates(tenant);
        long guarantee = rates[0];
        long allocated = rates[1];
        boolean judged = guarantee > 0 && !demandKind.equals("unknown");
        double target = demandKind.equals("unbounded") ? guarantee : Math.min(guarantee, demand);
        boolean below = judged && achieved < (1 - settings.violationTolerance()) * target;

        String v = state.get(tenant);
        ObjectNode s = v == null ? Json.object() : (ObjectNode) Json.parseObject(v);
        long end = period + settings.periodMs();
        if (below) {
            if (!s.has("below_since_ms")) {
                s.put("below_since_ms", period);
            }
            long since = s.get("below_since_ms").asLong();
            if (!s.path("violated").asBoolean() && end - since >= settings.violationHoldMs()) {
                s.put("violated", true);
                ObjectNode d = Json.object();
                d.put("since_ms", since);
                d.put("achieved_bps", achieved);
                d.put("guarantee_bps", guarantee);
                d.put("target_bps", target);
                event("guarantee.violated", tenant, end, d);
            }
        } else {
            if (s.path("violated").asBoolean()) {
                ObjectNode d = Json.object();
                d.put("since_ms", s.get("below_since_ms").asLong());
                d.put("achieved_bps", achieved);
                event("guarantee.restored", tenant, end, d);
            }
            s.remove("below_since_ms");
            s.put("violated", false);
        }
        state.put(tenant, Json.write(s));

        ObjectNode o = Json.object();
        o.put("schema", 1);
        o.put("tenant", tenant);
        o.put("period_start_ms", period);
        o.put("period_ms", settings.periodMs());
        o.put("achieved_bps", achieved);
        o.put("allocated_bps", allocated);
        o.put("guarantee_bps", guarantee);
        o.put("demand", demandKind);
        if (demandKind.equals("measured")) {
            o.put("demand_bps", demand);
        } else {
            o.putNull("demand_bps");
        }
        o.put("below_guarantee", below);
        o.set("below_since_ms", s.get("below_since_ms"));
        if (o.get("below_since_ms") == null) {
            o.putNull("below_since_ms");
        }
        o.put("violated", s.path("violated").asBoolean());
        emit(tenant, Out.Kind.TENANT_VIEW, o, end);
    }
}
