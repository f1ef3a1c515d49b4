package org.fairfabric.controller.alloc;

import org.fairfabric.api.dto.EventTypes;

/** Event types of the allocation loop (docs/kafka.md: both go to {@code ff.ctl.allocations.v1}). */
public final class AllocationEvents {
    /** One per session and round: {@link EventTypes#ALLOCATION_UPDATED}. */
    public static final String UPDATED = EventTypes.ALLOCATION_UPDATED;
    /** The guarantees cannot all be met; the previous allocation stays in force. */
    public static final String INFEASIBLE = "allocation.infeasible";
    /** The subject (Kafka key) of {@link #INFEASIBLE} events. */
    public static final String SUBJECT = "allocation";

    private AllocationEvents() {
    }
}
