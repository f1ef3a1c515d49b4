package org.fairfabric.onos.fabric;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.onlab.packet.ChassisId;
import org.onosproject.core.ApplicationId;
import org.onosproject.core.CoreServiceAdapter;
import org.onosproject.core.DefaultApplicationId;
import org.onosproject.net.ConnectPoint;
import org.onosproject.net.DefaultAnnotations;
import org.onosproject.net.DefaultDevice;
import org.onosproject.net.DefaultLink;
import org.onosproject.net.DefaultPort;
import org.onosproject.net.Device;
import org.onosproject.net.DeviceId;
import org.onosproject.net.Link;
import org.onosproject.net.Port;
import org.onosproject.net.PortNumber;
import org.onosproject.net.config.Config;
import org.onosproject.net.config.ConfigFactory;
import org.onosproject.net.config.NetworkConfigRegistryAdapter;
import org.onosproject.net.device.DeviceServiceAdapter;
import org.onosproject.net.link.LinkServiceAdapter;
import org.onosproject.net.provider.ProviderId;
import org.onosproject.store.service.StorageService;
import org.onosproject.store.service.ConsistentMap;
import org.onosproject.store.service.ConsistentMapBuilder;
import org.onosproject.store.service.TestConsistentMap;
import org.onosproject.store.service.TestStorageService;
import org.fairfabric.onos.netcfg.FabricDeviceConfig;

/**
 * A small fabric on onos-api's service adapters: leaf1 and leaf2 (ports 1-4) joined through
 * spine1 (ports 1-2) by leaf port 3; hosts may attach at leaf ports 1, 2 and 4.
 */
public final class TestFabric {
    static final ProviderId PROVIDER = new ProviderId("test", "fairfabric");

    public final Devices devices = new Devices();
    public final Links links = new Links();
    public final StorageService storage = new Storage();
    public final Netcfg netcfg = new Netcfg();

    public TestFabric() {
        devices.add("device:leaf1", 4);
        devices.add("device:leaf2", 4);
        devices.add("device:spine1", 2);
        netcfg.role("device:leaf1", "{\"role\": \"leaf\", \"pod\": 0}");
        netcfg.role("device:leaf2", "{\"role\": \"leaf\"}");
        netcfg.role("device:spine1", "{\"role\": \"spine\"}");
        links.cable("device:leaf1", 3, "device:spine1", 1);
        links.cable("device:leaf2", 3, "device:spine1", 2);
    }

    /** A started fabric component over this fabric's services. */
    public FabricComponent start() {
        FabricComponent c = new FabricComponent();
        c.coreService = new CoreServiceAdapter() {
            @Override
            public ApplicationId registerApplication(String name) {
                return new DefaultApplicationId(7, name);
            }
        };
        c.storageService = storage;
        c.deviceService = devices;
        c.linkService = links;
        c.netcfgRegistry = netcfg;
        c.activate();
        return c;
    }

    public static void stop(FabricComponent c) {
        c.deactivate();
    }

    /** onos-api's test storage, except that a map of the same name is the same map (as in an ONOS cluster). */
    static final class Storage extends TestStorageService {
        final Map<String, ConsistentMap<?, ?>> maps = new HashMap<>();

        @Override
        @SuppressWarnings("unchecked")
        public <K, V> ConsistentMapBuilder<K, V> consistentMapBuilder() {
            return new TestConsistentMap.Builder<K, V>() {
                @Override
                public ConsistentMap<K, V> build() {
                    ConsistentMap<?, ?> m = maps.get(name());
                    if (m == null) {
                        m = super.build();
                        maps.put(name(), m);
                    }
                    return (ConsistentMap<K, V>) m;
                }
            };
        }
    }

    /** ONOS's network configuration registry: the app's config factories and the devices' fairfabric blocks. */
    public static final class Netcfg extends NetworkConfigRegistryAdapter {
        public final Set<ConfigFactory> factories = new HashSet<>();
        final Map<DeviceId, String> roles = new LinkedHashMap<>();

        final Map<Object, String> hostBlocks = new LinkedHashMap<>();

        public void role(String device, String json) {
            roles.put(DeviceId.deviceId(device), json);
        }

        /** A host's {@code fairfabric} block, e.g. {@code {"shim": true}}. */
        public void hostBlock(org.onosproject.net.HostId host, String json) {
            hostBlocks.put(host, json);
        }

        @Override
        public void registerConfigFactory(ConfigFactory factory) {
            factories.add(factory);
        }

        @Override
        public void unregisterConfigFactory(ConfigFactory factory) {
            factories.remove(factory);
        }

