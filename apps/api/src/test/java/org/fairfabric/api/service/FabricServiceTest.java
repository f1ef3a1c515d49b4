package org.fairfabric.api.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.fairfabric.api.dto.EventDto;
import org.fairfabric.api.dto.HostDto;
import org.fairfabric.api.dto.LocationDto;
import org.fairfabric.api.dto.TenantDto;
import org.fairfabric.api.error.ApiException;
import org.fairfabric.api.error.ValidationException;
import org.fairfabric.api.json.HostJson;
import org.fairfabric.api.json.Json;
import org.fairfabric.api.json.SessionJson;
import org.fairfabric.api.json.TenantJson;
import org.fairfabric.api.store.FabricStore;
import org.fairfabric.api.store.InMemoryFabricStore;
import org.fairfabric.api.store.Mutation;
import org.fairfabric.api.store.StoredState;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class FabricServiceTest {
    /** A configuration for these tests is a JSON array of "device/port" attachment points. */
    static final NetworkConfigValidator PORT_LIST = json -> {
        JsonNode n = Json.parse(json);
        if (!n.isArray()) {
            throw new ValidationException(null, "expected an array");
        }
        Set<String> ports = new HashSet<>();
        n.forEach(p -> ports.add(p.asText()));
        return loc -> {
            if (!ports.contains(loc.toString())) {
                throw new ValidationException("location.port", "no port " + loc);
            }
        };
    };

    InMemoryFabricStore store;
    EventLog events;
    FabricService service;

    @BeforeEach
    void setUp() {
        store = new InMemoryFabricStore();
        events = new EventLog(Clock.fixed(Instant.parse("2026-01-01T00:00:00Z"), ZoneOffset.UTC), 100);
        service = new FabricService(store, PORT_LIST, events);
        service.putNetworkConfig("[\"leaf1/1\", \"leaf1/2\", \"leaf2/1\"]");
    }

    TenantDto tenant(String json) {
        return service.createTenant(TenantJson.create(Json.parse(json)));
    }

    HostDto host(String tenant, String json) {
        return service.addHost(HostJson.create(Json.parse(json), tenant));
    }

    @Test
    void createReadUpdateDeleteTenant() {
        TenantDto t = tenant("{\"id\":\"blue\",\"weight\":2,\"minBandwidthBps\":100000000}");
        assertEquals(new TenantDto("blue", "blue", 2.0, 100_000_000L), t);
        assertEquals(t, service.tenant("blue"));
        TenantDto u = service.updateTenant("blue", cur -> TenantJson.update(Json.parse("{\"weight\":3.5,\"minBandwidthBps\":null}"), cur));
        assertEquals(new TenantDto("blue", "blue", 3.5, null), u);
        assertEquals(u, store.load().tenants().get("blue"));
        service.deleteTenant("blue");
        assertEquals(List.of(), service.tenants());
        assertEquals(404, assertThrows(ApiException.class, () -> service.tenant("blue")).status());
    }

    @Test
    void refusedRequestsNameTheFieldAndChangeNothing() {
        tenant("{\"id\":\"blue\",\"name\":\"Blue\",\"weight\":1}");
        host("blue", "{\"id\":\"h1\",\"ip\":\"10.0.0.1\",\"mac\":\"00:00:00:00:00:01\",\"location\":{\"device\":\"leaf1\",\"port\":1}}");
        StoredState before = store.load();
        int eventsBefore = events.since(0, 1000).size();

        record Case(String what, int status, String field, Runnable call) { }
        List<Case> cases = List.of(
                new Case("malformed", 400, null, () -> tenant("{\"id\":")),
                new Case("unknown field", 400, "wieght", () -> tenant("{\"id\":\"red\",\"wieght\":1}")),
                new Case("weight as string", 400, "weight", () -> tenant("{\"id\":\"red\",\"weight\":\"1\"}")),
                new Case("weight missing", 422, "weight", () -> tenant("{\"id\":\"red\"}")),
                new Case("weight zero", 422, "weight", () -> tenant("{\"id\":\"red\",\"weight\":0}")),
                new Case("weight negative", 422, "weight", () -> tenant("{\"id\":\"red\",\"weight\":-1}")),
                new Case("fractional bandwidth", 400, "minBandwidthBps", () -> tenant("{\"id\":\"red\",\"weight\":1,\"minBandwidthBps\":1.5}")),
                new Case("bad id", 422, "id", () -> tenant("{\"id\":\"Red Team\",\"weight\":1}")),
                new Case("duplicate id", 409, "id", () -> tenant("{\"id\":\"blue\",\"weight\":1}")),
                new Case("duplicate name", 409, "name", () -> tenant("{\"id\":\"red\",\"name\":\"Blue\",\"weight\":1}")),
                new Case("empty update", 422, null, () -> service.updateTenant("blue", c -> TenantJson.update(Json.parse("{}"), c))),
                new Case("update id", 400, "id", () -> service.updateTenant("blue", c -> TenantJson.update(Json.parse("{\"id\":\"x\"}"), c))),
                new Case("update unknown tenant", 404, "tenantId", () -> service.updateTenant("red", c -> c)),
                new Case("host of unknown tenant", 404, "tenantId", () -> host("red", "{\"id\":\"h2\",\"ip\":\"10.0.0.2\",\"mac\":\"00:00:00:00:00:02\",\"location\":{\"device\":\"leaf1\",\"port\":2}}")),
                new Case("bad ip", 422, "ip", () -> host("blue", "{\"id\":\"h2\",\"ip\":\"10.0.0.256\",\"mac\":\"00:00:00:00:00:02\",\"location\":{\"device\":\"leaf1\",\"port\":2}}")),
                new Case("multicast mac", 422, "mac", () -> host("blue", "{\"id\":\"h2\",\"ip\":\"10.0.0.2\",\"mac\":\"01:00:00:00:00:02\",\"location\":{\"device\":\"leaf1\",\"port\":2}}")),
                new Case("port as string", 400, "location.port", () -> host("blue", "{\"id\":\"h2\",\"ip\":\"10.0.0.2\",\"mac\":\"00:00:00:00:00:02\",\"location\":{\"device\":\"leaf1\",\"port\":\"2\"}}")),
                new Case("location missing", 422, "location", () -> host("blue", "{\"id\":\"h2\",\"ip\":\"10.0.0.2\",\"mac\":\"00:00:00:00:00:02\"}")),
                new Case("unknown port", 422, "location.port", () -> host("blue", "{\"id\":\"h2\",\"ip\":\"10.0.0.2\",\"mac\":\"00:00:00:00:00:02\",\"location\":{\"device\":\"leaf1\",\"port\":9}}")),
                new Case("duplicate ip", 409, "ip", () -> host("blue", "{\"id\":\"h2\",\"ip\":\"10.0.0.1\",\"mac\":\"00:00:00:00:00:02\",\"location\":{\"device\":\"leaf1\",\"port\":2}}")),
                new Case("duplicate mac", 409, "mac", () -> host("blue", "{\"id\":\"h2\",\"ip\":\"10.0.0.2\",\"mac\":\"00:00:00:00:00:01\",\"location\":{\"device\":\"leaf1\",\"port\":2}}")),
                new Case("config strands host", 422, "location.port", () -> service.putNetworkConfig("[\"leaf2/1\"]")),
                new Case("session to unknown host", 422, "dstHost", () -> service.declareSession(SessionJson.create(Json.parse("{\"srcHost\":\"h1\",\"dstHost\":\"h9\"}")))),
                new Case("session to itself", 422, "dstHost", () -> service.declareSession(SessionJson.create(Json.parse("{\"srcHost\":\"h1\",\"dstHost\":\"h1\"}")))));
        for (Case c : cases) {
            ApiException e = assertThrows(ApiException.class, c.call::run, c.what);
            assertEquals(c.status, e.status(), c.what + ": " + e.getMessage());
            assertEquals(c.field, e.field(), c.what + ": " + e.getMessage());
            if (c.field != null) {
                assertTrue(e.getMessage().startsWith(c.field + ": "), e.getMessage());
            }
        }
        assertEquals(before, store.load());
        assertEquals(before, service.state());
        assertEquals(eventsBefore, events.since(0, 1000).size());
    }

    @Test
    void hostsAndSessionsFollowTheirTenant() {
        tenant("{\"id\":\"blue\",\"weight\":1}");
        tenant("{\"id\":\"red\",\"weight\":1}");
        host("blue", "{\"id\":\"h1\",\"ip\":\"10.0.0.1\",\"mac\":\"00:00:00:00:00:01\",\"location\":{\"device\":\"leaf1\",\"port\":1}}");
        host("blue", "{\"id\":\"h2\",\"ip\":\"10.0.0.2\",\"mac\":\"00:00:00:00:00:02\",\"location\":{\"device\":\"leaf1\",\"port\":2}}");
        host("red", "{\"id\":\"h3\",\"ip\":\"10.0.1.1\",\"mac\":\"00:00:00:00:01:01\",\"location\":{\"device\":\"leaf2\",\"port\":1}}");
        assertEquals(2, service.hosts("blue").size());
        assertEquals(404, assertThrows(ApiException.class, () -> service.host("red", "h1")).status());
        ApiException cross = assertThrows(ApiException.class,
                () -> service.declareSession(SessionJson.create(Json.parse("{\"srcHost\":\"h1\",\"dstHost\":\"h3\"}"))));
        assertEquals(422, cross.status());
        var s = service.declareSession(SessionJson.create(Json.parse("{\"srcHost\":\"h1\",\"dstHost\":\"h2\",\"demandBps\":5000}")));
        assertEquals("blue", s.tenantId);
        assertEquals(s.id, service.detectSession("h1", "h2").id);
        service.deleteTenant("blue");
        assertEquals(List.of(), service.sessions());
        assertEquals(List.of("h3"), service.allHosts().stream().map(h -> h.id).toList());
        assertEquals(new LocationDto("leaf2", 1), store.load().hosts().get("h3").location);
    }

    @Test
    void aFailingStoreChangesNothing() {
        FabricStore failing = new FabricStore() {
            @Override
            public StoredState load() {
                return StoredState.EMPTY;
            }

            @Override
            public void append(Mutation mutation) {
                throw new IllegalStateException("disk full");
            }

            @Override
            public void close() {
            }
        };
        FabricService s = new FabricService(failing, PORT_LIST, events);
        assertThrows(IllegalStateException.class, () -> s.createTenant(new TenantDto("blue", "blue", 1, null)));
        assertEquals(List.of(), s.tenants());
    }

    @Test
    void eventsAreNumberedInOrderAndPaged() {
        tenant("{\"id\":\"blue\",\"weight\":1}");
        tenant("{\"id\":\"red\",\"weight\":1}");
        List<EventDto> all = events.since(0, 10);
        assertEquals(List.of("network-config.updated", "tenant.created", "tenant.created"), all.stream().map(e -> e.type).toList());
        assertEquals(List.of(1L, 2L, 3L), all.stream().map(e -> e.seq).toList());
        assertEquals(List.of("red"), events.since(2, 10).stream().map(e -> e.subject).toList());
        assertEquals(1, events.since(0, 1).size());
        assertEquals(422, assertThrows(ApiException.class, () -> events.since(0, 0)).status());
    }

    @Test
    void stateIsRebuiltFromTheStore() {
        tenant("{\"id\":\"blue\",\"weight\":1}");
        host("blue", "{\"id\":\"h1\",\"ip\":\"10.0.0.1\",\"mac\":\"00:00:00:00:00:01\",\"location\":{\"device\":\"leaf1\",\"port\":1}}");
        FabricService again = new FabricService(store, PORT_LIST, events);
        assertEquals(service.state(), again.state());
        // the stored configuration is in force again: host attachment is still checked
        assertEquals(422, assertThrows(ApiException.class, () -> again.addHost(HostJson.create(Json.parse(
                "{\"id\":\"h2\",\"ip\":\"10.0.0.2\",\"mac\":\"00:00:00:00:00:02\",\"location\":{\"device\":\"leaf9\",\"port\":1}}"), "blue"))).status());
    }
}
