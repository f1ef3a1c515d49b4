package org.fairfabric.controller;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ControllerSettingsTest {

    @Test
    void withPipelineKeepsTheEchoInterval() {
        ControllerSettings parsed = ControllerSettings.parse(new String[] {"--data-dir", "/tmp/ff-settings", "--echo-interval-ms", "1000"}, Map.of("FF_API_TOKEN", "settings-test-token"));
        ControllerSettings piped = parsed.withPipeline(Path.of("p4info.txt"), Path.of("fabric.json"));
        assertEquals(1000, piped.echoIntervalMs);
        assertEquals(Path.of("p4info.txt"), piped.p4info);
    }

    @Test
    void anEchoIntervalOutOfRangeIsRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ControllerSettings.parse(new String[] {"--echo-interval-ms", "5"}, Map.of()));
        assertEquals("--echo-interval-ms must be 10-60000, got '5'", e.getMessage());
    }

    @Test
    void routingIsPinnedUnlessEcmpIsAskedForAndOtherWordsAreRefused() {
        Map<String, String> env = Map.of("FF_API_TOKEN", "settings-test-token");
        ControllerSettings plain = ControllerSettings.parse(new String[] {"--data-dir", "/tmp/ff-settings"}, env);
        assertEquals(org.fairfabric.controller.routing.RoutingMode.PINNED, plain.routing);
        ControllerSettings ecmp = ControllerSettings.parse(new String[] {"--data-dir", "/tmp/ff-settings", "--routing", "ecmp"}, env);
        assertEquals(org.fairfabric.controller.routing.RoutingMode.ECMP, ecmp.routing);
        assertEquals(org.fairfabric.controller.routing.RoutingMode.ECMP,
                ecmp.withPipeline(Path.of("p4info.txt"), Path.of("fabric.json")).withHttps(null).routing, "kept by the with* copies");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ControllerSettings.parse(new String[] {"--data-dir", "/tmp/ff-settings", "--routing", "hash"}, env));
        assertEquals("--routing must be pinned or ecmp, got 'hash'", e.getMessage());
    }

    @Test
    void theHeadroomIsNoneUnlessGivenKeptByTheCopiesAndCheckedOnTheCommandLine() {
        Map<String, String> env = Map.of("FF_API_TOKEN", "settings-test-token");
        assertEquals(0.0, ControllerSettings.parse(new String[] {"--data-dir", "/tmp/ff-settings"}, env).headroom.fraction());
        ControllerSettings some = ControllerSettings.parse(new String[] {"--data-dir", "/tmp/ff-settings", "--headroom", "0.03"}, env);
        assertEquals(0.03, some.withPipeline(Path.of("p4info.txt"), Path.of("fabric.json")).withRouting(
                org.fairfabric.controller.routing.RoutingMode.ECMP).headroom.fraction());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ControllerSettings.parse(new String[] {"--data-dir", "/tmp/ff-settings", "--headroom", "0.9"}, env));
        assertEquals("--headroom must be a fraction from 0 to 0.5 (e.g. 0.03), got '0.9'", e.getMessage());
    }
}
