package org.fairfabric.controller;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.fairfabric.controller.rest.HttpJson;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Tenants, hosts and the network configuration survive kill -9: no acknowledged write is lost. */
class ControllerCrashTest {
    static final String TOKEN = "crash-test-token-0123456789";
    static final String NETCFG = Path.of("../../docs/examples/netcfg-fattree-k4.json").toAbsolutePath().toString();

    @TempDir
    Path data;

    @Test
    void acknowledgedWritesSurviveKill9() throws Exception {
        // tenant id -> weight it must have after the restart (null: it must be gone), for acknowledged writes only
        Map<String, Integer> expected = new java.util.LinkedHashMap<>();
        List<String> ackedHosts = new ArrayList<>();
        String[] inFlight = new String[1];
        try (ControllerProcess first = ControllerProcess.start(Map.of("FF_API_TOKEN", TOKEN),
                "--data-dir", data.toString(), "--http-port", "0", "--netcfg", NETCFG)) {
            HttpJson http = new HttpJson(first.baseUrl, TOKEN);
            Throwable[] refused = new Throwable[1];
            Thread writer = new Thread(() -> {
                for (int i = 0; i < 400; i++) {
                    try {
                        step(http, i, expected, ackedHosts, inFlight);
                    } catch (AssertionError e) {
                        refused[0] = e; // a write the live controller refused: the test fails below
                        return;
                    } catch (RuntimeException e) {
                        return; // the controller died under us
                    }
                }
            });
            writer.start();
            while (writer.isAlive()) {
                synchronized (expected) {
                    if (expected.size() >= 40) {
                        break;
                    }
                }
                Thread.sleep(5);
            }
            if (refused[0] != null) {
                throw new AssertionError("the controller refused a write before the kill", refused[0]);
            }
            first.kill9();
            writer.join(TimeUnit.SECONDS.toMillis(30));
            assertTrue(!first.process.isAlive());
        }
        Map<String, Integer> tenants;
        List<String> hosts;
        synchronized (expected) {
            tenants = new java.util.LinkedHashMap<>(expected);
            hosts = List.copyOf(ackedHosts);
            tenants.remove(inFlight[0]); // the write that was under way when the process died may or may not have happened
        }
        assertTrue(tenants.size() >= 35 && hosts.size() == 16, "writes before the kill: " + tenants.size() + " tenants, " + hosts.size() + " hosts");
        assertTrue(tenants.containsValue(null), "some acknowledged deletes were checked");

        // restart without --netcfg: the configuration must come back from the journal too
        try (ControllerProcess second = ControllerProcess.start(Map.of("FF_API_TOKEN", TOKEN),
                "--data-dir", data.toString(), "--http-port", "0")) {
            HttpJson http = new HttpJson(second.baseUrl, TOKEN);
            for (Map.Entry<String, Integer> t : tenants.entrySet()) {
                HttpJson.Answer a = http.get("/api/v1/tenants/" + t.getKey());
                if (t.getValue() == null) {
                    assertEquals(404, a.status, "tenant " + t.getKey() + " was deleted (acknowledged) but is back");
                } else {
                    assertEquals(200, a.status, "tenant " + t.getKey() + " lost");
                    assertEquals((int) t.getValue(), a.json().get("weight").asInt(), "tenant " + t.getKey() + ": acknowledged update lost");
                }
            }
            for (String h : hosts) {
                String[] th = h.split("/");
                assertEquals(200, http.get("/api/v1/tenants/" + th[0] + "/hosts/" + th[1]).status, "host " + h + " lost");
            }
            assertEquals(20, http.get("/api/v1/topology").json().get("devices").size());
            // and the restarted controller takes writes
            assertEquals(201, http.send("POST", "/api/v1/tenants", "{\"id\":\"after\",\"weight\":1}").status);
        }
    }

    /** Step i: create tenant t<i> (and a host for the first 16); every third step re-weights it; every fifth deletes t<i-1>. */
    private static void step(HttpJson http, int i, Map<String, Integer> expected, List<String> ackedHosts, String[] inFlight) {
        String t = "t" + i;
        synchronized (expected) {
            inFlight[0] = t;
        }
        if (http.send("POST", "/api/v1/tenants", "{\"id\":\"" + t + "\",\"weight\":" + (i + 1) + "}").status != 201) {
            throw new IllegalStateException("create " + t);
        }
        synchronized (expected) {
            expected.put(t, i + 1);
        }
        if (i < 16) {
            String host = String.format("{\"id\":\"h%d\",\"ip\":\"10.%d.%d.%d\",\"mac\":\"00:00:0a:%02x:%02x:%02x\","
                    + "\"location\":{\"device\":\"device:edge%d%d\",\"port\":%d}}",
                    i, i / 4, (i / 2) % 2, 2 + i % 2, i / 4, (i / 2) % 2, 2 + i % 2, i / 4, (i / 2) % 2, 1 + i % 2);
            if (http.send("POST", "/api/v1/tenants/" + t + "/hosts", host).status != 201) {
                throw new AssertionError("host " + i);
            }
            synchronized (expected) {
                ackedHosts.add(t + "/h" + i);
            }
        }
        if (i % 3 == 0) {
            if (http.send("PATCH", "/api/v1/tenants/" + t, "{\"weight\":" + (1000 + i) + "}").status != 200) {
                throw new IllegalStateException("patch " + t);
            }
            synchronized (expected) {
                expected.put(t, 1000 + i);
            }
        }
        if (i % 5 == 0 && i >= 20) {
            String victim = "t" + (i - 1);
            synchronized (expected) {
                inFlight[0] = victim;
            }
            if (http.send("DELETE", "/api/v1/tenants/" + victim, null).status != 204) {
                throw new IllegalStateException("delete " + victim);
            }
            synchronized (expected) {
                expected.put(victim, null);
            }
        }
    }

    @Test
    void refusesToStartWithoutAToken() throws Exception {
        Process p = ControllerProcess.command(Map.of(), "--data-dir", data.toString(), "--http-port", "0").start();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        String out = new String(p.getInputStream().readAllBytes());
        assertEquals(2, p.exitValue(), out);
        assertTrue(out.contains("no API token"), out);
    }
}
