package org.fairfabric.core.model;

/** Operational state of a link. */
public enum LinkState {
    UP, DOWN
}
