package org.fairfabric.controller.failure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.fairfabric.api.dto.HostDto;
import org.fairfabric.api.dto.LocationDto;
import org.fairfabric.api.dto.SessionDto;
import org.fairfabric.api.dto.TenantDto;
import org.fairfabric.api.json.Json;
import org.fairfabric.controller.alloc.AllocationInputs;
import org.fairfabric.controller.alloc.AllocationModel;
import org.fairfabric.controller.alloc.AllocationResult;
import org.fairfabric.controller.alloc.ProblemAdapter;
import org.fairfabric.controller.netcfg.FabricConfigs;
import org.fairfabric.controller.netcfg.NetworkConfig;
import org.fairfabric.controller.netcfg.NetworkConfigParser;
import org.fairfabric.core.allocator.ExactAllocator;
import org.fairfabric.core.model.Link;
import org.fairfabric.core.model.Path;
import org.fairfabric.core.model.PathEnumerator;
import org.junit.jupiter.api.Test;

/** Which path ids a shim host is told are dead (ff.ctl.deadpaths.v1), on a 2-leaf, 2-spine fabric. */
class DeadPathsTest {
    static AllocationResult allocate(Set<String> down) throws Exception {
        ObjectNode root = (ObjectNode) Json.MAPPER.readTree(FabricConfigs.leafSpine(2, 2, 2, "127.0.0.1", 50001, 100));
        root.get("hosts").fields().forEachRemaining(e -> {
            if (e.getValue().get("basic").get("name").asText().equals("h1")) {
                ((ObjectNode) e.getValue()).putObject("fairfabric").put("shim", true);
            }
        });
        NetworkConfig cfg = new NetworkConfigParser().parse(Json.MAPPER.writeValueAsString(root));
        List<HostDto> hosts = new ArrayList<>();
        for (NetworkConfig.Host h : cfg.hosts) {
            hosts.add(new HostDto(h.name, "blue", h.ips.get(0), h.mac, new LocationDto(h.location.device, h.location.port)));
        }
        List<SessionDto> sessions = List.of(new SessionDto("s13", "blue", "h1", "h3", null, "api"),
                new SessionDto("s12", "blue", "h1", "h2", null, "api"), new SessionDto("s31", "blue", "h3", "h1", null, "api"));
        AllocationModel m = ProblemAdapter.build(new AllocationInputs(cfg, List.of(new TenantDto("blue", "Blue", 1, null)), hosts, sessions, down));
        return AllocationResult.of(1, "2026-11-26T00:00:00Z", m, new ExactAllocator(1e-8, 200).solve(m.problem()));
    }

    @Test
    void aDownUplinkKillsThePathsOverItForTheShimHostsSessionsOnly() throws Exception {
        AllocationResult before = allocate(Set.of());
        assertEquals(Map.of("h1", Map.of()), DeadPaths.of(before, Set.of()), "nothing down: every shim host gets an empty list");

        String leaf1 = before.model().topology().host("h1").attachment().elementId();
        Link up = before.model().topology().upwardLinks(leaf1).get(1);
        List<Path> paths = new PathEnumerator(before.model().topology()).paths("h1", "h3");
        List<Integer> overIt = new ArrayList<>();
        List<Integer> others = new ArrayList<>();
        for (Path p : paths) {
            (p.traverses(up.id()) ? overIt : others).add(p.id());
        }
        assertEquals(1, overIt.size(), "one of the two leaf-spine paths crosses " + up.id() + ": " + paths);
        assertTrue(overIt.get(0) > 0);

        // the allocation made before the failure and the one made after it name the same dead path:
        // the list does not depend on whether the table in force still has that path
        for (AllocationResult r : List.of(before, allocate(Set.of(up.id())))) {
            Map<String, Map<String, DeadPaths.SessionPaths>> dead = DeadPaths.of(r, Set.of(up.id()));
            assertEquals(Map.of("h1", Map.of("s13", new DeadPaths.SessionPaths(overIt, others))), dead,
                    "h1's session to the other leaf loses the path over " + up.id() + "; its session on its own leaf and h3's (no shim) are not listed");
        }
    }

    @Test
    void theRecordHasTheDocumentedShape() throws Exception {
        JsonNode n = Json.MAPPER.readTree(DeadPathsJson.write("h1", 42, Map.of("t1/vm3-vm7", new DeadPaths.SessionPaths(List.of(2), List.of(1, 3))),
                List.of("b", "a")));
        assertEquals(Json.MAPPER.readTree("{\"schema\":1,\"host\":\"h1\",\"version\":42,\"sessions\":[{\"id\":\"t1/vm3-vm7\",\"dead\":[2],\"alive\":[1,3]}],"
                + "\"links\":[\"a\",\"b\"]}"), n);
    }
}
