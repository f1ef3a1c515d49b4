package org.fairfabric.controller.fack;

import java.util.List;
import org.fairfabric.controller.p4rt.P4Bytes;
import org.fairfabric.controller.p4rt.P4InfoIndex;
import p4.v1.P4RuntimeOuterClass.Action;
import p4.v1.P4RuntimeOuterClass.CloneSessionEntry;
import p4.v1.P4RuntimeOuterClass.DirectMeterEntry;
import p4.v1.P4RuntimeOuterClass.Entity;
import p4.v1.P4RuntimeOuterClass.FieldMatch;
import p4.v1.P4RuntimeOuterClass.MeterConfig;
import p4.v1.P4RuntimeOuterClass.PacketReplicationEngineEntry;
import p4.v1.P4RuntimeOuterClass.Replica;
import p4.v1.P4RuntimeOuterClass.TableAction;
import p4.v1.P4RuntimeOuterClass.TableEntry;

/**
 * The fabric pipeline's entities FACK needs (docs/pipeline.md "P4TE FACK"), by the P4 program's
 * names: the classes FACK is on for, the per-(host port, DSCP) safe-rate meters, the uplinks'
 * utilisation meters and the clone sessions that send a FACK back out of the sender's port.
 */
final class FackEntities {
    static final String FACK_CLASSES = "FabricEgress.fack.fack_classes";
    static final String ENABLE_FACK = "FabricEgress.fack.enable_fack";
    static final String CLASS_SAFE_RATE = "FabricIngress.safe_rate.class_safe_rate";
    static final String READ_CLASS_COLOR = "FabricIngress.safe_rate.read_class_color";
    static final String LINK_UTIL = "FabricEgress.sensing.link_util";
    static final String READ_LINK_COLOR = "FabricEgress.sensing.read_link_color";
    /** {@code FACK_CLONE_SESSION_BASE} of the program: a FACK for data from port p is cloned to session base + p. */
    static final int CLONE_SESSION_BASE = 1024;

    private final P4InfoIndex p4;

    FackEntities(P4InfoIndex p4) {
        this.p4 = p4;
    }

    /** Whether the P4Info has every table FACK writes. */
    static boolean supported(P4InfoIndex p4) {
        try {
            for (String t : List.of(FACK_CLASSES, CLASS_SAFE_RATE, LINK_UTIL)) {
                p4.tableId(t);
            }
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /** FACK on for {@code dscp}, at most one FACK per {@code minBytes} of a flow's sequence space. */
    Entity fackClass(int dscp, long minBytes) {
        return entry(FACK_CLASSES, List.of(exact(FACK_CLASSES, "hdr.ipv4.dscp", dscp)),
                action(ENABLE_FACK, "min_bytes_between", minBytes));
    }

    /** Packets of {@code dscp} entering at host port {@code port} are coloured by their safe-rate meter. */
    Entity classSafeRate(int port, int dscp) {
        return entry(CLASS_SAFE_RATE, List.of(exact(CLASS_SAFE_RATE, "standard_metadata.ingress_port", port),
                exact(CLASS_SAFE_RATE, "hdr.ipv4.dscp", dscp)), action(READ_CLASS_COLOR));
    }

    /** The safe-rate meter of {@link #classSafeRate}: one rate (PIR = CIR), so anything above it is not GREEN. */
    Entity classSafeRateMeter(int port, int dscp, long bytesPerSecond, long burstBytes) {
        return meter(classSafeRate(port, dscp), bytesPerSecond, burstBytes, bytesPerSecond, burstBytes);
    }

    /** Packets leaving on {@code port} are coloured by the port's utilisation meter. */
    Entity linkUtil(int port) {
        return entry(LINK_UTIL, List.of(exact(LINK_UTIL, "standard_metadata.egress_port", port)), action(READ_LINK_COLOR));
    }

    Entity linkUtilMeter(int port, long cirBytesPerSecond, long cburst, long pirBytesPerSecond, long pburst) {
        return meter(linkUtil(port), cirBytesPerSecond, cburst, pirBytesPerSecond, pburst);
    }

    /** Clone session {@link #CLONE_SESSION_BASE} + port: the FACK leaves on the port the data came in on. */
    Entity cloneSession(int port) {
        return Entity.newBuilder().setPacketReplicationEngineEntry(PacketReplicationEngineEntry.newBuilder()
                .setCloneSessionEntry(CloneSessionEntry.newBuilder().setSessionId(CLONE_SESSION_BASE + port)
                        .addReplicas(Replica.newBuilder().setEgressPort(port).setInstance(1)))).build();
    }

    private Entity meter(Entity tableEntry, long cir, long cburst, long pir, long pburst) {
        TableEntry key = tableEntry.getTableEntry().toBuilder().clearAction().build();
        return Entity.newBuilder().setDirectMeterEntry(DirectMeterEntry.newBuilder().setTableEntry(key)
                .setConfig(MeterConfig.newBuilder().setCir(cir).setCburst(cburst).setPir(pir).setPburst(pburst))).build();
    }

    private FieldMatch exact(String table, String field, long value) {
        return FieldMatch.newBuilder().setFieldId(p4.matchFieldId(table, field))
                .setExact(FieldMatch.Exact.newBuilder().setValue(P4Bytes.of(value))).build();
    }

    private Action action(String name, Object... params) {
        Action.Builder a = Action.newBuilder().setActionId(p4.actionId(name));
        for (int i = 0; i < params.length; i += 2) {
            a.addParams(Action.Param.newBuilder().setParamId(p4.paramId(name, (String) params[i]))
                    .setValue(P4Bytes.of((Long) params[i + 1])));
        }
        return a.build();
    }

    private Entity entry(String table, List<FieldMatch> match, Action action) {
        return Entity.newBuilder().setTableEntry(TableEntry.newBuilder().setTableId(p4.tableId(table)).addAllMatch(match)
                .setAction(TableAction.newBuilder().setAction(action))).build();
    }
}
