package org.fairfabric.controller.routing;

import java.util.Locale;

/**
 * How sessions' traffic finds its way up the fabric ({@code --routing}, docs/controller.md "Routing
 * modes"). {@link #PINNED} (the default, Promenade): the allocator's per-path rates are put in force
 * as pinned paths — the shims tag each path's packets with its path id, the switches map the id to an
 * uplink — and the routing groups follow P4TE's metrics. {@link #ECMP}, the baseline to compare with:
 * no pinned paths; every switch hashes each flow's 5-tuple over all its equal-cost uplinks (static
 * groups that no metric moves) and the shims only limit each session's total, untagged.
 */
public enum RoutingMode {
    PINNED, ECMP;

    /** The command-line name: {@code pinned} or {@code ecmp}. */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Parses {@code pinned} or {@code ecmp}; throws IllegalArgumentException naming the choices. */
    public static RoutingMode parse(String s) {
        for (RoutingMode m : values()) {
            if (m.wireName().equals(s)) {
                return m;
            }
        }
        throw new IllegalArgumentException("--routing must be pinned or ecmp, got '" + s + "'");
    }
}
