package org.fairfabric.core.routing;

/** The link metrics P4TE ranks upward ports by; each has its own upward table and routing groups. */
public enum Metric {
    DELAY, QUEUE_DEPTH, LINK_UTILIZATION
}
