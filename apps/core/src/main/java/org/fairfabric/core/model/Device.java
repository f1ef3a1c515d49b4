package org.fairfabric.core.model;

import java.util.Objects;

/** A switch. {@code pod} is -1 for switches outside any pod (fat-tree cores). */
public final class Device {
    private final String id;
    private final DeviceRole role;
    private final int pod;
    private final String address;

    public Device(String id, DeviceRole role, int pod, String address) {
        this.id = Checks.nonEmpty(id, "device id");
        this.role = Checks.notNull(role, "device role");
        if (pod < -1) {
            throw new IllegalArgumentException("pod must be -1 (none) or >= 0, got " + pod);
        }
        this.pod = pod;
        this.address = address == null ? "" : address;
    }

    public String id() {
        return id;
    }

    public DeviceRole role() {
        return role;
    }

    public int pod() {
        return pod;
    }

    /** Hierarchical (Al-Fares style) address of the switch, or "" if none. */
    public String address() {
        return address;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof Device)) {
            return false;
        }
        Device d = (Device) o;
        return id.equals(d.id) && role == d.role && pod == d.pod && address.equals(d.address);
    }

    @Override
    public int hashCode() {
        return Objects.hash(id, role, pod, address);
    }

    @Override
    public String toString() {
        return id + "(" + role + ")";
    }
}
