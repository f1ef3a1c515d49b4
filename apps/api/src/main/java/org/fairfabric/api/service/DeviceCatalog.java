package org.fairfabric.api.service;

import org.fairfabric.api.dto.LocationDto;
import org.fairfabric.api.error.ValidationException;

/** Which attachment points exist: the embedded controller reads them from the network configuration, ONOS from its device service. */
public interface DeviceCatalog {
    /** Throws a {@link ValidationException} naming {@code location.device} or {@code location.port} when a host cannot attach at {@code location}. */
    void checkHostAttachment(LocationDto location);

    /** The catalog before any network configuration is loaded: no host can attach anywhere. */
    DeviceCatalog NONE = location -> {
        throw new ValidationException("location.device", "unknown device '" + location.device
                + "': no network configuration is loaded");
    };
}
