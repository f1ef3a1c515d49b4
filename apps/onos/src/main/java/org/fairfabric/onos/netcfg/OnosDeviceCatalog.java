package org.fairfabric.onos.netcfg;

import java.util.List;
import java.util.Objects;
import org.fairfabric.api.dto.LocationDto;
import org.fairfabric.api.error.ValidationException;
import org.fairfabric.api.service.DeviceCatalog;
import org.onosproject.net.ConnectPoint;
import org.onosproject.net.DeviceId;
import org.onosproject.net.Port;
import org.onosproject.net.PortNumber;
import org.onosproject.net.device.DeviceService;
import org.onosproject.net.link.LinkService;

/**
 * Host attachment points as ONOS knows them: a host attaches to a port of a device ONOS has, that
 * carries no infrastructure link. Same fields and messages as the embedded controller's checks.
 */
public final class OnosDeviceCatalog implements DeviceCatalog {
    private final DeviceService devices;
    private final LinkService links;

    public OnosDeviceCatalog(DeviceService devices, LinkService links) {
        this.devices = Objects.requireNonNull(devices);
        this.links = Objects.requireNonNull(links);
    }

    @Override
    public void checkHostAttachment(LocationDto location) {
        DeviceId id;
        try {
            id = DeviceId.deviceId(location.device);
        } catch (IllegalArgumentException e) {
            throw new ValidationException("location.device", "unknown device '" + location.device + "'");
        }
        if (devices.getDevice(id) == null) {
            throw new ValidationException("location.device", "unknown device '" + location.device + "'");
        }
        ConnectPoint p = new ConnectPoint(id, PortNumber.portNumber(location.port));
        if (!links.getLinks(p).isEmpty()) {
            throw new ValidationException("location.port", p + " carries a fabric link; hosts attach to edge ports");
        }
        List<Port> ports = devices.getPorts(id);
        if (!ports.isEmpty() && devices.getPort(p) == null) {
            throw new ValidationException("location.port", "device '" + location.device + "' has no port " + location.port
                    + " in the network configuration");
        }
    }
}
