package org.fairfabric.controller.netcfg;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.fairfabric.api.dto.LocationDto;
import org.fairfabric.api.error.ApiException;
import org.fairfabric.api.service.DeviceCatalog;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class NetworkConfigParserTest {
    static final String DEV = "\"device:l1\":{\"basic\":{\"managementAddress\":\"grpc://127.0.0.1:50001?device_id=1\",\"pipeconf\":\"p\"},\"fairfabric\":{\"role\":\"leaf\"}},"
            + "\"device:s1\":{\"basic\":{\"managementAddress\":\"grpc://127.0.0.1:50002?device_id=2\",\"pipeconf\":\"p\"},\"fairfabric\":{\"role\":\"spine\"}}";
    static final String LINK = "\"device:l1/3-device:s1/1\":{\"basic\":{\"bandwidth\":100}}";

    static String cfg(String devices, String links, String hosts) {
        return "{\"devices\":{" + devices + "},\"links\":{" + links + "},\"hosts\":{" + hosts + "}}";
    }

    @Test
    void readsAMinimalFabric() {
        NetworkConfig c = new NetworkConfigParser().parse(cfg(DEV, LINK,
                "\"00:00:0a:00:00:01/None\":{\"basic\":{\"ips\":[\"10.0.0.1\"],\"locations\":[\"device:l1/1\"]}}"));
        assertEquals(2, c.devices.size());
        assertEquals(50002, c.devices.get("device:s1").address.port);
        assertEquals(2, c.devices.get("device:s1").address.deviceId);
        assertEquals("spine", c.devices.get("device:s1").role);
        assertEquals(100, c.links.get(0).bandwidthMbps);
        assertEquals("device:l1/1", c.hosts.get(0).location.toString());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "{\"devices\":{}}|devices|at least one device",
        "{\"devicez\":{}}|devicez|unknown section",
        "{\"devices\":{\"device:l1\":{\"basic\":{\"managementAddress\":\"http://x:1\",\"pipeconf\":\"p\"},\"fairfabric\":{\"role\":\"leaf\"}}}}|devices[\"device:l1\"].basic.managementAddress|grpc://",
        "{\"devices\":{\"device:l1\":{\"basic\":{\"managementAddress\":\"grpc://x:1\",\"pipeconf\":\"p\"},\"fairfabric\":{\"role\":\"leaf\"}}}}|devices[\"device:l1\"].basic.managementAddress|device_id",
        "{\"devices\":{\"device:l1\":{\"basic\":{\"managementAddress\":\"grpc://x:1?device_id=1\"},\"fairfabric\":{\"role\":\"leaf\"}}}}|devices[\"device:l1\"].basic.pipeconf|required",
        "{\"devices\":{\"device:l1\":{\"basic\":{\"managementAddress\":\"grpc://x:1?device_id=1\",\"pipeconf\":\"p\"},\"fairfabric\":{\"role\":\"tor\"}}}}|devices[\"device:l1\"].fairfabric.role|not one of",
    })
    void namesTheFieldAtFault(String json, String field, String words) {
        ApiException e = assertThrows(ApiException.class, () -> new NetworkConfigParser().parse(json));
        assertEquals(field, e.field(), e.getMessage());
        assertTrue(e.getMessage().contains(words), e.getMessage());
    }

    @Test
    void refusesInconsistentTopologies() {
        NetworkConfigParser p = new NetworkConfigParser();
        assertEquals("links[\"device:l1/3-device:s9/1\"]", assertThrows(ApiException.class,
                () -> p.parse(cfg(DEV, "\"device:l1/3-device:s9/1\":{\"basic\":{\"bandwidth\":100}}", ""))).field());
        assertEquals("links[\"device:l1/3-device:s1/1\"].basic.bandwidth", assertThrows(ApiException.class,
                () -> p.parse(cfg(DEV, "\"device:l1/3-device:s1/1\":{\"basic\":{}}", ""))).field());
        assertTrue(assertThrows(ApiException.class, () -> p.parse(cfg(DEV, LINK + ",\"device:l1/3-device:s1/2\":{\"basic\":{\"bandwidth\":1}}", "")))
                .getMessage().contains("already used"));
        assertEquals("hosts[\"00:00:0a:00:00:01/None\"].basic.locations[0]", assertThrows(ApiException.class, () -> p.parse(cfg(DEV, LINK,
                "\"00:00:0a:00:00:01/None\":{\"basic\":{\"ips\":[\"10.0.0.1\"],\"locations\":[\"device:l1/3\"]}}"))).field());
        assertEquals(400, assertThrows(ApiException.class, () -> p.parse("[1]")).status());
    }

    @Test
    void catalogAllowsHostsOnlyOnEdgePortsOfKnownDevices() {
        DeviceCatalog c = new NetworkConfigParser().validate(cfg(DEV, LINK, ""));
        c.checkHostAttachment(new LocationDto("device:l1", 1));
        assertEquals("location.device", assertThrows(ApiException.class, () -> c.checkHostAttachment(new LocationDto("device:x", 1))).field());
        assertEquals("location.port", assertThrows(ApiException.class, () -> c.checkHostAttachment(new LocationDto("device:l1", 3))).field());
    }
}
