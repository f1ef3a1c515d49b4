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
        List<String> acked = new ArrayList<>();
        List<String> ackedHosts = new ArrayList<>();
        try (ControllerProcess first = ControllerProcess.start(Map.of("FF_API_TOKEN", TOKEN),
                "--data-dir", data.toString(), "--http-port", "0", "--netcfg", NETCFG)) {
            HttpJson http = new HttpJson(first.baseUrl, TOKEN);
            Thread writer = new Thread(() -> {
                for (int i = 0; i < 200; i++) {
                    try {
                        HttpJson.Answer a = http.send("POST", "/api/v1/tenants", "{\"id\":\"t" + i + "\",\"weight\":" + (i + 1) + "}");
                        if (a.status != 201) {
                            return;
                        }
                        synchronized (acked) {
                            acked.add("t" + i);
                        }
                        if (i < 16) {
                            String host = String.format("{\"id\":\"h%d\",\"ip\":\"10.%d.%d.%d\",\"mac\":\"00:00:0a:%02x:%02x:%02x\","
                                    + "\"location\":{\"device\":\"device:edge%d%d\",\"port\":%d}}",
                                    i, i / 4, (i / 2) % 2, 2 + i % 2, i / 4, (i / 2) % 2, 2 + i % 2, i / 4, (i / 2) % 2, 1 + i % 2);
                            HttpJson.Answer h = http.send("POST", "/api/v1/tenants/t" + i + "/hosts", host);
                            if (h.status != 201) {
                                throw new AssertionError("host " + i + ": " + h);
                            }
                            synchronized (acked) {
                                ackedHosts.add("t" + i + "/h" + i);
                            }
                        }
                    } catch (RuntimeException e) {
                        return; // the controller died under us
                    }
                }
            });
            writer.start();
            while (true) {
                synchronized (acked) {
                    if (acked.size() >= 30) {
                        break;
                    }
                }
                Thread.sleep(5);
            }
            first.kill9();
            writer.join(TimeUnit.SECONDS.toMillis(30));
            assertTrue(!first.process.isAlive());
        }
        List<String> tenants;
        List<String> hosts;
        synchronized (acked) {
            tenants = List.copyOf(acked);
            hosts = List.copyOf(ackedHosts);
        }
        assertTrue(tenants.size() >= 30 && hosts.size() == 16, "writes before the kill: " + tenants.size() + " tenants, " + hosts.size() + " hosts");

        // restart without --netcfg: the configuration must come back from the journal too
        try (ControllerProcess second = ControllerProcess.start(Map.of("FF_API_TOKEN", TOKEN),
                "--data-dir", data.toString(), "--http-port", "0")) {
            HttpJson http = new HttpJson(second.baseUrl, TOKEN);
            for (String t : tenants) {
                JsonNode got = http.get("/api/v1/tenants/" + t).json();
                assertEquals(t, got.get("id").asText(), "tenant " + t + " lost");
                assertEquals(Integer.parseInt(t.substring(1)) + 1, got.get("weight").asInt());
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

    @Test
    void refusesToStartWithoutAToken() throws Exception {
        Process p = ControllerProcess.command(Map.of(), "--data-dir", data.toString(), "--http-port", "0").start();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        String out = new String(p.getInputStream().readAllBytes());
        assertEquals(2, p.exitValue(), out);
        assertTrue(out.contains("no API token"), out);
    }
}
