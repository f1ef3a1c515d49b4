package org.fairfabric.onos.netcfg;

import java.util.List;
import org.onosproject.net.DeviceId;
import org.onosproject.net.HostId;
import org.onosproject.net.config.ConfigFactory;
import org.onosproject.net.config.basics.SubjectFactories;

/** The config classes ONOS's network configuration learns from this app ({@code "fairfabric"} under devices and hosts). */
public final class FabricConfigFactories {
    private FabricConfigFactories() {
    }

    public static List<ConfigFactory<?, ?>> all() {
        return List.of(
                new ConfigFactory<DeviceId, FabricDeviceConfig>(SubjectFactories.DEVICE_SUBJECT_FACTORY,
                        FabricDeviceConfig.class, FabricDeviceConfig.KEY) {
                    @Override
                    public FabricDeviceConfig createConfig() {
                        return new FabricDeviceConfig();
                    }
                },
                new ConfigFactory<HostId, FabricHostConfig>(SubjectFactories.HOST_SUBJECT_FACTORY,
                        FabricHostConfig.class, FabricHostConfig.KEY) {
                    @Override
                    public FabricHostConfig createConfig() {
                        return new FabricHostConfig();
                    }
                });
    }
}
