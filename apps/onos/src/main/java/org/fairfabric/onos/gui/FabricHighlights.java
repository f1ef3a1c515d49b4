package org.fairfabric.onos.gui;

import java.util.HashSet;
import java.util.Locale;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.fairfabric.api.dto.AllocationDto;
import org.fairfabric.api.dto.LinkDto;
import org.fairfabric.api.dto.PathRateDto;
import org.fairfabric.api.service.NetworkView;
import org.onosproject.ui.topo.Highlights;
import org.onosproject.ui.topo.LinkHighlight;

/**
 * What the topology overlay highlights: every fabric link labelled with its utilisation (the
 * busier direction), and, when a tenant is selected, the links its allocated paths use.
 */
public final class FabricHighlights {
    private FabricHighlights() {
    }

    public static Highlights of(NetworkView network, String tenantId) {
        Set<String> tenantLinks = new HashSet<>();
        if (tenantId != null) {
            for (AllocationDto a : network.allocations()) {
                if (!a.tenantId.equals(tenantId)) {
                    continue;
                }
                for (PathRateDto p : a.paths) {
                    for (int i = 0; i + 1 < p.devices.size(); i++) {
                        tenantLinks.add(devicePair(p.devices.get(i), p.devices.get(i + 1)));
                    }
                }
            }
        }
        Map<String, Double> utilisation = new LinkedHashMap<>();
        Map<String, String> pairs = new LinkedHashMap<>();
        for (LinkDto l : network.topology(List.of()).links) {
            String id = canonicalId(l);
            double u = l.capacityBps > 0 ? l.loadBps / l.capacityBps : 0;
            utilisation.merge(id, u, Math::max);
            pairs.put(id, devicePair(l.src.device, l.dst.device));
        }
        Highlights h = new Highlights();
        for (Map.Entry<String, Double> e : utilisation.entrySet()) {
            boolean onTenantPath = tenantLinks.contains(pairs.get(e.getKey()));
            LinkHighlight lh = new LinkHighlight(e.getKey(), onTenantPath ? LinkHighlight.Flavor.PRIMARY_HIGHLIGHT
                    : e.getValue() > 0 ? LinkHighlight.Flavor.SECONDARY_HIGHLIGHT : LinkHighlight.Flavor.NO_HIGHLIGHT);
            lh.setLabel(String.format(Locale.ROOT, "%.0f%%", 100 * e.getValue()));
            h.add(lh);
        }
        return h;
    }

    /** The id ONOS's topology view gives a bidirectional link: its two ends, lower one first. */
    static String canonicalId(LinkDto l) {
        String a = l.src.toString();
        String b = l.dst.toString();
        return a.compareTo(b) < 0 ? a + "-" + b : b + "-" + a;
    }

    private static String devicePair(String a, String b) {
        return a.compareTo(b) < 0 ? a + "|" + b : b + "|" + a;
    }
}
