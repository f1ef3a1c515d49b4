package org.fairfabric.onos.fabric;

import java.time.Clock;
import org.fairfabric.api.service.EventLog;
import org.fairfabric.api.service.FabricService;
import org.fairfabric.api.service.NetworkView;
import org.fairfabric.onos.AppConstants;
import java.util.List;
import org.fairfabric.onos.netcfg.FabricConfigFactories;
import org.fairfabric.onos.netcfg.OnosDeviceCatalog;
import org.fairfabric.onos.netcfg.OnosNetworkConfigValidator;
import org.fairfabric.onos.store.ConsistentMapFabricStore;
import org.fairfabric.onos.store.Utf8Serializer;
import org.onosproject.core.ApplicationId;
import org.onosproject.core.CoreService;
import org.onosproject.net.config.ConfigFactory;
import org.onosproject.net.config.NetworkConfigRegistry;
import org.onosproject.net.device.DeviceEvent;
import org.onosproject.net.device.DeviceListener;
import org.onosproject.net.device.DeviceService;
import org.onosproject.net.link.LinkEvent;
import org.onosproject.net.link.LinkListener;
import org.onosproject.net.link.LinkService;
import org.onosproject.store.service.ConsistentMap;
import org.onosproject.store.service.StorageService;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The shared provisioning service over ONOS: tenants and hosts in a ConsistentMap, host
 * attachment checked against ONOS's devices and links, the network view following ONOS's topology.
 */
@Component(immediate = true, service = FairfabricService.class)
public class FabricComponent implements FairfabricService {
    static final String STATE_MAP = "fairfabric-state";
    static final int EVENTS_KEPT = 10_000;

    private static final Logger log = LoggerFactory.getLogger(FabricComponent.class);

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected CoreService coreService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected StorageService storageService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected DeviceService deviceService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected LinkService linkService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected NetworkConfigRegistry netcfgRegistry;

    private final List<ConfigFactory<?, ?>> configFactories = FabricConfigFactories.all();

    private final DeviceListener deviceListener = this::deviceChanged;
    private final LinkListener linkListener = this::linkChanged;
    private volatile FabricService fabric;
    private volatile NetworkView network;
    private volatile String run;

    @Activate
    protected void activate() {
        ApplicationId appId = coreService.registerApplication(AppConstants.APP_NAME);
        configFactories.forEach(netcfgRegistry::registerConfigFactory);
        ConsistentMap<String, String> map = storageService.<String, String>consistentMapBuilder()
                .withName(STATE_MAP)
                .withApplicationId(appId)
                .withSerializer(new Utf8Serializer())
                .build();
        run = java.util.UUID.randomUUID().toString().substring(0, 8);
        EventLog events = new EventLog(Clock.systemUTC(), EVENTS_KEPT);
        OnosDeviceCatalog catalog = new OnosDeviceCatalog(deviceService, linkService);
        network = new NetworkView(events);
        fabric = new FabricService(new ConsistentMapFabricStore(map), new OnosNetworkConfigValidator(catalog), events, catalog);
        resetTopology();
        deviceService.addListener(deviceListener);
        linkService.addListener(linkListener);
        log.info("Started: {} tenants, {} hosts", fabric.tenants().size(), fabric.allHosts().size());
    }

    @Deactivate
    protected void deactivate() {
        deviceService.removeListener(deviceListener);
        linkService.removeListener(linkListener);
        configFactories.forEach(netcfgRegistry::unregisterConfigFactory);
        log.info("Stopped");
    }

    @Override
    public FabricService fabric() {
        return fabric;
    }

    @Override
    public NetworkView network() {
        return network;
    }

    @Override
    public String run() {
        return run;
    }

    private void deviceChanged(DeviceEvent event) {
        if (event.type() == DeviceEvent.Type.DEVICE_AVAILABILITY_CHANGED) {
            network.setDeviceAvailable(event.subject().id().toString(), deviceService.isAvailable(event.subject().id()));
        } else if (event.type() == DeviceEvent.Type.DEVICE_ADDED || event.type() == DeviceEvent.Type.DEVICE_REMOVED) {
            resetTopology();
        }
    }

    private void linkChanged(LinkEvent event) {
        resetTopology();
    }

    private void resetTopology() {
        network.resetTopology(OnosTopology.devices(deviceService, netcfgRegistry), OnosTopology.links(linkService));
    }
}
