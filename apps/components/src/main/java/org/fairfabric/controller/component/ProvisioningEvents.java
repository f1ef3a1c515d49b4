package org.fairfabric.controller.component;

import java.util.Set;
import java.util.function.Supplier;
import org.fairfabric.api.dto.EventDto;
import org.fairfabric.api.dto.EventTypes;
import org.fairfabric.core.model.Topology;

/**
 * Reads the audit log's provisioning events (REST, the monitor's sessions) as control events:
 * tenants, weights, hosts and sessions become {@link ControlEvent.ProvisioningChanged}; hosts also
 * change the fabric model ({@link ControlEvent.TopologyChanged}). The audit log is only read here.
 */
public final class ProvisioningEvents implements org.fairfabric.api.service.EventSink {
    static final Set<String> PROVISIONING = Set.of(EventTypes.SESSION_ADDED, EventTypes.SESSION_REMOVED,
            EventTypes.SESSION_UPDATED, EventTypes.TENANT_UPDATED, EventTypes.TENANT_DELETED, EventTypes.HOST_ADDED, EventTypes.HOST_REMOVED);
    static final Set<String> HOSTS = Set.of(EventTypes.HOST_ADDED, EventTypes.HOST_REMOVED, EventTypes.TENANT_DELETED);

    private final ControlBus bus;
    private final Supplier<Topology> hostsChanged;

    /** {@code hostsChanged} rebuilds the model after a host change (null without a configuration). */
    public ProvisioningEvents(ControlBus bus, Supplier<Topology> hostsChanged) {
        this.bus = bus;
        this.hostsChanged = hostsChanged;
    }

    @Override
    public void publish(EventDto e) {
        if (HOSTS.contains(e.type)) {
            Topology t = hostsChanged.get();
            if (t != null) {
                bus.post(new ControlEvent.TopologyChanged(t, false));
            }
        }
        if (PROVISIONING.contains(e.type)) {
            bus.post(new ControlEvent.ProvisioningChanged(e.type + " " + e.subject));
        }
    }
}
