package org.fairfabric.controller.netcfg;

import java.util.Optional;
import org.fairfabric.api.dto.HostDto;
import org.fairfabric.api.dto.LocationDto;
import org.fairfabric.api.error.ConflictException;
import org.fairfabric.api.error.ValidationException;
import org.fairfabric.api.service.DeviceCatalog;

/**
 * Where tenants' hosts may go in a network configuration, and what they may not take from the
 * configuration's own hosts: a host attaches to an edge port of a known switch (422 otherwise); it
 * may not take a configuration host's address (409) unless it is that host (its MAC or name at its
 * port), nor its MAC anywhere else (409); at the port of a configuration host it is a VM on that
 * server.
 */
final class ConfiguredHosts implements DeviceCatalog {
    private final NetworkConfig cfg;

    ConfiguredHosts(NetworkConfig cfg) {
        this.cfg = cfg;
    }

    @Override
    public void checkHostAttachment(LocationDto location) {
        if (!cfg.devices.containsKey(location.device)) {
            throw new ValidationException("location.device", "unknown device '" + location.device + "'");
        }
        NetworkConfig.Point p = new NetworkConfig.Point(location.device, location.port);
        if (cfg.linkPorts.contains(p)) {
            throw new ValidationException("location.port", p + " carries a fabric link; hosts attach to edge ports");
        }
        boolean devicePortsListed = cfg.portNames.keySet().stream().anyMatch(q -> q.device.equals(location.device));
        if (devicePortsListed && !cfg.portNames.containsKey(p)) {
            throw new ValidationException("location.port", "device '" + location.device + "' has no port " + location.port
                    + " in the network configuration");
        }
    }

    @Override
    public void checkHost(HostDto h) {
        checkHostAttachment(h.location);
        for (NetworkConfig.Host c : cfg.hosts) {
            String where = c.location.device + "/" + c.location.port;
            boolean here = c.location.device.equals(h.location.device) && c.location.port == h.location.port;
            if (c.mac.equalsIgnoreCase(h.mac) && !here) {
                throw new ConflictException("mac", "'" + h.id + "' has the MAC " + h.mac + " of the network configuration's host '"
                        + c.name + "', which is at " + where + ", not at " + h.location.device + "/" + h.location.port);
            }
            if (here && (c.mac.equalsIgnoreCase(h.mac) || c.name.equals(h.id))) {
                continue; // it is that host, claimed by a tenant
            }
            if (c.ips.contains(h.ip)) {
                throw new ConflictException("ip", h.ip + " is the network configuration's host '" + c.name + "' (at " + where + ")");
            }
        }
    }

    @Override
    public Optional<String> serverAt(LocationDto location) {
        for (NetworkConfig.Host c : cfg.hosts) {
            if (c.location.device.equals(location.device) && c.location.port == location.port) {
                return Optional.of(c.name);
            }
        }
        return Optional.empty();
    }
}