        @Override
        @SuppressWarnings("unchecked")
        public <S, C extends Config<S>> C getConfig(S subject, Class<C> configClass) {
            if (configClass == org.fairfabric.onos.netcfg.FabricHostConfig.class && hostBlocks.containsKey(subject)) {
                org.fairfabric.onos.netcfg.FabricHostConfig h = new org.fairfabric.onos.netcfg.FabricHostConfig();
                try {
                    h.init((org.onosproject.net.HostId) subject, org.fairfabric.onos.netcfg.FabricHostConfig.KEY,
                            new ObjectMapper().readTree(hostBlocks.get(subject)), new ObjectMapper(), null);
                } catch (java.io.IOException e) {
                    throw new IllegalArgumentException(hostBlocks.get(subject), e);
                }
                return (C) h;
            }
            String json = roles.get(subject);
            if (configClass != FabricDeviceConfig.class || json == null) {
                return null;
            }
            FabricDeviceConfig c = new FabricDeviceConfig();
            try {
                c.init((DeviceId) subject, FabricDeviceConfig.KEY, new ObjectMapper().readTree(json), new ObjectMapper(), null);
            } catch (java.io.IOException e) {
                throw new IllegalArgumentException(json, e);
            }
            return (C) c;
        }
    }

    /** Devices with ports, all available. */
    public static final class Devices extends DeviceServiceAdapter {
        final Map<DeviceId, Device> byId = new LinkedHashMap<>();
        final Map<DeviceId, List<Port>> ports = new LinkedHashMap<>();

        public void add(String id, int portCount) {
            add(id, portCount, "grpc://127.0.0.1:5005" + byId.size() + "?device_id=" + (byId.size() + 1));
        }

        public void add(String id, int portCount, String managementAddress) {
            DeviceId d = DeviceId.deviceId(id);
            Device device = new DefaultDevice(PROVIDER, d, Device.Type.SWITCH, "fairfabric", "p4switch", "1", "0",
                    new ChassisId(), DefaultAnnotations.builder().set("managementAddress", managementAddress).build());
            byId.put(d, device);
            List<Port> list = new ArrayList<>();
            for (int p = 1; p <= portCount; p++) {
                list.add(new DefaultPort(device, PortNumber.portNumber(p), true));
            }
            ports.put(d, list);
        }

        @Override
        public Iterable<Device> getDevices() {
            return new ArrayList<>(byId.values());
        }

        @Override
        public int getDeviceCount() {
            return byId.size();
        }

        @Override
        public Device getDevice(DeviceId id) {
            return byId.get(id);
        }

        @Override
        public List<Port> getPorts(DeviceId id) {
            return ports.getOrDefault(id, List.of());
        }

        @Override
        public Port getPort(DeviceId id, PortNumber n) {
            for (Port p : getPorts(id)) {
                if (p.number().equals(n)) {
                    return p;
                }
            }
            return null;
        }

        @Override
        public Port getPort(ConnectPoint cp) {
            return getPort(cp.deviceId(), cp.port());
        }

        @Override
        public boolean isAvailable(DeviceId id) {
            return byId.containsKey(id);
        }
    }

    /** Bidirectional 100 Mbit/s cables. */
    public static final class Links extends LinkServiceAdapter {
        final Set<Link> all = new HashSet<>();

        public void cable(String a, int pa, String b, int pb) {
            cable(a, pa, b, pb, 100);
        }

        public void cable(String a, int pa, String b, int pb, long mbps) {
            ConnectPoint x = new ConnectPoint(DeviceId.deviceId(a), PortNumber.portNumber(pa));
            ConnectPoint y = new ConnectPoint(DeviceId.deviceId(b), PortNumber.portNumber(pb));
            all.add(link(x, y, mbps));
            all.add(link(y, x, mbps));
        }

        private static Link link(ConnectPoint src, ConnectPoint dst, long mbps) {
            return DefaultLink.builder().providerId(PROVIDER).src(src).dst(dst).type(Link.Type.DIRECT)
                    .state(Link.State.ACTIVE).annotations(DefaultAnnotations.builder().set("bandwidth", Long.toString(mbps)).build()).build();
        }

        @Override
        public Iterable<Link> getLinks() {
            return new ArrayList<>(all);
        }

        @Override
        public int getLinkCount() {
            return all.size();
        }

        @Override
        public Set<Link> getLinks(ConnectPoint p) {
            Set<Link> out = new HashSet<>();
            for (Link l : all) {
                if (l.src().equals(p) || l.dst().equals(p)) {
                    out.add(l);
                }
            }
            return out;
        }
    }
}
