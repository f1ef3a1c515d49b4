package org.fairfabric.api.service;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.fairfabric.api.dto.AllocationDto;
import org.fairfabric.api.dto.AqDto;
import org.fairfabric.api.dto.DeviceDto;
import org.fairfabric.api.dto.EventTypes;
import org.fairfabric.api.dto.LinkDto;
import org.fairfabric.api.dto.LocationDto;
import org.fairfabric.api.dto.RoutingGroupDto;
import org.fairfabric.api.dto.TopologyDto;
import org.fairfabric.api.error.NotFoundException;

/**
 * The live state of the network as the controller learns it: device reachability, link state and
 * load, allocations, routing groups and Augmented Queues. The controller writes it; the API reads it. State changes
 * (not load samples) are announced as events. Thread-safe.
 */
public final class NetworkView {
    private final EventLog events;
    private final Map<String, DeviceDto> devices = new LinkedHashMap<>();
    private final Map<String, LinkDto> links = new LinkedHashMap<>();
    private final Map<String, AllocationDto> allocations = new LinkedHashMap<>();
    private final Map<String, RoutingGroupDto> groups = new LinkedHashMap<>();
    private final List<AqDto> aqs = new ArrayList<>();

    public NetworkView(EventLog events) {
        this.events = Objects.requireNonNull(events);
    }

    /** Replaces the device and link set (after a new network configuration); all start unavailable/up as given. */
    public synchronized void resetTopology(List<DeviceDto> newDevices, List<LinkDto> newLinks) {
        devices.clear();
        links.clear();
        groups.clear();
        newDevices.forEach(d -> devices.put(d.id, d));
        newLinks.forEach(l -> links.put(l.id, l));
    }

    public synchronized TopologyDto topology(List<org.fairfabric.api.dto.HostDto> hosts) {
        return new TopologyDto(new ArrayList<>(devices.values()), new ArrayList<>(links.values()), hosts);
    }

    public synchronized DeviceDto device(String id) {
        DeviceDto d = devices.get(id);
        if (d == null) {
            throw new NotFoundException("deviceId", "no device '" + id + "'");
        }
        return d;
    }

    public synchronized void setDeviceAvailable(String id, boolean available) {
        DeviceDto d = device(id);
        if (d.available != available) {
            devices.put(id, d.withAvailable(available));
            events.emit(EventTypes.DEVICE_STATE, id, Detail.of("available", available));
        }
    }

    /** Marks the links leaving or entering {@code port} of {@code device} up or down. */
    public synchronized void setPortUp(String device, int port, boolean up) {
        LocationDto at = new LocationDto(device, port);
        for (LinkDto l : new ArrayList<>(links.values())) {
            if ((l.src.equals(at) || l.dst.equals(at)) && l.up != up) {
                links.put(l.id, l.withUp(up));
                events.emit(EventTypes.LINK_STATE, l.id, Detail.of("up", up, "reportedBy", at.toString()));
            }
        }
    }

    public synchronized void setLinkLoad(String linkId, double loadBps) {
        LinkDto l = links.get(linkId);
        if (l == null) {
            throw new NotFoundException("linkId", "no link '" + linkId + "'");
        }
        links.put(linkId, l.withLoad(loadBps));
    }

    public synchronized List<AllocationDto> allocations() {
        return new ArrayList<>(allocations.values());
    }

    /** Replaces the allocation of every session the allocator computed this round. */
    public synchronized void publishAllocations(List<AllocationDto> round) {
        allocations.clear();
        for (AllocationDto a : round) {
            allocations.put(a.sessionId, a);
            events.emit(EventTypes.ALLOCATION_UPDATED, a.sessionId, Detail.of("tenantId", a.tenantId, "totalBps", a.totalBps,
                    "paths", a.paths.size(), "exact", a.exact));
        }
    }

    public synchronized List<RoutingGroupDto> routingGroups() {
        return new ArrayList<>(groups.values());
    }

    /** Records the new membership of several groups at once, so that no reader sees a port in none. */
    public synchronized void setRoutingGroups(List<RoutingGroupDto> gs) {
        for (RoutingGroupDto g : gs) {
            setRoutingGroup(g);
        }
    }

    /** Records the new membership of one group; announces each port that moved into it. */
    public synchronized void setRoutingGroup(RoutingGroupDto g) {
        device(g.device);
        String key = g.device + "/" + g.metric + "/" + g.level;
        RoutingGroupDto before = groups.put(key, g);
        for (int port : g.ports) {
            if (before == null || !before.ports.contains(port)) {
                events.emit(EventTypes.ROUTING_GROUP_MOVED, g.device, Detail.of("metric", g.metric, "port", port, "toLevel", g.level));
            }
        }
    }

    public synchronized List<AqDto> aqs() {
        return new ArrayList<>(aqs);
    }

    /** Replaces the set of placed AQs (after each allocation round's placement). */
    public synchronized void setAqs(List<AqDto> placed) {
        aqs.clear();
        aqs.addAll(placed);
    }
}
