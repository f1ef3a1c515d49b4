package org.fairfabric.api.dto;

import java.util.Objects;

/** An attachment point: a port of a device, named as in the network configuration. */
public final class LocationDto {
    public final String device;
    public final int port;

    public LocationDto(String device, int port) {
        this.device = Objects.requireNonNull(device, "device");
        this.port = port;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof LocationDto && device.equals(((LocationDto) o).device) && port == ((LocationDto) o).port;
    }

    @Override
    public int hashCode() {
        return Objects.hash(device, port);
    }

    @Override
    public String toString() {
        return device + "/" + port;
    }
}
