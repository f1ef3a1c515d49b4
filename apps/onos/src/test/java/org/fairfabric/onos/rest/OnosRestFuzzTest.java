package org.fairfabric.onos.rest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.fairfabric.onos.fabric.FabricComponent;
import org.fairfabric.onos.fabric.TestFabric;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The ONOS REST API (the app's JAX-RS resources, served by onos-rest's Jersey test container over
 * the app's {@link FabricComponent} on a test fabric) fuzzed by schemathesis with every check, as
 * mininet/tests/test_rest_contract.py does for the embedded API; any finding fails the test.
 *
 * <p>The document is docs/api/openapi.yaml as ONOS serves it: the paths under /v1 (the bundle's
 * context /onos/fairfabric is the container's root here), without the {@code x-embedded-only}
 * operations, and without the bearer scheme: under ONOS the web container authenticates (ONOS's
 * users), not the resources. schemathesis is the pinned one of the project's virtual environment
 * ({@code $FF_VENV}, default .venv; `./fairfabric setup` installs it); its settings are
 * mininet/tests/schemathesis.toml's.
 */
class OnosRestFuzzTest {
    static final Path ROOT = Path.of("../..").toAbsolutePath().normalize();
    static final Path DOCUMENT = ROOT.resolve("docs/api/openapi.yaml");
    static final Path CONFIG = ROOT.resolve("mininet/tests/schemathesis.toml");
    static final int EXAMPLES = Integer.parseInt(System.getenv().getOrDefault("FF_ONOS_FUZZ_EXAMPLES", "20"));
    static final String SEED = System.getenv().getOrDefault("FF_FUZZ_SEED", "21");

    FabricComponent fabric;
    RestServer http;

    @BeforeEach
    void start() throws Exception {
        fabric = new TestFabric().start();
        http = new RestServer(fabric);
        http.start();
    }

    @AfterEach
    void stop() throws Exception {
        http.stop();
        TestFabric.stop(fabric);
    }

    @Test
    void onosApiHoldsItsOpenApiContractUnderFuzzing(@TempDir Path dir) throws Exception {
        Path document = dir.resolve("openapi-onos.json");
        Files.writeString(document, new ObjectMapper().writerWithDefaultPrettyPrinter()
                .writeValueAsString(onosDocument()), StandardCharsets.UTF_8);
        String base = http.target().getUri().toString().replaceAll("/$", "");
        assertEquals(200, http.get("/v1/health").status, "the test container serves the app");

        List<String> cmd = new ArrayList<>(List.of(schemathesis().toString(), "--config-file", CONFIG.toString(),
                "run", document.toString(), "--url", base, "--checks", "all",
                "--max-examples", String.valueOf(EXAMPLES), "--seed", SEED, "--workers", "1",
                "--request-timeout", "20", "--no-color", "--generation-database", "none",
                "--exclude-operation-id", "getStream"));
        Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true).start();
        byte[] out = p.getInputStream().readAllBytes();
        assertTrue(p.waitFor(15, TimeUnit.MINUTES), "schemathesis did not finish");
        String report = new String(out, StandardCharsets.UTF_8);
        System.out.println(report);
        assertEquals(0, p.exitValue(), "schemathesis found problems in the ONOS API:\n"
                + report.substring(Math.max(0, report.length() - 20000)));
    }

    /** docs/api/openapi.yaml with the paths and security of the ONOS deployment (see the class comment). */
    static JsonNode onosDocument() throws IOException {
        ObjectNode doc = (ObjectNode) new ObjectMapper(new YAMLFactory()).readTree(DOCUMENT.toFile());
        ObjectNode paths = doc.objectNode();
        for (Iterator<Map.Entry<String, JsonNode>> it = doc.get("paths").fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            ObjectNode item = ((ObjectNode) e.getValue()).deepCopy();
            List<String> drop = new ArrayList<>();
            for (Iterator<Map.Entry<String, JsonNode>> ops = item.fields(); ops.hasNext(); ) {
                Map.Entry<String, JsonNode> op = ops.next();
                if (op.getValue().path("x-embedded-only").asBoolean(false)) {
                    drop.add(op.getKey());
                } else if (op.getValue().isObject()) {
                    ((ObjectNode) op.getValue()).remove("security");
                }
            }
            item.remove(drop);
            if (item.size() > 0) {
                paths.set("/" + ApiPaths.VERSION + e.getKey().substring(ApiPaths.EMBEDDED_BASE.length()), item);
            }
        }
        doc.set("paths", paths);
        doc.remove("security");
        doc.putArray("servers").addObject().put("url", "/");
        return doc;
    }

    static Path schemathesis() {
        String venv = System.getenv().getOrDefault("FF_VENV", ROOT.resolve(".venv").toString());
        Path bin = Path.of(venv, "bin", "schemathesis");
        assertTrue(Files.isExecutable(bin), bin + " is missing: run ./fairfabric setup (it installs the pinned schemathesis)");
        return bin;
    }
}
