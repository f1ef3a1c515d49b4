package org.fairfabric.api.dto;

import java.util.Objects;

/** A host (a VM in the papers) of a tenant: its addresses and where it attaches to the fabric. */
public final class HostDto {
    public final String id;
    public final String tenantId;
    public final String ip;
    public final String mac;
    public final LocationDto location;

    public HostDto(String id, String tenantId, String ip, String mac, LocationDto location) {
        this.id = Objects.requireNonNull(id, "id");
        this.tenantId = Objects.requireNonNull(tenantId, "tenantId");
        this.ip = Objects.requireNonNull(ip, "ip");
        this.mac = Objects.requireNonNull(mac, "mac");
        this.location = Objects.requireNonNull(location, "location");
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof HostDto)) {
            return false;
        }
        HostDto h = (HostDto) o;
        return id.equals(h.id) && tenantId.equals(h.tenantId) && ip.equals(h.ip) && mac.equals(h.mac)
                && location.equals(h.location);
    }

    @Override
    public int hashCode() {
        return Objects.hash(id, tenantId, ip, mac, location);
    }

    @Override
    public String toString() {
        return "Host{" + id + "@" + tenantId + ", " + ip + ", " + mac + ", " + location + "}";
    }
}
