package org.fairfabric.core.guarantee;

/** vFab migration triggers, in priority order. */
public enum MigrationReason {
    /** The current path failed: restore reachability at once. */
    FAILURE,
    /** The current path cannot meet the minimum guarantee for long enough (5 RTTs). */
    GUARANTEE_VIOLATION,
    /** A better qualified path has been visible for long enough (30 s): network-wide work conservation. */
    BETTER_PATH
}
