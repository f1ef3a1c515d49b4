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

/** Tenants, hosts, declared sessions and the network configuration survive kill -9: no acknowledged write is lost. */
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
        // session id -> "src>dst w=weight" it must have after the restart (null: it must be gone)
        Map<String, String> ackedSessions = new java.util.LinkedHashMap<>();
        String[] inFlight = new String[1];
        try (ControllerProcess first = ControllerProcess.start(Map.of("FF_API_TOKEN", TOKEN),
                "--data-dir", data.toString(), "--http-port", "0", "--netcfg", NETCFG)) {
            HttpJson http = new HttpJson(first.baseUrl, TOKEN);
            Throwable[] refused = new Throwable[1];
            Thread writer = new Thread(() -> {
                for (int i = 0; i < 400; i++) {
                    try {
                        step(http, i, expected, ackedHosts, ackedSessions, inFlight);
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
        Map<String, String> sessions;
        synchronized (expected) {
            tenants = new java.util.LinkedHashMap<>(expected);
            hosts = List.copyOf(ackedHosts);
            sessions = new java.util.LinkedHashMap<>(ackedSessions);
            tenants.remove(inFlight[0]); // the write that was under way when the process died may or may not have happened
        }
        assertTrue(tenants.size() >= 35 && hosts.size() == 16, "writes before the kill: " + tenants.size() + " tenants, " + hosts.size() + " hosts");
        assertTrue(tenants.containsValue(null), "some acknowledged deletes were checked");
        assertTrue(sessions.size() == 8 && sessions.containsValue(null), "sessions before the kill: " + sessions);

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
            for (Map.Entry<String, String> s : sessions.entrySet()) {
                HttpJson.Answer a = http.get("/api/v1/sessions/" + s.getKey());
                if (s.getValue() == null) {
                    assertEquals(404, a.status, "session " + s.getKey() + " was deleted (acknowledged) but is back");
                } else {
                    assertEquals(200, a.status, "session " + s.getKey() + " lost");
                    assertEquals(s.getValue(), describe(a.json()), "session " + s.getKey() + ": acknowledged write lost");
                }
            }
            // a session declared after the restart gets an id no restored session has
            String fresh = http.send("POST", "/api/v1/sessions", "{\"srcHost\":\"h1\",\"dstHost\":\"h0\"}").json().get("id").asText();
            assertTrue(!sessions.containsKey(fresh) || sessions.get(fresh) == null, "id " + fresh + " given twice");
            assertEquals(20, http.get("/api/v1/topology").json().get("devices").size());
            // and the restarted controller takes writes
            assertEquals(201, http.send("POST", "/api/v1/tenants", "{\"id\":\"after\",\"weight\":1}").status);
        }
    }

    private static String describe(JsonNode session) {
        return session.get("srcHost").asText() + ">" + session.get("dstHost").asText() + " w=" + session.path("weight").asText("null");
    }

    /**
     * Step i: create tenant t<i>; for an even i below 16, hosts h<i> and h<i+1> in it (on the 16
     * host ports), a session between them, for every fourth i its weight set, at i = 12 the
     * session of t10 deleted; every third step re-weights the tenant; every fifth deletes t<i-1>.
     */
    private static void step(HttpJson http, int i, Map<String, Integer> expected, List<String> ackedHosts,
                             Map<String, String> ackedSessions, String[] inFlight) {
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
        for (int j = i; i < 16 && i % 2 == 0 && j <= i + 1; j++) {
            String host = String.format("{\"id\":\"h%d\",\"ip\":\"10.%d.%d.%d\",\"mac\":\"00:00:0a:%02x:%02x:%02x\","
                    + "\"location\":{\"device\":\"device:edge%d%d\",\"port\":%d}}",
                    j, j / 4, (j / 2) % 2, 2 + j % 2, j / 4, (j / 2) % 2, 2 + j % 2, j / 4, (j / 2) % 2, 1 + j % 2);
            if (http.send("POST", "/api/v1/tenants/" + t + "/hosts", host).status != 201) {
                throw new AssertionError("host " + j);
            }
            synchronized (expected) {
                ackedHosts.add(t + "/h" + j);
            }
        }
        if (i < 16 && i % 2 == 0) {
            HttpJson.Answer a = http.send("POST", "/api/v1/sessions",
                    "{\"srcHost\":\"h" + i + "\",\"dstHost\":\"h" + (i + 1) + "\",\"demandBps\":" + (1_000_000 + i) + "}");
            if (a.status != 201) {
                throw new AssertionError("session of " + t + ": " + a.status);
            }
            String id = a.json().get("id").asText();
            synchronized (expected) {
                ackedSessions.put(id, describe(a.json()));
            }
            if (i % 4 == 0) {
                HttpJson.Answer w = http.send("PUT", "/api/v1/sessions/" + id + "/weight", "{\"weight\":" + (i + 0.5) + "}");
                if (w.status != 200) {
                    throw new AssertionError("session weight of " + t + ": " + w.status);
                }
                synchronized (expected) {
                    ackedSessions.put(id, describe(w.json()));
                }
            }
            if (i == 12) {
                String victim = null;
                synchronized (expected) {
                    for (Map.Entry<String, String> e : ackedSessions.entrySet()) {
                        if (e.getValue() != null && e.getValue().startsWith("h10>")) {
                            victim = e.getKey();
                        }
                    }
                }
                if (http.send("DELETE", "/api/v1/sessions/" + victim, null).status != 204) {
                    throw new AssertionError("delete session " + victim);
                }
                synchronized (expected) {
                    ackedSessions.put(victim, null);
                }
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
