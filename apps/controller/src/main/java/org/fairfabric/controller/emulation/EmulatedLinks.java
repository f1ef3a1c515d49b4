package org.fairfabric.controller.emulation;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.fairfabric.api.dto.LinkDto;
import org.fairfabric.api.dto.LocationDto;
import org.fairfabric.api.error.ApiException;
import org.fairfabric.api.error.ConflictException;
import org.fairfabric.api.error.NotFoundException;
import org.fairfabric.api.json.Json;
import org.fairfabric.api.json.JsonFields;
import org.fairfabric.api.json.Rules;
import org.fairfabric.api.service.FabricService;
import org.fairfabric.api.service.NetworkView;

/**
 * Fails and restores links of an emulated fabric (p4switch in Mininet) for the GUI and tests:
 * both ends' ports get 100 % loss on the wire through p4switch's traffic-manager admin
 * interface ({@code POST /ports/N loss=...}), which is what a cut cable looks like to the
 * switches. The controller is not told: its vFab echoes stop coming back and the switches report
 * the failure, as for a real one. Restoring puts back the loss each port had before.
 *
 * <p>A switch is emulated when its network configuration names its admin address:
 * {@code devices[id].fairfabric.emulation.adminAddress = "127.0.0.1:PORT"}.
 */
public final class EmulatedLinks {
    private static final Duration TIMEOUT = Duration.ofSeconds(3);

    private final FabricService fabric;
    private final NetworkView network;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();
    /** The loss each port had before it was failed here, by "device/port". */
    private final Map<String, String> lossBefore = new HashMap<>();

    public EmulatedLinks(FabricService fabric, NetworkView network) {
        this.fabric = fabric;
        this.network = network;
    }

    /** The request {@code {"device": "...", "port": N, "up": true|false}}, checked strictly. */
    public static final class Request {
        public final String device;
        public final int port;
        public final boolean up;

        Request(String device, int port, boolean up) {
            this.device = device;
            this.port = port;
            this.up = up;
        }

        public static Request parse(String body) {
            // the API's shared field rules: unknown fields and wrong types 400, missing fields and bad values 422
            JsonFields f = JsonFields.root(Json.parse(body), java.util.Set.of("device", "port", "up"));
            String device = Rules.text("device", f.requiredString("device"), 0);
            int port = Rules.port("port", f.requiredInteger("port"));
            return new Request(device, port, f.requiredBoolean("up"));
        }
    }

    /** Sets the link at (device, port) down or up on both ends; answers what was set. */
    public synchronized Map<String, Object> set(Request r) {
        LinkDto link = null;
        for (LinkDto l : network.topology(List.of()).links) {
            if (l.src.device.equals(r.device) && l.src.port == r.port) {
                link = l;
            }
        }
        if (link == null) {
            throw new NotFoundException("port", "no fabric link leaves " + r.device + " port " + r.port);
        }
        JsonNode devices = Json.parse(fabric.networkConfig().orElse("{}")).path("devices");
        List<LocationDto> ends = List.of(link.src, link.dst);
        List<String> admins = new ArrayList<>();
        for (LocationDto end : ends) {
            JsonNode a = devices.path(end.device).path("fairfabric").path("emulation").path("adminAddress");
            if (!a.isTextual() || a.asText().isBlank()) {
                throw new ConflictException("device", end.device + " is not an emulated switch (its network configuration has no"
                        + " fairfabric.emulation.adminAddress): links can be failed this way only in the emulated fabric");
            }
            admins.add(a.asText());
        }
        List<Map<String, Object>> set = new ArrayList<>();
        for (int i = 0; i < ends.size(); i++) {
            LocationDto end = ends.get(i);
            String key = end.device + "/" + end.port;
            String loss;
            if (!r.up) {
                if (!lossBefore.containsKey(key)) {
                    lossBefore.put(key, currentLoss(admins.get(i), end));
                }
                loss = "1";
            } else {
                loss = lossBefore.getOrDefault(key, "0");
                lossBefore.remove(key);
            }
            post(admins.get(i), end, "loss=" + loss);
            Map<String, Object> e = new LinkedHashMap<>();
            e.put("device", end.device);
            e.put("port", end.port);
            e.put("loss", Double.parseDouble(loss));
            set.add(e);
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("link", link.id);
        out.put("up", r.up);
        out.put("ends", set);
        return out;
    }

    private String currentLoss(String admin, LocationDto end) {
        JsonNode state = Json.parse(call(admin, end, HttpRequest.newBuilder(portUri(admin, end)).GET()));
        return state.path("loss").isNumber() ? state.path("loss").asText() : "0";
    }

    private void post(String admin, LocationDto end, String form) {
        call(admin, end, HttpRequest.newBuilder(portUri(admin, end))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(form)));
    }

    private static URI portUri(String admin, LocationDto end) {
        return URI.create("http://" + admin + "/ports/" + end.port);
    }

    private String call(String admin, LocationDto end, HttpRequest.Builder req) {
        try {
            HttpResponse<String> resp = http.send(req.timeout(TIMEOUT).build(), HttpResponse.BodyHandlers.ofString());
            if (resp.statusCode() != 200) {
                throw new Unavailable(end.device + " admin " + admin + " answered " + resp.statusCode() + ": " + resp.body().strip());
            }
            return resp.body();
        } catch (IOException e) {
            throw new Unavailable(end.device + " admin " + admin + " unreachable: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new Unavailable("interrupted");
        }
    }

    /** The switch's admin interface did not do it (502: the fault is the emulation's, not the request's). */
    static final class Unavailable extends ApiException {
        Unavailable(String message) {
            super(502, null, message);
        }
    }
}
