package org.fairfabric.onos.gui;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.fairfabric.api.dto.AllocationDto;
import org.fairfabric.api.dto.PathRateDto;
import org.fairfabric.api.dto.TenantDto;
import org.fairfabric.onos.fabric.FabricComponent;
import org.fairfabric.onos.fabric.FairfabricService;
import org.fairfabric.onos.fabric.TestFabric;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.onlab.osgi.ServiceDirectory;
import org.onosproject.ui.UiConnection;

/** The overlay's message handler, driven as ONOS's GUI web socket drives it. */
class FabricTopoMessageHandlerTest {
    final ObjectMapper mapper = new ObjectMapper();
    final List<ObjectNode> sent = new ArrayList<>();
    FabricComponent fabric;
    FabricTopoMessageHandler handler;

    @BeforeEach
    void start() {
        fabric = new TestFabric().start();
        handler = new FabricTopoMessageHandler();
        handler.init(new UiConnection() {
            @Override
            public void sendMessage(ObjectNode message) {
                sent.add(message);
            }

            @Override
            public void setCurrentView(String viewId) {
            }

            @Override
            public String currentView() {
                return "topo";
            }

            @Override
            public String userName() {
                return "onos";
            }

            @Override
            public org.onosproject.ui.model.topo.UiTopoLayout currentLayout() {
                return null;
            }

            @Override
            public void setCurrentLayout(org.onosproject.ui.model.topo.UiTopoLayout layout) {
            }

            @Override
            public void sendMessage(String type, ObjectNode payload) {
                ObjectNode m = mapper.createObjectNode().put("event", type);
                m.set("payload", payload);
                sent.add(m);
            }
        }, new ServiceDirectory() {
            @Override
            @SuppressWarnings("unchecked")
            public <T> T get(Class<T> c) {
                if (c == FairfabricService.class) {
                    return (T) fabric;
                }
                throw new IllegalArgumentException(c.getName());
            }
        });
    }

    @AfterEach
    void stop() {
        handler.destroy();
        TestFabric.stop(fabric);
    }

    void request(String type, ObjectNode payload) {
        ObjectNode m = mapper.createObjectNode().put("event", type);
        m.set("payload", payload);
        handler.process(m);
    }

    @Test
    void tenantSelectorListsTheTenants() {
        fabric.fabric().createTenant(new TenantDto("blue", "Blue", 2, null));
        fabric.fabric().createTenant(new TenantDto("red", "Red", 1, null));
        request(FabricTopoMessageHandler.TENANTS_REQUEST, mapper.createObjectNode());
        assertEquals(1, sent.size());
        assertEquals("fairfabricTenants", sent.get(0).get("event").asText());
        JsonNode tenants = sent.get(0).get("payload").get("tenants");
        assertEquals("blue", tenants.get(0).get("id").asText());
        assertEquals("Red", tenants.get(1).get("name").asText());
    }

    @Test
    void highlightsLabelLinkLoadsAndMarkTheSelectedTenantsPaths() {
        fabric.network().setLinkLoad("device:leaf1/3-device:spine1/1", 25e6);
        fabric.network().setLinkLoad("device:spine1/1-device:leaf1/3", 40e6);
        fabric.network().publishAllocations(List.of(new AllocationDto("s1", "blue", 1e6,
                List.of(new PathRateDto(1, List.of("device:leaf1", "device:spine1", "device:leaf2"), 1e6)), "t", true)));

        request(FabricTopoMessageHandler.HIGHLIGHTS_REQUEST, mapper.createObjectNode().put("tenantId", ""));
        Map<String, JsonNode> loads = links(sent.get(0));
        assertEquals("showHighlights", sent.get(0).get("event").asText());
        assertEquals(2, loads.size(), "one per cable, as the topology view draws them");
        assertEquals("40%", loads.get("device:leaf1/3-device:spine1/1").get("label").asText(), "the busier direction");
        assertEquals("secondary", loads.get("device:leaf1/3-device:spine1/1").get("css").asText());
        assertEquals("0%", loads.get("device:leaf2/3-device:spine1/2").get("label").asText());

        request(FabricTopoMessageHandler.HIGHLIGHTS_REQUEST, mapper.createObjectNode().put("tenantId", "blue"));
        Map<String, JsonNode> blue = links(sent.get(1));
        assertEquals("primary", blue.get("device:leaf1/3-device:spine1/1").get("css").asText());
        assertEquals("primary", blue.get("device:leaf2/3-device:spine1/2").get("css").asText());

        request(FabricTopoMessageHandler.HIGHLIGHTS_REQUEST, mapper.createObjectNode().put("tenantId", "red"));
        assertEquals("secondary", links(sent.get(2)).get("device:leaf1/3-device:spine1/1").get("css").asText());
    }

    private static Map<String, JsonNode> links(ObjectNode message) {
        Map<String, JsonNode> out = new HashMap<>();
        for (JsonNode l : message.get("payload").get("links")) {
            out.put(l.get("id").asText(), l);
        }
        return out;
    }
}
