package org.fairfabric.controller.monitor;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Optional;

/** The measured load of a ff.mon.links.v1 record: the switch counters' when present, else the shims'. */
final class JsonLoad {
    private JsonLoad() {
    }

    static Optional<Double> load(JsonNode link) {
        JsonNode sw = link.get("load_bps_switch");
        if (sw != null && sw.isNumber()) {
            return Optional.of(sw.asDouble());
        }
        JsonNode shim = link.get("load_bps_shim");
        if (shim != null && shim.isNumber()) {
            return Optional.of(shim.asDouble());
        }
        return Optional.empty();
    }
}
