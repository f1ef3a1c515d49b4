package org.fairfabric.controller.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class AllocateCommandTest {
    private String stdout;
    private String stderr;

    private int run(String stdin, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int rc = AllocateCommand.run(args, new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)),
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        stdout = out.toString(StandardCharsets.UTF_8);
        stderr = err.toString(StandardCharsets.UTF_8);
        return rc;
    }

    private static final String ISSUE_EXAMPLE = "{\"links\": [{\"id\": \"e0.0>a0.1\", \"capacity\": 1000.0}],"
            + " \"sessions\": [{\"id\": \"s7\", \"weight\": 2.0, \"demand\": 40.0, \"minRate\": 5.0, \"extra\": 1,"
            + " \"paths\": [[\"e0.0>a0.1\"]]}, {\"id\": \"s8\", \"weight\": 1.0, \"paths\": [[\"e0.0>a0.1\"]]}]}";

    @Test
    void solvesTheIssueExampleAndPrintsTheDocumentedShape() throws Exception {
        assertEquals(0, run(ISSUE_EXAMPLE, "--tolerance", "1e-9", "-"));
        JsonNode out = ProblemJson.MAPPER.readTree(stdout);
        assertEquals("exact", out.get("mode").asText());
        assertTrue(out.get("converged").asBoolean());
        assertTrue(out.get("iterations").asInt() > 0);
        assertEquals(1e-9, out.get("tolerance").asDouble());
        assertEquals("s7", out.get("sessions").get(0).get("id").asText());
        assertEquals(40.0, out.get("sessions").get(0).get("rate").asDouble(), 1e-4);
        assertEquals(960.0, out.get("sessions").get(1).get("rate").asDouble(), 1e-3);
        assertEquals(1, out.get("sessions").get(1).get("pathRates").size());
        JsonNode link = out.get("links").get(0);
        assertEquals("e0.0>a0.1", link.get("id").asText());
        assertEquals(1000.0, link.get("load").asDouble(), 1e-3);
        assertEquals(1.0 / 960, link.get("price").asDouble(), 1e-6);
    }

    @Test
    void paperModeAndFileInput(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("p.json");
        Files.writeString(file, ISSUE_EXAMPLE);
        assertEquals(0, run("", "--mode", "paper", file.toString()));
        JsonNode out = ProblemJson.MAPPER.readTree(stdout);
        assertEquals("paper", out.get("mode").asText());
        assertTrue(out.get("tolerance").isNull());
        assertTrue(stderr.contains("ignores demand and minRate"));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "{\"links\":[{\"id\":\"a\",\"capacity\":-1}],\"sessions\":[]} | links[0].capacity: must be a positive finite number",
        "{\"links\":[{\"id\":\"a\",\"capacity\":NaN}],\"sessions\":[]} | links[0].capacity: must be a positive finite number",
        "{\"links\":[{\"id\":\"a\",\"capacity\":\"big\"}],\"sessions\":[]} | links[0].capacity: must be a number",
        "{\"links\":[{\"id\":\"a\",\"capacity\":1}],\"sessions\":[{\"id\":\"s\",\"weight\":0,\"paths\":[[\"a\"]]}]} | sessions[0].weight: must be a positive finite number",
        "{\"links\":[{\"id\":\"a\",\"capacity\":1}],\"sessions\":[{\"id\":\"s\",\"weight\":1,\"paths\":[[]]}]} | sessions[0].paths[0]: empty path",
        "{\"links\":[{\"id\":\"a\",\"capacity\":1}],\"sessions\":[{\"id\":\"s\",\"weight\":1,\"paths\":[[\"a\"]]},{\"id\":\"t\",\"weight\":1,\"paths\":[[\"a\"],[\"a\"]]},{\"id\":\"u\",\"weight\":1,\"paths\":[[\"a\"]]},{\"id\":\"v\",\"weight\":1,\"paths\":[[\"a\"],[\"x\"]]}]} | sessions[3].paths[1][0]: unknown link \"x\"",
        "{\"links\":[{\"id\":\"a\",\"capacity\":1},{\"id\":\"a\",\"capacity\":1}],\"sessions\":[]} | links[1].id: duplicate link id \"a\"",
        "{\"links\":[{\"id\":\"a\",\"capacity\":1}],\"sessions\":[{\"id\":\"s\",\"weight\":1,\"paths\":[[\"a\"]]},{\"id\":\"s\",\"weight\":1,\"paths\":[[\"a\"]]}]} | sessions[1].id: duplicate session id \"s\"",
        "{\"links\":[{\"id\":\"a\",\"capacity\":1}]} | sessions: missing",
        "[1, 2] | (document): must be a JSON object",
        "{not json | (document): not valid JSON",
    })
    void invalidInputExitsTwoNamesTheFieldAndPrintsNothing(String problem, String message) {
        assertEquals(2, run(problem, "-"));
        assertEquals("", stdout);
        assertTrue(stderr.startsWith("allocate: " + message), stderr);
    }

    @Test
    void badOptionsExitTwo() {
        assertEquals(2, run(ISSUE_EXAMPLE, "--mode", "fast", "-"));
        assertEquals("", stdout);
        assertTrue(stderr.contains("--mode: must be exact or paper"));
        assertEquals(2, run(ISSUE_EXAMPLE, "--tolerance", "2", "-"));
        assertEquals(2, run(ISSUE_EXAMPLE));
        assertEquals(2, run("", "/nonexistent/problem.json"));
        assertTrue(stderr.contains("no such file"));
    }

    @Test
    void infeasibleGuaranteesExitThree() {
        String problem = "{\"links\":[{\"id\":\"a\",\"capacity\":1}],\"sessions\":["
                + "{\"id\":\"s\",\"weight\":1,\"minRate\":0.7,\"paths\":[[\"a\"]]},"
                + "{\"id\":\"t\",\"weight\":1,\"minRate\":0.7,\"paths\":[[\"a\"]]}]}";
        assertEquals(3, run(problem, "-"));
        assertEquals("", stdout);
        assertTrue(stderr.contains("infeasible: the minimum rates cannot all be met"), stderr);
    }

    @Test
    void generatorIsDeterministicAndItsOutputSolves() throws Exception {
        assertEquals(0, run("", "--generate", "k=4,sessions=8,paths=4,seed=9"));
        String first = stdout;
        assertEquals(0, run("", "--generate", "k=4,sessions=8,paths=4,seed=9"));
        assertEquals(first, stdout);
        JsonNode problem = ProblemJson.MAPPER.readTree(first);
        assertEquals(96, problem.get("links").size());
        assertEquals(8, problem.get("sessions").size());
        assertEquals(0, run(first, "-"));
        assertTrue(ProblemJson.MAPPER.readTree(stdout).get("converged").asBoolean());
        assertEquals(2, run("", "--generate", "k=5,sessions=8"));
        assertTrue(stderr.contains("k must be an even number"), stderr);
    }
}
