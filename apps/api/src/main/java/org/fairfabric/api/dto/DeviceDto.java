package org.fairfabric.api.dto;

import java.util.Objects;

/** A switch: its id, role in the fabric, P4Runtime address and whether the controller reaches it. */
public final class DeviceDto {
    public final String id;
    public final String role;
    public final String managementAddress;
    public final boolean available;

    public DeviceDto(String id, String role, String managementAddress, boolean available) {
        this.id = Objects.requireNonNull(id, "id");
        this.role = Objects.requireNonNull(role, "role");
        this.managementAddress = Objects.requireNonNull(managementAddress, "managementAddress");
        this.available = available;
    }

    public DeviceDto withAvailable(boolean nowAvailable) {
        return new DeviceDto(id, role, managementAddress, nowAvailable);
    }
}
