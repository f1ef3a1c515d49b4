package org.fairfabric.onos.platform;

import org.fairfabric.core.platform.DeviceProgramming;
import org.fairfabric.core.platform.FabricTopology;
import org.fairfabric.core.platform.PacketService;
import p4.v1.P4RuntimeOuterClass.Entity;

/**
 * The controller's platform boundary (apps/core platform) over ONOS's services, for components
 * that run inside ONOS: the fabric's topology, slice programming as PI flow rules and groups, and
 * packet I/O through the pipeconf's interpreter.
 */
public interface FabricPlatform {
    FabricTopology topology();

    /** Writes only while this node leads; on other nodes a slice completes with null and writes nothing. */
    DeviceProgramming<Entity, SliceWrite> devices();

    PacketService packets();

    /** Whether this node holds {@link FabricPlatformComponent#LEADERSHIP_TOPIC}: only the leader computes and programs. */
    boolean isLeader();
}
