package org.fairfabric.onos.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.fairfabric.api.dto.HostDto;
import org.fairfabric.api.dto.SessionDto;
import org.fairfabric.api.dto.TenantDto;
import org.fairfabric.api.json.HostJson;
import org.fairfabric.api.json.Json;
import org.fairfabric.api.json.SessionJson;
import org.fairfabric.api.json.TenantJson;
import org.fairfabric.api.store.FabricStore;
import org.fairfabric.api.store.Mutation;
import org.fairfabric.api.store.StoredState;
import org.onosproject.store.service.ConsistentMap;
import org.onosproject.store.service.Versioned;

/**
 * The stored state in an ONOS ConsistentMap (replicated by ONOS's Atomix cluster, so the same on
 * every node and durable across restarts of one). One entry per tenant ({@code tenant/ID}), per
 * host ({@code host/ID}), per declared session ({@code session/ID}) and one for the network
 * configuration, and {@code session-numbers} (the session ids used so far); each value is
 * {@code {"order": n, "value": ...}} so that creation order survives, as in the embedded journal.
 */
public final class ConsistentMapFabricStore implements FabricStore {
    static final String TENANT = "tenant/";
    static final String HOST = "host/";
    static final String SESSION = "session/";
    static final String NETWORK_CONFIG = "network-config";
    static final String SESSION_NUMBERS = "session-numbers";

    private final ConsistentMap<String, String> map;
    private long lastOrder;

    public ConsistentMapFabricStore(ConsistentMap<String, String> map) {
        this.map = Objects.requireNonNull(map);
    }

    @Override
    public synchronized StoredState load() {
        List<Map.Entry<String, JsonNode>> entries = new ArrayList<>();
        for (Map.Entry<String, Versioned<String>> e : map.entrySet()) {
            entries.add(Map.entry(e.getKey(), Json.parse(e.getValue().value())));
        }
        entries.sort(Comparator.comparingLong(e -> e.getValue().get("order").asLong()));
        StoredState state = StoredState.EMPTY;
        for (Map.Entry<String, JsonNode> e : entries) {
            lastOrder = Math.max(lastOrder, e.getValue().get("order").asLong());
            state = decode(e.getKey(), e.getValue().get("value")).applyTo(state);
        }
        return state;
    }

    private static Mutation decode(String key, JsonNode value) {
        if (key.startsWith(TENANT)) {
            return new Mutation.PutTenant(TenantJson.create(value));
        }
        if (key.startsWith(HOST)) {
            return new Mutation.PutHost(HostJson.stored(value));
        }
        if (key.startsWith(SESSION)) {
            return new Mutation.PutSession(SessionJson.stored(value));
        }
        if (key.equals(SESSION_NUMBERS)) {
            return new Mutation.UseSessionNumbers(value.longValue());
        }
        if (key.equals(NETWORK_CONFIG)) {
            return new Mutation.PutNetworkConfig(value.textValue());
        }
        throw new IllegalStateException("unexpected entry '" + key + "' in the fairfabric state map");
    }

    @Override
    public synchronized void append(Mutation m) {
        if (m instanceof Mutation.PutTenant) {
            TenantDto t = ((Mutation.PutTenant) m).tenant;
            ObjectNode value = (ObjectNode) Json.tree(t);
            if (value.get("minBandwidthBps").isNull()) {
                value.remove("minBandwidthBps");
            }
            put(TENANT + t.id, value);
        } else if (m instanceof Mutation.DeleteTenant) {
            String id = ((Mutation.DeleteTenant) m).tenantId;
            for (String key : new ArrayList<>(map.keySet())) {
                SessionDto s = key.startsWith(SESSION) ? session(key) : null;
                if (s != null && s.tenantId.equals(id)) {
                    map.remove(key);
                }
            }
            for (String key : new ArrayList<>(map.keySet())) {
                if (key.startsWith(HOST) && HostJson.stored(value(key)).tenantId.equals(id)) {
                    map.remove(key);
                }
            }
            map.remove(TENANT + id);
        } else if (m instanceof Mutation.PutHost) {
            HostDto h = ((Mutation.PutHost) m).host;
            put(HOST + h.id, Json.tree(h));
        } else if (m instanceof Mutation.DeleteHost) {
            String id = ((Mutation.DeleteHost) m).hostId;
            for (String key : new ArrayList<>(map.keySet())) {
                SessionDto s = key.startsWith(SESSION) ? session(key) : null;
                if (s != null && (s.srcHost.equals(id) || s.dstHost.equals(id))) {
                    map.remove(key);
                }
            }
            map.remove(HOST + id);
        } else if (m instanceof Mutation.PutSession) {
            SessionDto s = ((Mutation.PutSession) m).session;
            put(SESSION + s.id, SessionJson.storedTree(s));
            useSessionNumbers(StoredState.sessionNumber(s.id));
        } else if (m instanceof Mutation.DeleteSession) {
            map.remove(SESSION + ((Mutation.DeleteSession) m).sessionId);
        } else if (m instanceof Mutation.UseSessionNumbers) {
            useSessionNumbers(((Mutation.UseSessionNumbers) m).upTo);
        } else if (m instanceof Mutation.PutNetworkConfig) {
            put(NETWORK_CONFIG, Json.MAPPER.getNodeFactory().textNode(((Mutation.PutNetworkConfig) m).json));
        } else {
            throw new IllegalArgumentException("no map encoding for " + m.getClass().getName());
        }
    }

    private JsonNode value(String key) {
        Versioned<String> v = map.get(key);
        return v == null ? null : Json.parse(v.value()).get("value");
    }

    /** Raises (never lowers) the count of session ids used. */
    private void useSessionNumbers(long upTo) {
        JsonNode before = value(SESSION_NUMBERS);
        if (before == null || before.longValue() < upTo) {
            put(SESSION_NUMBERS, Json.MAPPER.getNodeFactory().numberNode(upTo));
        }
    }

    /** The stored session under {@code key}; null when another node removed it meanwhile. */
    private SessionDto session(String key) {
        JsonNode v = value(key);
        return v == null ? null : SessionJson.stored(v);
    }

    /** Keeps the entry's creation order when it is replaced. */
    private void put(String key, JsonNode value) {
        Versioned<String> before = map.get(key);
        long order = before == null ? ++lastOrder : Json.parse(before.value()).get("order").asLong();
        ObjectNode wrapped = Json.MAPPER.createObjectNode();
        wrapped.put("order", order);
        wrapped.set("value", value);
        map.put(key, Json.write(wrapped));
    }

    @Override
    public void close() {
        // The map belongs to ONOS's storage service.
    }
}
