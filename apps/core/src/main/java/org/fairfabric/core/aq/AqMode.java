package org.fairfabric.core.aq;

/** How an AQ's rate is set: an absolute guarantee, or a weight sharing the port's capacity. */
public enum AqMode {
    ABSOLUTE, WEIGHTED
}
