package org.fairfabric.core.aq;

/** Where in the switch an AQ sits: ingress (before the traffic manager) or egress (after it). */
public enum AqPipeline {
    INGRESS, EGRESS
}
