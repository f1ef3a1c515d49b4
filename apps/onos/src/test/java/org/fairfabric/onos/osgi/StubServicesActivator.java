package org.fairfabric.onos.osgi;

import java.util.ArrayList;
import java.util.List;
import org.onlab.packet.IpAddress;
import org.onosproject.cluster.ClusterServiceAdapter;
import org.onosproject.cluster.ControllerNode;
import org.onosproject.cluster.DefaultControllerNode;
import org.onosproject.cluster.Leader;
import org.onosproject.cluster.Leadership;
import org.onosproject.cluster.LeadershipServiceAdapter;
import org.onosproject.cluster.NodeId;
import org.onosproject.core.ApplicationId;
import org.onosproject.core.CoreServiceAdapter;
import org.onosproject.core.DefaultApplicationId;
import org.onosproject.net.Host;
import org.onosproject.net.Link;
import org.onosproject.net.flow.FlowRuleServiceAdapter;
import org.onosproject.net.group.GroupServiceAdapter;
import org.onosproject.net.host.HostServiceAdapter;
import org.onosproject.net.packet.PacketServiceAdapter;
import org.onosproject.net.config.NetworkConfigRegistryAdapter;
import org.onosproject.net.device.DeviceServiceAdapter;
import org.onosproject.net.link.LinkServiceAdapter;
import org.onosproject.net.pi.PiPipeconfServiceAdapter;
import org.onosproject.store.cluster.messaging.ClusterCommunicationServiceAdapter;
import org.onosproject.store.service.TestStorageService;
import org.onosproject.ui.UiExtensionServiceAdapter;
import org.osgi.framework.BundleActivator;
import org.osgi.framework.BundleContext;
import org.osgi.framework.ServiceRegistration;

/**
 * The activator of the stub bundle {@link BundleResolvesIT} builds: registers onos-api's test
 * adapters (a fragment of the onos-api bundle there) as the ONOS services fairfabric's components
 * reference, standing in for ONOS's core, which is not on Maven Central.
 */
public final class StubServicesActivator implements BundleActivator {
    /** The service interfaces registered, for the test to compare with the components' references. */
    public static final List<String> SERVICES = List.of(
            "org.onosproject.core.CoreService",
            "org.onosproject.store.service.StorageService",
            "org.onosproject.net.device.DeviceService",
            "org.onosproject.net.link.LinkService",
            "org.onosproject.net.pi.service.PiPipeconfService",
            "org.onosproject.ui.UiExtensionService",
            "org.onosproject.net.config.NetworkConfigRegistry",
            "org.onosproject.net.host.HostService",
            "org.onosproject.net.flow.FlowRuleService",
            "org.onosproject.net.group.GroupService",
            "org.onosproject.net.packet.PacketService",
            "org.onosproject.cluster.LeadershipService",
            "org.onosproject.cluster.ClusterService",
            "org.onosproject.store.cluster.messaging.ClusterCommunicationService");

    static final NodeId NODE = new NodeId("felix");

    private final List<ServiceRegistration<?>> registrations = new ArrayList<>();

    @Override
    public void start(BundleContext context) {
        registrations.add(context.registerService(SERVICES.get(0), new CoreServiceAdapter() {
            @Override
            public ApplicationId registerApplication(String name) {
                return new DefaultApplicationId(1, name);
            }
        }, null));
        registrations.add(context.registerService(SERVICES.get(1), new TestStorageService(), null));
        registrations.add(context.registerService(SERVICES.get(2), new DeviceServiceAdapter(), null));
        registrations.add(context.registerService(SERVICES.get(3), new LinkServiceAdapter() {
            @Override
            public Iterable<Link> getLinks() {
                return List.of(); // the adapter answers null; ONOS never does
            }
        }, null));
        registrations.add(context.registerService(SERVICES.get(4), new PiPipeconfServiceAdapter(), null));
        registrations.add(context.registerService(SERVICES.get(5), new UiExtensionServiceAdapter(), null));
        registrations.add(context.registerService(new String[] {SERVICES.get(6), "org.onosproject.net.config.NetworkConfigService"},
                new NetworkConfigRegistryAdapter(), null));
        registrations.add(context.registerService(SERVICES.get(7), new HostServiceAdapter() {
            @Override
            public Iterable<Host> getHosts() {
                return List.of();
            }
        }, null));
        registrations.add(context.registerService(SERVICES.get(8), new FlowRuleServiceAdapter(), null));
        registrations.add(context.registerService(SERVICES.get(9), new GroupServiceAdapter(), null));
        registrations.add(context.registerService(SERVICES.get(10), new PacketServiceAdapter(), null));
        // this node leads, so the platform runs the controller's components inside the framework
        registrations.add(context.registerService(SERVICES.get(11), new LeadershipServiceAdapter() {
            @Override
            public Leadership runForLeadership(String topic) {
                return new Leadership(topic, new Leader(NODE, 1, 1), List.of(NODE));
            }
        }, null));
        registrations.add(context.registerService(SERVICES.get(12), new ClusterServiceAdapter() {
            @Override
            public ControllerNode getLocalNode() {
                return new DefaultControllerNode(NODE, IpAddress.valueOf("127.0.0.1"));
            }
        }, null));
        registrations.add(context.registerService(SERVICES.get(13), new ClusterCommunicationServiceAdapter(), null));
    }

    @Override
    public void stop(BundleContext context) {
        registrations.forEach(ServiceRegistration::unregister);
        registrations.clear();
    }
}
