package org.fairfabric.pipeconf;

import org.onosproject.net.pi.model.PiActionId;
import org.onosproject.net.pi.model.PiActionParamId;
import org.onosproject.net.pi.model.PiActionProfileId;
import org.onosproject.net.pi.model.PiMatchFieldId;
import org.onosproject.net.pi.model.PiPacketMetadataId;
import org.onosproject.net.pi.model.PiTableId;

/**
 * Names of the fabric pipeline (pipeconfs/p4/fabric.p4) that Java code uses, in one
 * place. The pipeconf test checks every one of them against the generated P4Info.
 */
public final class FabricConstants {

    private FabricConstants() {
    }

    /** The port whose packets carry the packet_out / packet_in headers. */
    public static final long CPU_PORT = 255;

    // Controller packet metadata (packet_out / packet_in headers).
    public static final PiPacketMetadataId EGRESS_PORT = PiPacketMetadataId.of("egress_port");
    public static final PiPacketMetadataId DO_FORWARD = PiPacketMetadataId.of("do_forward");
    public static final PiPacketMetadataId PAD = PiPacketMetadataId.of("_pad");
    public static final PiPacketMetadataId INGRESS_PORT = PiPacketMetadataId.of("ingress_port");
    public static final PiPacketMetadataId REASON = PiPacketMetadataId.of("reason");
    public static final PiPacketMetadataId EVENT_PORT = PiPacketMetadataId.of("event_port");
    public static final PiPacketMetadataId METRIC = PiPacketMetadataId.of("metric");
    public static final PiPacketMetadataId DIRECTION = PiPacketMetadataId.of("direction");
    public static final PiPacketMetadataId VALUE = PiPacketMetadataId.of("value");
    public static final int PORT_BITS = 9;

    // Match fields.
    public static final PiMatchFieldId HDR_INGRESS_PORT = PiMatchFieldId.of("standard_metadata.ingress_port");
    public static final PiMatchFieldId HDR_EGRESS_PORT = PiMatchFieldId.of("standard_metadata.egress_port");
    public static final PiMatchFieldId HDR_ETH_DST = PiMatchFieldId.of("hdr.ethernet.dst_addr");
    public static final PiMatchFieldId HDR_IPV4_SRC = PiMatchFieldId.of("hdr.ipv4.src_addr");
    public static final PiMatchFieldId HDR_IPV4_DST = PiMatchFieldId.of("hdr.ipv4.dst_addr");
    public static final PiMatchFieldId HDR_IP_PROTO = PiMatchFieldId.of("hdr.ipv4.protocol");
    public static final PiMatchFieldId HDR_IPV4_DSCP = PiMatchFieldId.of("hdr.ipv4.dscp");
    public static final PiMatchFieldId HDR_VLAN_VID = PiMatchFieldId.of("hdr.vlan.vid");
    public static final PiMatchFieldId HDR_ARP_TPA = PiMatchFieldId.of("hdr.arp.tpa");
    public static final PiMatchFieldId HDR_L4_SRC = PiMatchFieldId.of("meta.l4_src_port");
    public static final PiMatchFieldId HDR_L4_DST = PiMatchFieldId.of("meta.l4_dst_port");
    public static final PiMatchFieldId HDR_AQ_ID = PiMatchFieldId.of("aq_id");

    // Tables.
    public static final PiTableId INGRESS_PORT_KIND = PiTableId.of("FabricIngress.port_kind.ingress_port_kind");
    public static final PiTableId EGRESS_PORT_KIND = PiTableId.of("FabricEgress.port_kind.egress_port_kind");
    public static final PiTableId PORT_MACS = PiTableId.of("FabricEgress.rewrite.port_macs");
    public static final PiTableId MY_STATION = PiTableId.of("FabricIngress.my_station.my_station");
    public static final PiTableId ARP_TABLE = PiTableId.of("FabricIngress.arp.arp_table");
    public static final PiTableId ACL = PiTableId.of("FabricIngress.acl.acl");
    public static final PiTableId ROUTING_DOWN = PiTableId.of("FabricIngress.downward_routing.routing_down");
    public static final PiTableId PINNED_PATH = PiTableId.of("FabricIngress.pinned_path.pinned_path");
    public static final PiTableId PATH_CLASSIFIER = PiTableId.of("FabricIngress.path_classifier.path_classifier");
    public static final PiTableId UP_DELAY = PiTableId.of("FabricIngress.upward_routing.up_delay");
    public static final PiTableId UP_QUEUE = PiTableId.of("FabricIngress.upward_routing.up_queue");
    public static final PiTableId UP_UTIL = PiTableId.of("FabricIngress.upward_routing.up_util");
    public static final PiTableId CLASS_SAFE_RATE = PiTableId.of("FabricIngress.safe_rate.class_safe_rate");
    public static final PiTableId DELAY_SENSING = PiTableId.of("FabricIngress.delay_sensing.delay_sensing");
    public static final PiTableId QUEUE_SENSING = PiTableId.of("FabricEgress.sensing.queue_sensing");
    public static final PiTableId LINK_UTIL = PiTableId.of("FabricEgress.sensing.link_util");
    public static final PiTableId ECN_MARKING = PiTableId.of("FabricEgress.ecn.ecn_marking");
    public static final PiTableId FACK_CLASSES = PiTableId.of("FabricEgress.fack.fack_classes");
    public static final PiTableId AQ_CLASSIFY_OUTBOUND =
            PiTableId.of("FabricIngress.aq_classify_outbound.aq_classify_outbound");
    public static final PiTableId AQ_CLASSIFY_INBOUND =
            PiTableId.of("FabricEgress.aq_classify_inbound.aq_classify_inbound");
    public static final PiTableId AQ_INGRESS = PiTableId.of("FabricIngress.aq_ingress.aq_table");
    public static final PiTableId AQ_EGRESS = PiTableId.of("FabricEgress.aq_egress.aq_table");

