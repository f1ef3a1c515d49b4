package org.fairfabric.controller.mininet;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import org.fairfabric.api.json.Json;

/** One p4switch's admin interface (its traffic manager's ports), found in the fabric's netcfg. */
final class SwitchAdmin {
    private final HttpClient http = HttpClient.newHttpClient();
    private final String address;

    SwitchAdmin(Path netcfg, String deviceId) throws Exception {
        this.address = Json.parse(Files.readString(netcfg)).path("devices").path(deviceId)
                .path("fairfabric").path("emulation").path("adminAddress").asText();
    }

    /** Random loss (0..1) on a port's egress, as a gray failure. */
    void setLoss(int port, double loss) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://" + address + "/ports/" + port))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString("loss=" + loss)).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), r.body());
    }

    /** Packets the port's random loss has dropped so far. */
    long lossDrops(int port) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://" + address + "/ports/" + port))
                .GET().build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), r.body());
        return Json.parse(r.body()).path("loss_drops").asLong();
    }
}
