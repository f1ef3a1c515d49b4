package org.fairfabric.onos.platform;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.onlab.packet.IpAddress;
import org.onlab.packet.MacAddress;
import org.onlab.packet.VlanId;
import org.onosproject.net.DefaultAnnotations;
import org.onosproject.net.DefaultHost;
import org.onosproject.net.DeviceId;
import org.onosproject.net.Host;
import org.onosproject.net.HostId;
import org.onosproject.net.HostLocation;
import org.onosproject.net.PortNumber;
import org.onosproject.net.host.HostServiceAdapter;
import org.onosproject.net.provider.ProviderId;

/** ONOS's hosts (as the netcfg's "hosts" block or host discovery would make them). */
final class TestHosts extends HostServiceAdapter {
    final List<Host> hosts = new ArrayList<>();

    void add(String name, String mac, String ip, String device, int port) {
        MacAddress m = MacAddress.valueOf(mac);
        DefaultAnnotations a = name == null ? DefaultAnnotations.builder().build() : DefaultAnnotations.builder().set("name", name).build();
        hosts.add(new DefaultHost(new ProviderId("test", "fairfabric"), HostId.hostId(m, VlanId.NONE), m, VlanId.NONE,
                new HostLocation(DeviceId.deviceId(device), PortNumber.portNumber(port), 0),
                Set.of(IpAddress.valueOf(ip)), a));
    }

    @Override
    public Iterable<Host> getHosts() {
        return new ArrayList<>(hosts);
    }

    @Override
    public int getHostCount() {
        return hosts.size();
    }
}
