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
}
