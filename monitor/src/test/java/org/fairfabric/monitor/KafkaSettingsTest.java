package org.fairfabric.monitor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Map;
import org.junit.jupiter.api.Test;

class KafkaSettingsTest {
    @Test
    void acceptsHostPortLists() {
        assertEquals("127.0.0.1:9092,b:1", KafkaSettings.bootstrapServers(Map.of("FAIRFABRIC_KAFKA", "127.0.0.1:9092,b:1")));
    }

    @Test
    void rejectsMissingOrMalformedAddresses() {
        assertThrows(IllegalStateException.class, () -> KafkaSettings.bootstrapServers(Map.of()));
        assertThrows(IllegalStateException.class, () -> KafkaSettings.bootstrapServers(Map.of("FAIRFABRIC_KAFKA", "localhost")));
        assertThrows(IllegalStateException.class, () -> KafkaSettings.bootstrapServers(Map.of("FAIRFABRIC_KAFKA", "h:port")));
    }
}
