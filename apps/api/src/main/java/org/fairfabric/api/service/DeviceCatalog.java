package org.fairfabric.api.service;

import org.fairfabric.api.dto.HostDto;
import org.fairfabric.api.dto.LocationDto;
import org.fairfabric.api.error.ConflictException;
import org.fairfabric.api.error.ValidationException;

/** Which attachment points exist: the embedded controller reads them from the network configuration, ONOS from its device service. */
public interface DeviceCatalog {
    /** Throws a {@link ValidationException} naming {@code location.device} or {@code location.port} when a host cannot attach at {@code location}. */
    void checkHostAttachment(LocationDto location);

    /**
     * Throws when a tenant's host clashes with the network's own hosts: a {@link ConflictException}
     * naming the field ({@code ip}, {@code mac}, {@code id}, {@code location.port}) and the host it
     * clashes with, a {@link ValidationException} when it cannot attach at its location. A host
     * with the MAC (or, at its port, the name) of a configuration host is that host, and must be
     * at its port; any other host at the port of a configuration host is a VM on that server.
     */
    default void checkHost(HostDto host) {
        checkHostAttachment(host.location);
    }

    /** The network's own host at {@code location} (a server tenants' VMs may run on), if any. */
    default java.util.Optional<String> serverAt(LocationDto location) {
        return java.util.Optional.empty();
    }

    /** The catalog before any network configuration is loaded: no host can attach anywhere. */
    DeviceCatalog NONE = location -> {
        throw new ValidationException("location.device", "unknown device '" + location.device
                + "': no network configuration is loaded");
    };
}
