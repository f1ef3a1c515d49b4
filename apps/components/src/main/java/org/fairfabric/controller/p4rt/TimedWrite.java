package org.fairfabric.controller.p4rt;

/**
 * A write report that says when the write went through its device's queue: the embedded
 * controller's {@code WriteResult}. The P4TE loop's stage latencies are recorded from these only;
 * other platforms' reports (ONOS's flow rule batches) carry no timing.
 */
public interface TimedWrite {
    /** When the write went through the device's queue; null for results made elsewhere. */
    WriteTiming timing();

    /** The device was not connected: the write is part of the intended state, not yet on the switch. */
    boolean deferred();
}
