package org.fairfabric.monitor.input;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.streams.processor.api.Record;
import org.fairfabric.monitor.MonitorSettings;
import org.fairfabric.monitor.stream.BadRecord;
import org.fairfabric.monitor.stream.Json;
import org.fairfabric.monitor.stream.Out;

/**
 * ff.shim.pathbytes.v1 (Promenade Algorithm 3) → per session-path rates charged to the links of
 * the path (Λ_e from shim bytes), to the sender's tenant (achieved rate), and a traffic signal
 * for the session pair (sessions detected from traffic).
 *
 * <p>A report's bytes are split over the periods its interval overlaps, in proportion to the
 * overlap ({@link MonitorSettings#split}); the parts of consecutive reports of a session-path add up.
 *
 * <p>Rates are in bit/s of Ethernet frames as they cross each link (docs/monitor.md, "Λ_e from
 * shim bytes"): each packet's IP bytes plus its 14-byte Ethernet header, plus the 4-byte 802.1Q
 * tag when the packets arrived tagged (path id > 0), plus the pipeline's 20-byte fabric header on
 * links between two switches.
 *
 * <p>The traffic signal of a pair carries the report's packets and IP bytes of the pair (all its
 * paths), so that the session stage can tell data from a stream of acknowledgements.
 */
public final class PathBytesReader extends InputReader {
    public static final String STORE = "pathbytes-order";
    public static final int ETHERNET_HEADER_BYTES = 14;
    public static final int VLAN_TAG_BYTES = 4;
    /** fabric_t of pipeconfs/p4/include/header.p4: carried on switch-to-switch links only. */
    public static final int FABRIC_HEADER_BYTES = 20;

    public PathBytesReader(String topic, MonitorSettings settings) {
        super(topic, STORE, settings);
    }

    @Override
    protected Stamp check(String key, JsonNode v) {
        Json.schema(v, 1);
        checkHostKey(key, v);
        long start = Json.positiveLong(v, "period_start_ms");
        checkPeriod(v);
        for (JsonNode e : Json.array(v, "entries")) {
            Json.ipv4(e, "src");
            Json.ipv4(e, "dst");
            long path = Json.nonNegativeLong(e, "path");
            if (path > 4094) {
                throw new BadRecord("path: 0..4094");
            }
            Json.nonNegativeLong(e, "packets");
            Json.nonNegativeLong(e, "ip_bytes");
        }
        return new Stamp(start, Json.positiveLong(v, "seq"));
    }

    @Override
    protected long reportStartMs(JsonNode v) {
        return v.get("period_start_ms").asLong();
    }

    @Override
    protected long reportEndMs(JsonNode v) {
        return v.get("period_start_ms").asLong() + v.get("period_ms").asLong();
    }

    /** A link whose both ends are switches carries the fabric header; a host's link does not. */
    private boolean betweenSwitches(String link) {
        return catalog.link(link).map(l -> l.srcIsSwitch() && l.dstIsSwitch()).orElse(false);
    }

    @Override
    protected void accept(String key, JsonNode v, Record<String, String> record) {
        long start = reportStartMs(v);
        long end = start + v.get("period_ms").asLong();
        List<MonitorSettings.Share> shares = settings.split(start, end);
        Map<String, long[]> pairs = new LinkedHashMap<>(); // pair -> {packets, IP bytes} over its paths
        for (JsonNode e : v.get("entries")) {
            String src = e.get("src").asText();
            String dst = e.get("dst").asText();
            int path = e.get("path").asInt();
            long packets = e.get("packets").asLong();
            long frameBytes = e.get("ip_bytes").asLong()
                    + packets * (ETHERNET_HEADER_BYTES + (path > 0 ? VLAN_TAG_BYTES : 0));
            String pair = src + ">" + dst;
            String contrib = pair + "#" + path;
            String tenant = catalog.tenantOfHost(src).orElse(null);
            long[] total = pairs.computeIfAbsent(pair, k -> new long[2]);
            total[0] += packets;
            total[1] += e.get("ip_bytes").asLong();
            List<String> links = new ArrayList<>(catalog.pathLinks(src, dst, path));
            for (MonitorSettings.Share share : shares) {
                // the bytes of this report that fall in the period, as a rate over the period
                double scale = share.fraction() * 8.0 * 1000.0 / settings.periodMs();
                for (String link : links) {
                    ObjectNode l = Json.object();
                    l.put("kind", "shim");
                    l.put("period", share.period());
                    l.put("contrib", contrib);
                    l.put("bps", (frameBytes + (betweenSwitches(link) ? packets * FABRIC_HEADER_BYTES : 0)) * scale);
                    emit(link, Out.Kind.LINK_SIGNAL, l, end);
                }
                if (tenant != null) {
                    ObjectNode t = Json.object();
                    t.put("kind", "achieved");
                    t.put("period", share.period());
                    t.put("contrib", contrib);
                    t.put("bps", frameBytes * scale);
                    emit(tenant, Out.Kind.TENANT_SIGNAL, t, end);
                }
            }
        }
        for (Map.Entry<String, long[]> p : pairs.entrySet()) {
            if (p.getValue()[0] == 0) {
                continue;
            }
            String pair = p.getKey();
            ObjectNode s = Json.object();
            s.put("kind", "traffic");
            s.put("ts", end);
            catalog.tenantOfHost(pair.substring(0, pair.indexOf('>'))).ifPresent(t -> s.put("tenant", t));
            s.put("receiver", key);
            s.put("packets", p.getValue()[0]);
            s.put("ip_bytes", p.getValue()[1]);
            emit(pair, Out.Kind.PAIR_SIGNAL, s, end);
        }
        tick(Out.Kind.PAIR_SIGNAL, end);
        tick(Out.Kind.LINK_SIGNAL, end);
        tick(Out.Kind.TENANT_SIGNAL, end);
    }
}
