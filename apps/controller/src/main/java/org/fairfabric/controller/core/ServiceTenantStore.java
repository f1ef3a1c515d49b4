package org.fairfabric.controller.core;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Supplier;
import org.fairfabric.api.dto.HostDto;
import org.fairfabric.api.dto.LocationDto;
import org.fairfabric.api.dto.TenantDto;
import org.fairfabric.api.error.NotFoundException;
import org.fairfabric.api.service.FabricService;
import org.fairfabric.core.model.Host;
import org.fairfabric.core.model.Tenant;
import org.fairfabric.core.model.Topology;
import org.fairfabric.core.ports.TenantStore;

/**
 * The core's tenant-store port over the embedded controller's {@link FabricService}, so that the
 * core reads and changes the same journaled tenants the REST API does. A host assigned by id is
 * looked up in the current topology for its addresses and attachment point. Check-then-act
 * sequences hold the service's monitor (its methods synchronise on it) to stay atomic.
 */
public final class ServiceTenantStore implements TenantStore {
    private final FabricService fabric;
    private final Supplier<Topology> topology;

    public ServiceTenantStore(FabricService fabric, Supplier<Topology> topology) {
        this.fabric = fabric;
        this.topology = topology;
    }

    static Tenant toCore(TenantDto t) {
        return new Tenant(t.id, t.name, t.weight, t.minBandwidthBps == null ? OptionalLong.empty() : OptionalLong.of(t.minBandwidthBps));
    }

    static TenantDto fromCore(Tenant t) {
        return new TenantDto(t.id(), t.name(), t.weight(), t.minBandwidthBps().isPresent() ? t.minBandwidthBps().getAsLong() : null);
    }

    @Override
    public Optional<Tenant> tenant(String tenantId) {
        return fabric.tenants().stream().filter(t -> t.id.equals(tenantId)).findFirst().map(ServiceTenantStore::toCore);
    }

    @Override
    public List<Tenant> tenants() {
        List<Tenant> out = new ArrayList<>();
        fabric.tenants().forEach(t -> out.add(toCore(t)));
        return out;
    }

    @Override
    public void putTenant(Tenant tenant) {
        TenantDto dto = fromCore(tenant);
        synchronized (fabric) {
            if (tenant(tenant.id()).isPresent()) {
                fabric.updateTenant(tenant.id(), current -> dto);
            } else {
                fabric.createTenant(dto);
            }
        }
    }

    @Override
    public boolean removeTenant(String tenantId) {
        synchronized (fabric) {
            if (tenant(tenantId).isEmpty()) {
                return false;
            }
            fabric.deleteTenant(tenantId);
            return true;
        }
    }

    @Override
    public void assignHost(String hostId, String tenantId) {
        synchronized (fabric) {
            if (tenant(tenantId).isEmpty()) {
                throw new IllegalArgumentException("unknown tenant " + tenantId);
            }
            Optional<HostDto> current = fabric.allHosts().stream().filter(h -> h.id.equals(hostId)).findFirst();
            HostDto base;
            if (current.isPresent()) {
                if (current.get().tenantId.equals(tenantId)) {
                    return;
                }
                base = current.get();
                fabric.removeHost(base.tenantId, hostId);
            } else {
                Host h;
                try {
                    h = topology.get().host(hostId);
                } catch (IllegalArgumentException | NotFoundException e) {
                    throw new IllegalArgumentException("unknown host " + hostId, e);
                }
                base = new HostDto(hostId, tenantId, h.ip(), h.mac(), new LocationDto(h.attachment().elementId(), h.attachment().port()));
            }
            fabric.addHost(new HostDto(hostId, tenantId, base.ip, base.mac, base.location));
        }
    }

    @Override
    public Optional<String> tenantOfHost(String hostId) {
        return fabric.allHosts().stream().filter(h -> h.id.equals(hostId)).findFirst().map(h -> h.tenantId);
    }

    @Override
    public List<String> hostsOf(String tenantId) {
        List<String> out = new ArrayList<>();
        fabric.allHosts().stream().filter(h -> h.tenantId.equals(tenantId)).forEach(h -> out.add(h.id));
        return out;
    }
}
