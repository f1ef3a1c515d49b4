package org.fairfabric.monitor.catalog;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import org.fairfabric.monitor.stream.Json;

/**
 * The controller's model as the monitor sees it: the compacted topic {@code ff.ctl.catalog.v1}
 * (docs/kafka.md) held in a global store on every instance. Keys are {@code link/<link id>},
 * {@code pair/<src ip>><dst ip>}, {@code host/<ip>}, {@code tenant/<id>} and {@code session/<id>}.
 */
public final class Catalog {
    public static final String STORE = "catalog";

    /** A directed link: its ends ({@code element/port}), whether each end is a switch, its capacity. */
    public record Link(String id, String src, String dst, boolean srcIsSwitch, boolean dstIsSwitch, long capacityBps) {
    }

    private final ReadOnlyKeyValueStore<String, String> store;
    private final Map<String, JsonNode> parsed = new ConcurrentHashMap<>();

    public Catalog(ReadOnlyKeyValueStore<String, String> store) {
        this.store = store;
    }

    private Optional<JsonNode> get(String key) {
        String v = store.get(key);
        if (v == null) {
            return Optional.empty();
        }
        if (parsed.size() > 100_000) {
            parsed.clear();
        }
        return Optional.of(parsed.computeIfAbsent(v, Json::parseObject));
    }

    public Optional<Link> link(String id) {
        return get("link/" + id).map(n -> new Link(id, n.path("src").asText(), n.path("dst").asText(),
                n.path("src_is_switch").asBoolean(), n.path("dst_is_switch").asBoolean(),
                n.path("capacity_bps").asLong()));
    }

    /** The links of one path of a session pair; empty when the catalog does not know the pair or path. */
    public List<String> pathLinks(String src, String dst, int pathId) {
        Optional<JsonNode> pair = get("pair/" + src + ">" + dst);
        if (pair.isEmpty()) {
            return List.of();
        }
        for (JsonNode p : pair.get().path("paths")) {
            if (p.path("id").asInt() == pathId) {
                List<String> links = new ArrayList<>();
                p.path("links").forEach(l -> links.add(l.asText()));
                return links;
            }
        }
        return List.of();
    }

    /** Every link of every path of a pair (the links a session between them crosses). */
    public Set<String> pairLinks(String src, String dst) {
        Set<String> links = new LinkedHashSet<>();
        get("pair/" + src + ">" + dst).ifPresent(pair -> pair.path("paths")
                .forEach(p -> p.path("links").forEach(l -> links.add(l.asText()))));
        return links;
    }

    /** The tenant of a host address, when the controller has it. */
    public Optional<String> tenantOfHost(String ip) {
        return get("host/" + ip).map(n -> n.path("tenant").asText(null));
    }

    public Optional<String> tenantOfSession(String sessionId) {
        return get("session/" + sessionId).map(n -> n.path("tenant").asText(null));
    }

    /** guarantee_bps and allocated_bps of a tenant (0 when absent). */
    public long[] tenantRates(String tenant) {
        return get("tenant/" + tenant)
                .map(n -> new long[] {n.path("guarantee_bps").asLong(0), n.path("allocated_bps").asLong(0)})
                .orElse(new long[] {0, 0});
    }

    /** Bumped by {@link CatalogLoader} whenever a {@code link/} key changes; the port index is rebuilt then. */
    private static final AtomicLong LINKS_VERSION = new AtomicLong();
    private long indexVersion = -1;
    private Map<String, List<Link>> linksByPort = Map.of();

    static void linksChanged() {
        LINKS_VERSION.incrementAndGet();
    }

    /**
     * The links with an end at a switch port ({@code device/port}). From an index of the catalog's
     * links by port, built with one scan after the links changed: the port-stats reader asks for
     * every port of every switch's reading (80 ports a second in a k=4 fat-tree), and a scan of
     * all links per port was most of its work.
     */
    public List<Link> linksAtPort(String devicePort) {
        long version = LINKS_VERSION.get();
        if (version != indexVersion) {
            Map<String, List<Link>> index = new HashMap<>();
            try (KeyValueIterator<String, String> it = store.prefixScan("link/",
                    new org.apache.kafka.common.serialization.StringSerializer())) {
                while (it.hasNext()) {
                    var kv = it.next();
                    link(kv.key.substring("link/".length())).ifPresent(l -> {
                        index.computeIfAbsent(l.src(), k -> new ArrayList<>()).add(l);
                        if (!l.dst().equals(l.src())) {
                            index.computeIfAbsent(l.dst(), k -> new ArrayList<>()).add(l);
                        }
                    });
                }
            }
            linksByPort = index;
            indexVersion = version;
        }
        return linksByPort.getOrDefault(devicePort, List.of());
    }
}