    // Action profiles (routing groups).
    public static final PiActionProfileId UP_DELAY_SELECTOR =
            PiActionProfileId.of("FabricIngress.upward_routing.up_delay_selector");
    public static final PiActionProfileId UP_QUEUE_SELECTOR =
            PiActionProfileId.of("FabricIngress.upward_routing.up_queue_selector");
    public static final PiActionProfileId UP_UTIL_SELECTOR =
            PiActionProfileId.of("FabricIngress.upward_routing.up_util_selector");

    // Actions and their parameters.
    public static final PiActionId SET_INGRESS_PORT_KIND =
            PiActionId.of("FabricIngress.port_kind.set_ingress_port_kind");
    public static final PiActionId SET_EGRESS_PORT_KIND =
            PiActionId.of("FabricEgress.port_kind.set_egress_port_kind");
    public static final PiActionId REWRITE_MACS = PiActionId.of("FabricEgress.rewrite.rewrite_macs");
    public static final PiActionId ARP_REPLY = PiActionId.of("FabricIngress.arp.arp_reply");
    public static final PiActionId ACL_DROP = PiActionId.of("FabricIngress.acl.acl_drop");
    public static final PiActionId ROUTE_DOWN = PiActionId.of("FabricIngress.downward_routing.route_down");
    public static final PiActionId SET_PINNED_UPLINK = PiActionId.of("FabricIngress.pinned_path.set_pinned_uplink");
    public static final PiActionId ASSIGN_PATH = PiActionId.of("FabricIngress.path_classifier.assign_path");
    public static final PiActionId SET_LOW_DELAY_PORT =
            PiActionId.of("FabricIngress.upward_routing.set_low_delay_port");
    public static final PiActionId SET_LOW_QUEUE_PORT =
            PiActionId.of("FabricIngress.upward_routing.set_low_queue_port");
    public static final PiActionId SET_LOW_UTIL_PORT =
            PiActionId.of("FabricIngress.upward_routing.set_low_util_port");
    public static final PiActionId SET_DELAY_DELTA = PiActionId.of("FabricIngress.delay_sensing.set_delay_delta");
    public static final PiActionId SET_QUEUE_DELTA = PiActionId.of("FabricEgress.sensing.set_queue_delta");
    public static final PiActionId READ_LINK_COLOR = PiActionId.of("FabricEgress.sensing.read_link_color");
    public static final PiActionId READ_CLASS_COLOR = PiActionId.of("FabricIngress.safe_rate.read_class_color");
    public static final PiActionId SET_ECN_THRESHOLD = PiActionId.of("FabricEgress.ecn.set_ecn_threshold");
    public static final PiActionId ENABLE_FACK = PiActionId.of("FabricEgress.fack.enable_fack");
    public static final PiActionId SET_AQ_IDS = PiActionId.of("FabricIngress.aq_classify_outbound.set_aq_ids");
    public static final PiActionId SET_EGRESS_AQ = PiActionId.of("FabricEgress.aq_classify_inbound.set_egress_aq");
    public static final PiActionId AQ_UPDATE_INGRESS = PiActionId.of("FabricIngress.aq_ingress.aq_update");
    public static final PiActionId AQ_UPDATE_EGRESS = PiActionId.of("FabricEgress.aq_egress.aq_update");

    public static final PiActionParamId PORT = PiActionParamId.of("port");
    public static final PiActionParamId KIND = PiActionParamId.of("kind");
    public static final PiActionParamId PATH_ID = PiActionParamId.of("path_id");
    public static final PiActionParamId SRC_MAC = PiActionParamId.of("src_mac");
    public static final PiActionParamId DST_MAC = PiActionParamId.of("dst_mac");
    public static final PiActionParamId TARGET_MAC = PiActionParamId.of("target_mac");
    public static final PiActionParamId DELAY_DELTA = PiActionParamId.of("delay_delta");
    public static final PiActionParamId QUEUE_DELTA = PiActionParamId.of("queue_delta");
    public static final PiActionParamId QUEUE_THRESHOLD = PiActionParamId.of("queue_threshold");
    public static final PiActionParamId FACK_MIN_BYTES_BETWEEN = PiActionParamId.of("min_bytes_between");
    public static final PiActionParamId ING_AQ_ID = PiActionParamId.of("ing_aq_id");
    public static final PiActionParamId EGR_AQ_ID = PiActionParamId.of("egr_aq_id");
    public static final PiActionParamId AQ_INDEX = PiActionParamId.of("index");
    public static final PiActionParamId AQ_RATE_FP = PiActionParamId.of("rate_fp");
    public static final PiActionParamId AQ_LIMIT = PiActionParamId.of("limit");
    public static final PiActionParamId AQ_CC_TYPE = PiActionParamId.of("cc_type");
    public static final PiActionParamId AQ_ECN_THRESHOLD = PiActionParamId.of("ecn_threshold");
    public static final PiActionParamId AQ_INV_RATE_FP = PiActionParamId.of("inv_rate_fp");

    /** P4TE FACK: clone session FACK_CLONE_SESSION_BASE + p must send to host port p. */
    public static final int FACK_CLONE_SESSION_BASE = 1024;

    // Port kinds (action parameter "kind").
    public static final int PORT_KIND_HOST = 1;
    public static final int PORT_KIND_FABRIC = 2;
}
