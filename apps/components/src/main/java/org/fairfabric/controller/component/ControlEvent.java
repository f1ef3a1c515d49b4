package org.fairfabric.controller.component;

import org.fairfabric.controller.alloc.AllocationResult;
import org.fairfabric.core.model.Topology;
import org.fairfabric.core.routing.MetricEvent;

/**
 * What the controller's components tell each other over the {@link ControlBus}. Internal: the
 * audit trail that REST and Kafka show is the EventLog, which these never pass through.
 */
public sealed interface ControlEvent {
    /**
     * The fabric model changed. {@code configurationReplaced}: a new network configuration with a
     * new fleet (state derived from the old one is void); otherwise only the tenants' hosts moved.
     */
    record TopologyChanged(Topology topology, boolean configurationReplaced) implements ControlEvent {
    }

    /** A P4TE gradient event from a switch, with when its packet-in arrived ({@link System#nanoTime}). */
    record MetricReported(MetricEvent event, long receivedNanos) implements ControlEvent {
    }

    /** A switch decided that one of its ports failed or recovered (vFab LINK_FAILURE report). */
    record PortStateReported(String deviceId, int port, boolean failed) implements ControlEvent {
    }

    /** Failure handling put a link's state in force: the link leaving {@code deviceId/port} is up or down. */
    record LinkStateChanged(String deviceId, int port, boolean up) implements ControlEvent {
    }

    /** Tenants, weights, hosts or sessions changed (REST or the monitor's view). */
    record ProvisioningChanged(String why) implements ControlEvent {
    }

    /** A new allocation is in force (the REST view, the shims' rates, the allocation slice). */
    record Allocated(AllocationResult result) implements ControlEvent {
    }
}
