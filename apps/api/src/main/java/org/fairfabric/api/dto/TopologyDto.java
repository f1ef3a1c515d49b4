package org.fairfabric.api.dto;

import java.util.List;

/** The fabric as the controller sees it now: switches, links with loads, and hosts. */
public final class TopologyDto {
    public final List<DeviceDto> devices;
    public final List<LinkDto> links;
    public final List<HostDto> hosts;

    public TopologyDto(List<DeviceDto> devices, List<LinkDto> links, List<HostDto> hosts) {
        this.devices = List.copyOf(devices);
        this.links = List.copyOf(links);
        this.hosts = List.copyOf(hosts);
    }
}
