package org.fairfabric.core.model;

/**
 * Role of a switch in the fabric. The tier orders roles bottom-up: a link from a lower tier to a
 * higher tier is an upward link (the direction P4TE routing groups and path ids are about).
 */
public enum DeviceRole {
    LEAF(0), EDGE(0), SPINE(1), AGGREGATION(1), CORE(2);

    private final int tier;

    DeviceRole(int tier) {
        this.tier = tier;
    }

    public int tier() {
        return tier;
    }
}
