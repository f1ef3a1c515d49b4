package org.fairfabric.api.service;

import java.util.LinkedHashMap;
import java.util.Map;
import org.fairfabric.api.json.Json;

/**
 * What the GUI draws, in one object: the REST resources it needs under their names, and the id of
 * the controller run that produced them. The same in embedded mode and under ONOS.
 */
public final class GuiSnapshot {
    private GuiSnapshot() {
    }

    public static String json(String run, FabricService fabric, NetworkView network) {
        Map<String, Object> s = new LinkedHashMap<>();
        s.put("run", run);
        s.put("topology", network.topology(fabric.allHosts()));
        s.put("tenants", fabric.tenants());
        s.put("sessions", fabric.sessions());
        s.put("allocations", network.allocations());
        s.put("routingGroups", network.routingGroups());
        s.put("aqs", network.aqs());
        return Json.write(s);
    }
}
