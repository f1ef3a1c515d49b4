package org.fairfabric.controller.program;

import java.util.List;
import org.fairfabric.controller.p4rt.P4Bytes;
import org.fairfabric.controller.p4rt.P4InfoIndex;
import p4.v1.P4RuntimeOuterClass.Entity;
import p4.v1.P4RuntimeOuterClass.FieldMatch;

/**
 * The fabric pipeline's entities the allocation loop writes, by the P4 program's names and in
 * P4Runtime's canonical form: the first-hop path classifier, the host ports that keep the
 * pinned-path tag, and the Augmented Queue classifiers and configurations (docs/pipeline.md).
 */
public final class AllocationEntities extends EntityFactory {
    static final String PATH_CLASSIFIER = FabricEntities.IN + "path_classifier.path_classifier";
    static final String KEEP_TAG = FabricEntities.EG + "rewrite.host_port_keep_tag";
    static final String AQ_OUTBOUND = FabricEntities.IN + "aq_classify_outbound.aq_classify_outbound";
    static final String AQ_INBOUND = FabricEntities.EG + "aq_classify_inbound.aq_classify_inbound";
    static final String AQ_INGRESS_TABLE = FabricEntities.IN + "aq_ingress.aq_table";
    static final String AQ_EGRESS_TABLE = FabricEntities.EG + "aq_egress.aq_table";
    /** {@code AQ_CC_DROP}: drop above the limit, no ECN mark or virtual delay. */
    public static final int AQ_CC_DROP = 0;
    private static final long U32 = 0xFFFF_FFFFL;

    public AllocationEntities(P4InfoIndex p4) {
        super(p4);
    }

    /** Whether the P4Info has every table these entities go to. */
    public static boolean supported(P4InfoIndex p4) {
        try {
            for (String t : List.of(PATH_CLASSIFIER, KEEP_TAG, AQ_OUTBOUND, AQ_INBOUND, AQ_INGRESS_TABLE, AQ_EGRESS_TABLE)) {
                p4.tableId(t);
            }
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /** Frames to the host on {@code port} leave with their pinned-path tag (the host's shim counts per path). */
    public Entity keepTag(int port) {
        return entry(KEEP_TAG, List.of(exact(KEEP_TAG, "standard_metadata.egress_port", P4Bytes.of(port))), 0,
                action(FabricEntities.EG + "rewrite.keep_vlan_tag"));
    }

    /**
     * Untagged IPv4 from {@code srcIp} to {@code dstIp} whose L4 source port has {@code portValue}
     * under {@code portMask} (mask 0: any) is pinned to {@code pathId}.
     */
    public Entity classify(String srcIp, String dstIp, int portValue, int portMask, int pathId, int priority) {
        List<FieldMatch> m = new java.util.ArrayList<>();
        m.add(ternary(PATH_CLASSIFIER, "hdr.ipv4.src_addr", FabricEntities.ipv4Value(srcIp), U32));
        m.add(ternary(PATH_CLASSIFIER, "hdr.ipv4.dst_addr", FabricEntities.ipv4Value(dstIp), U32));
        if (portMask != 0) {
            m.add(ternary(PATH_CLASSIFIER, "meta.l4_src_port", portValue & portMask, portMask));
        }
        return entry(PATH_CLASSIFIER, m, priority,
                action(FabricEntities.IN + "path_classifier.assign_path", "path_id", P4Bytes.of(pathId)));
    }

    /** Traffic from {@code srcIp} entering at its first hop gets ingress AQ {@code aqId} (egress AQ id 0: none yet). */
    public Entity aqOutbound(String srcIp, long aqId) {
        return entry(AQ_OUTBOUND, List.of(exact(AQ_OUTBOUND, "hdr.ipv4.src_addr", P4Bytes.ipv4(srcIp))), 0,
                action(FabricEntities.IN + "aq_classify_outbound.set_aq_ids", "ing_aq_id", P4Bytes.of(aqId),
                        "egr_aq_id", P4Bytes.of(0)));
    }

    /** Traffic to {@code dstIp} leaving on its host port gets egress AQ {@code aqId}. */
    public Entity aqInbound(String dstIp, long aqId) {
        return entry(AQ_INBOUND, List.of(exact(AQ_INBOUND, "hdr.ipv4.dst_addr", P4Bytes.ipv4(dstIp))), 0,
                action(FabricEntities.EG + "aq_classify_inbound.set_egress_aq", "egr_aq_id", P4Bytes.of(aqId)));
    }

    /**
     * An AQ's configuration (AQ paper Table 1) as the action data of {@code aq_table} in the ingress
     * ({@code ingress} true) or egress instance. Fixed point as the pipeline expects; the inverse
     * rate (used only by delay-type AQs) saturates at 32 bits for rates below ~122 kbit/s.
     */
    public Entity aqConfig(boolean ingress, long aqId, int registerIndex, long rateFp, long limitBytes, int ccType,
                           long ecnThresholdBytes, long inverseRateFp) {
        String table = ingress ? AQ_INGRESS_TABLE : AQ_EGRESS_TABLE;
        String a = (ingress ? FabricEntities.IN + "aq_ingress" : FabricEntities.EG + "aq_egress") + ".aq_update";
        return entry(table, List.of(exact(table, "aq_id", P4Bytes.of(aqId))), 0,
                action(a, "index", P4Bytes.of(registerIndex), "rate_fp", P4Bytes.of(Math.min(rateFp, U32)),
                        "limit", P4Bytes.of(Math.min(limitBytes, U32)), "cc_type", P4Bytes.of(ccType),
                        "ecn_threshold", P4Bytes.of(Math.min(ecnThresholdBytes, U32)),
                        "inv_rate_fp", P4Bytes.of(Math.min(inverseRateFp, U32))));
    }
}
