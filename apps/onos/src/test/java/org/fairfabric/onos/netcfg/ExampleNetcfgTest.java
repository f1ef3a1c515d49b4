package org.fairfabric.onos.netcfg;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.fairfabric.pipeconf.PipeconfLoader;
import org.junit.jupiter.api.Test;

/** The example network configurations, pushed to ONOS with onos-netcfg, name the pipeconf the app registers. */
class ExampleNetcfgTest {
    @Test
    void everyExampleDeviceUsesTheRegisteredPipeconf() throws Exception {
        List<Path> examples;
        try (Stream<Path> s = Files.list(Path.of("../../docs/examples"))) {
            examples = s.filter(p -> p.toString().endsWith(".json") && p.getFileName().toString().startsWith("netcfg-"))
                    .collect(Collectors.toList());
        }
        assertFalse(examples.isEmpty());
        for (Path p : examples) {
            JsonNode devices = new ObjectMapper().readTree(p.toFile()).get("devices");
            for (Iterator<String> it = devices.fieldNames(); it.hasNext(); ) {
                String id = it.next();
                assertEquals(PipeconfLoader.PIPECONF_ID.id(), devices.get(id).get("basic").get("pipeconf").asText(), p + " " + id);
            }
        }
    }
}
