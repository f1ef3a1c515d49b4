package org.fairfabric.core.allocator;

/**
 * Reached by the allocator's methods between steps (a conjugate-gradient iteration, a sweep: about
 * a millisecond each at k=16 with 10,000 sessions), on the solving thread. A caller with more urgent
 * work for the CPU may block the solve here meanwhile (the controller's allocation loop does while an
 * arrival's round and its rates tables are under way: docs/controller.md, "The exact solve gives way").
 */
@FunctionalInterface
public interface SolveCheckpoint {
    /** Never waits. */
    SolveCheckpoint NONE = () -> { };

    void reached();
}
