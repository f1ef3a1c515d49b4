package org.fairfabric.onos.platform;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.fairfabric.core.model.Device;
import org.fairfabric.core.model.Host;
import org.fairfabric.core.model.Link;
import org.fairfabric.core.model.Topology;

/**
 * The core model of a fabric as sorted text lines (switches with role and pod, directed links with
 * capacity and state, hosts with address and attachment), to compare the model the ONOS app builds
 * with the embedded controller's (tools/EmbeddedEntities.java writes the same summary).
 */
public final class TopologySummary {
    private TopologySummary() {
    }

    public static String of(Topology t) {
        List<String> lines = new ArrayList<>();
        for (Device d : t.devices().values()) {
            lines.add("device " + d.id() + " " + d.role() + " pod " + d.pod());
        }
        for (Link l : t.links()) {
            lines.add("link " + l.src() + " -> " + l.dst() + " " + l.capacityBps() + " " + l.state());
        }
        for (Host h : t.hosts().values()) {
            lines.add("host " + h.id() + " " + h.ip() + " " + h.mac() + " at " + h.attachment()
                    + " tenant " + h.tenantId().orElse("-") + " server " + h.server().orElse("-"));
        }
        Collections.sort(lines);
        return String.join("\n", lines) + "\n";
    }
}
