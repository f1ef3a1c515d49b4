package org.fairfabric.controller;

import org.fairfabric.api.service.FabricService;
import org.fairfabric.controller.p4rt.P4InfoIndex;
import org.fairfabric.controller.p4rt.PacketIo;
import org.fairfabric.controller.p4rt.PipelineFiles;
import org.fairfabric.controller.platform.EmbeddedTopology;
import org.fairfabric.controller.platform.P4RuntimePackets;
import org.fairfabric.controller.platform.SliceComposer;
import org.fairfabric.controller.program.FabricPlan;
import p4.v1.P4RuntimeOuterClass.PacketIn;

/**
 * The embedded controller's side of the platform boundary (docs/architecture.md): the fabric
 * model, the slice composer over the P4Runtime agents, and packet I/O over their streams.
 */
final class Platform {
    final EmbeddedTopology topology;
    final SliceComposer slices = new SliceComposer();
    /** Null without a pipeline. */
    final P4RuntimePackets packets;
    /** Null without a pipeline. */
    final P4InfoIndex p4;
    final boolean fabricPipeline;

    Platform(FabricService fabric, PipelineFiles pipeline) {
        topology = new EmbeddedTopology(fabric::allHosts);
        p4 = pipeline == null ? null : new P4InfoIndex(pipeline.p4info);
        packets = pipeline == null ? null : new P4RuntimePackets(new PacketIo(pipeline.p4info), slices::agents);
        fabricPipeline = p4 != null && FabricPlan.isFabricPipeline(p4);
    }

    /** Every packet-in of the fleet (gRPC threads). */
    void onPacketIn(String deviceId, PacketIn packet, long receivedNanos) {
        if (packets != null) {
            packets.onPacketIn(deviceId, packet, receivedNanos);
        }
    }
}
