package org.fairfabric.controller.netcfg;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The sample configurations in docs/examples are golden files: regenerate with -Dgolden.update=true. */
class FabricConfigsTest {
    static final Path EXAMPLES = Path.of("../../docs/examples");

    static String generate(String name) {
        switch (name) {
            case "netcfg-fattree-k4.json":
                return FabricConfigs.fatTree(4, "127.0.0.1", 50001, 100);
            case "netcfg-leafspine-4x4.json":
                return FabricConfigs.leafSpine(4, 4, 4, "127.0.0.1", 50001, 100);
            default:
                throw new IllegalArgumentException(name);
        }
    }

    @ParameterizedTest
    @CsvSource({"netcfg-fattree-k4.json, 20, 32, 16", "netcfg-leafspine-4x4.json, 8, 16, 16"})
    void sampleIsGoldenAndDescribesTheFabric(String file, int devices, int links, int hosts) throws Exception {
        String generated = generate(file);
        Path golden = EXAMPLES.resolve(file);
        if (Boolean.getBoolean("golden.update")) {
            Files.createDirectories(EXAMPLES);
            Files.writeString(golden, generated);
        }
        assertEquals(Files.readString(golden), generated, file + " differs from the generator; rerun with -Dgolden.update=true if intended");

        NetworkConfig cfg = new NetworkConfigParser().parse(generated);
        assertEquals(devices, cfg.devices.size());
        assertEquals(links, cfg.links.size());
        assertEquals(hosts, cfg.hosts.size());
        // every switch port is used by exactly one host or one link end
        Map<NetworkConfig.Point, Integer> use = new HashMap<>();
        cfg.links.forEach(l -> {
            use.merge(l.a, 1, Integer::sum);
            use.merge(l.b, 1, Integer::sum);
        });
        cfg.hosts.forEach(h -> use.merge(h.location, 1, Integer::sum));
        assertEquals(cfg.portNames.keySet(), use.keySet());
        assertTrue(use.values().stream().allMatch(n -> n == 1));
        // distinct P4Runtime endpoints
        assertEquals(devices, cfg.devices.values().stream().map(d -> d.address.port).distinct().count());
    }
}
