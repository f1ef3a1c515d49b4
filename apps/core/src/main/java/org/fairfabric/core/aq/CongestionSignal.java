package org.fairfabric.core.aq;

/** The feedback an AQ gives its entity's congestion control (Algorithm 2): drops, ECN, or virtual delay. */
public enum CongestionSignal {
    DROP, ECN, DELAY
}
