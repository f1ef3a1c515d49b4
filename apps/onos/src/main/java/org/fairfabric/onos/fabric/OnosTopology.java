package org.fairfabric.onos.fabric;

import java.util.ArrayList;
import java.util.List;
import org.fairfabric.api.dto.DeviceDto;
import org.fairfabric.api.dto.LinkDto;
import org.fairfabric.api.dto.LocationDto;
import org.onosproject.net.ConnectPoint;
import org.onosproject.net.Device;
import org.onosproject.net.Link;
import org.fairfabric.onos.netcfg.FabricDeviceConfig;
import org.onosproject.net.config.NetworkConfigService;
import org.onosproject.net.device.DeviceService;
import org.onosproject.net.link.LinkService;

/** ONOS's devices and links as the shared API's DTOs. */
public final class OnosTopology {
    /** Annotation set by the netcfg ({@code "basic": {"bandwidth": Mbit/s}}) on links. */
    static final String BANDWIDTH = "bandwidth";
    /** Role of a device without a valid fairfabric netcfg block. */
    static final String UNKNOWN_ROLE = "unknown";

    private OnosTopology() {
    }

    /** Devices with the role their {@code fairfabric} netcfg block gives ({@value #UNKNOWN_ROLE} without one). */
    public static List<DeviceDto> devices(DeviceService service, NetworkConfigService netcfg) {
        List<DeviceDto> out = new ArrayList<>();
        for (Device d : service.getDevices()) {
            FabricDeviceConfig cfg = netcfg.getConfig(d.id(), FabricDeviceConfig.class);
            String role = cfg != null && cfg.isValid() ? cfg.role() : null;
            String address = d.annotations().value("managementAddress");
            out.add(new DeviceDto(d.id().toString(), role == null ? UNKNOWN_ROLE : role, address == null ? "" : address,
                    service.isAvailable(d.id())));
        }
        return out;
    }

    public static List<LinkDto> links(LinkService service) {
        List<LinkDto> out = new ArrayList<>();
        for (Link l : service.getLinks()) {
            out.add(new LinkDto(location(l.src()), location(l.dst()), capacityBps(l), 0, l.state() == Link.State.ACTIVE));
        }
        return out;
    }

    static LocationDto location(ConnectPoint p) {
        return new LocationDto(p.deviceId().toString(), (int) p.port().toLong());
    }

    static long capacityBps(Link l) {
        String mbps = l.annotations().value(BANDWIDTH);
        if (mbps == null) {
            return 0;
        }
        try {
            return Math.round(Double.parseDouble(mbps) * 1e6);
        } catch (NumberFormatException e) {
            return 0;
        }
    }
}
