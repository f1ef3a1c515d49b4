package org.fairfabric.controller.alloc;

import java.util.List;

/** What the allocation loop hands on: each new allocation, and each round whose guarantees cannot be met. */
public interface AllocationListener {
    /** A new allocation is in force (called on the loop's thread, in round order). */
    void allocated(AllocationResult result);

    /**
     * The minimum rates cannot all be met: the previous allocation stays in force.
     *
     * @param bottlenecks the link ids the allocator's certificate names
     */
    void infeasible(long round, String message, List<String> bottlenecks);
}
