package org.fairfabric.controller.netcfg;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import org.fairfabric.api.error.ValidationException;
import org.fairfabric.api.json.Json;
import org.junit.jupiter.api.Test;

/** The network configuration's host annotation {@code "fairfabric": {"shim": true, "bandwidth": 10}} (docs/controller.md). */
class HostShimAnnotationTest {
    static String withAnnotation(String json) throws Exception {
        ObjectNode root = (ObjectNode) Json.MAPPER.readTree(FabricConfigs.leafSpine(1, 1, 2, "127.0.0.1", 50001, 100));
        ObjectNode h1 = (ObjectNode) root.get("hosts").get("00:00:0a:00:01:01/None");
        h1.set("fairfabric", Json.MAPPER.readTree(json));
        return Json.MAPPER.writeValueAsString(root);
    }

    @Test
    void hostsRunTheShimOnlyWhenTheConfigurationSaysSo() throws Exception {
        NetworkConfig cfg = new NetworkConfigParser().parse(withAnnotation("{\"shim\": true}"));
        assertEquals(List.of(true, false), cfg.hosts.stream().map(h -> h.shim).toList());
        NetworkConfig off = new NetworkConfigParser().parse(withAnnotation("{\"shim\": false}"));
        assertEquals(List.of(false, false), off.hosts.stream().map(h -> h.shim).toList());
    }

    @Test
    void aDeclaredHostLinkCapacityIsTheHostCableInTheModelElseTheSwitchsFastestLink() throws Exception {
        NetworkConfig cfg = new NetworkConfigParser().parse(withAnnotation("{\"bandwidth\": 10}"));
        assertEquals(List.of(10L, 0L), cfg.hosts.stream().map(h -> h.bandwidthMbps).toList());
        assertEquals(List.of(false, false), cfg.hosts.stream().map(h -> h.shim).toList());
        org.fairfabric.core.model.Topology t = org.fairfabric.controller.core.CoreTopology.build(cfg, List.of());
        assertEquals(List.of(10_000_000L, 100_000_000L), cfg.hosts.stream()
                .map(h -> t.linksFrom(h.name).get(0).capacityBps()).toList());
    }

    @Test
    void aBadAnnotationIsRefusedNamingTheField() {
        for (String[] c : new String[][] {{"{\"shim\": \"yes\"}", "fairfabric.shim"},
                {"{\"bandwidth\": 0}", "fairfabric.bandwidth"}, {"{\"bandwidth\": 2.5}", "fairfabric.bandwidth"},
                {"{\"bandwidth\": \"10\"}", "fairfabric.bandwidth"},
                {"{\"shim\": true, \"agent\": 1}", "fairfabric.agent"}, {"true", "fairfabric"}}) {
            ValidationException e = assertThrows(ValidationException.class,
                    () -> new NetworkConfigParser().parse(withAnnotation(c[0])), c[0]);
            assertEquals("hosts[\"00:00:0a:00:01:01/None\"]." + c[1], e.field(), c[0]);
        }
    }
}
