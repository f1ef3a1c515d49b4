package org.fairfabric.controller.netcfg;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import org.fairfabric.api.error.ValidationException;
import org.fairfabric.api.json.Json;
import org.junit.jupiter.api.Test;

/** The network configuration's host annotation {@code "fairfabric": {"shim": true}} (docs/controller.md). */
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
    void aBadAnnotationIsRefusedNamingTheField() {
        for (String[] c : new String[][] {{"{\"shim\": \"yes\"}", "fairfabric.shim"}, {"{}", "fairfabric.shim"},
                {"{\"shim\": true, \"agent\": 1}", "fairfabric.agent"}, {"true", "fairfabric"}}) {
            ValidationException e = assertThrows(ValidationException.class,
                    () -> new NetworkConfigParser().parse(withAnnotation(c[0])), c[0]);
            assertEquals("hosts[\"00:00:0a:00:01:01/None\"]." + c[1], e.field(), c[0]);
        }
    }
}
