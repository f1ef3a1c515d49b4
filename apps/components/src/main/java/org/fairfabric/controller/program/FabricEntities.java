package org.fairfabric.controller.program;

import java.util.List;
import org.fairfabric.controller.p4rt.P4Bytes;
import org.fairfabric.controller.p4rt.P4InfoIndex;
import p4.v1.P4RuntimeOuterClass.Action;
import p4.v1.P4RuntimeOuterClass.ActionProfileGroup;
import p4.v1.P4RuntimeOuterClass.ActionProfileMember;
import p4.v1.P4RuntimeOuterClass.CloneSessionEntry;
import p4.v1.P4RuntimeOuterClass.Entity;
import p4.v1.P4RuntimeOuterClass.FieldMatch;
import p4.v1.P4RuntimeOuterClass.PacketReplicationEngineEntry;
import p4.v1.P4RuntimeOuterClass.Replica;
import p4.v1.P4RuntimeOuterClass.TableAction;
import p4.v1.P4RuntimeOuterClass.TableEntry;

/**
 * The fabric pipeline's entities by the P4 program's names (tables, fields, actions, parameters
 * resolved through the P4Info), with every value in P4Runtime's canonical form so that what a
 * switch reads back equals what was written.
 */
final class FabricEntities extends EntityFactory {
    static final String IN = "FabricIngress.";
    static final String EG = "FabricEgress.";
    static final String INGRESS_PORT_KIND = IN + "port_kind.ingress_port_kind";
    static final String EGRESS_PORT_KIND = EG + "port_kind.egress_port_kind";
    static final String PORT_MACS = EG + "rewrite.port_macs";
    static final String MY_STATION = IN + "my_station.my_station";
    static final String ARP_TABLE = IN + "arp.arp_table";
    static final String ROUTING_DOWN = IN + "downward_routing.routing_down";
    static final String PINNED_PATH = IN + "pinned_path.pinned_path";
    static final String QUEUE_SENSING = EG + "sensing.queue_sensing";
    /** Port kinds of {@code set_ingress_port_kind} / {@code set_egress_port_kind}. */
    static final int KIND_HOST = 1;
    static final int KIND_FABRIC = 2;
    /** {@code CPU_CLONE_SESSION_ID} of the program: events reach the controller through it. */
    static final int CPU_CLONE_SESSION = 511;

    FabricEntities(P4InfoIndex p4) {
        super(p4);
    }

    Entity portKind(boolean ingress, int port, int kind) {
        String table = ingress ? INGRESS_PORT_KIND : EGRESS_PORT_KIND;
        String action = ingress ? IN + "port_kind.set_ingress_port_kind" : EG + "port_kind.set_egress_port_kind";
        String field = ingress ? "standard_metadata.ingress_port" : "standard_metadata.egress_port";
        return entry(table, List.of(exact(table, field, P4Bytes.of(port))), 0, action(action, "kind", P4Bytes.of(kind)));
    }

    Entity portMacs(int port, String routerMac, String neighbourMac) {
        String a = EG + "rewrite.rewrite_macs";
        return entry(PORT_MACS, List.of(exact(PORT_MACS, "standard_metadata.egress_port", P4Bytes.of(port))), 0,
                action(a, "src_mac", P4Bytes.mac(routerMac), "dst_mac", P4Bytes.mac(neighbourMac)));
    }

    Entity myStation(String routerMac) {
        return entry(MY_STATION, List.of(exact(MY_STATION, "hdr.ethernet.dst_addr", P4Bytes.mac(routerMac))), 0,
                Action.newBuilder().setActionId(p4.actionId("NoAction")).build());
    }

    /** Proxy ARP: a request for {@code ip} is answered by the switch with {@code mac}. */
    Entity arpReply(String ip, String mac) {
        return entry(ARP_TABLE, List.of(exact(ARP_TABLE, "hdr.arp.tpa", P4Bytes.ipv4(ip))), 0,
                action(IN + "arp.arp_reply", "target_mac", P4Bytes.mac(mac)));
    }

    Entity routeDown(String ip, int prefixLength, int port) {
        FieldMatch m = FieldMatch.newBuilder().setFieldId(p4.matchFieldId(ROUTING_DOWN, "hdr.ipv4.dst_addr"))
                .setLpm(FieldMatch.LPM.newBuilder().setValue(P4Bytes.ipv4(ip)).setPrefixLen(prefixLength)).build();
        return entry(ROUTING_DOWN, List.of(m), 0, action(IN + "downward_routing.route_down", "port", P4Bytes.of(port)));
    }

    Entity pinnedUplink(int pathId, int port) {
        return entry(PINNED_PATH, List.of(exact(PINNED_PATH, "hdr.vlan.vid", P4Bytes.of(pathId))), 0,
                action(IN + "pinned_path.set_pinned_uplink", "port", P4Bytes.of(port)));
    }

    Entity queueSensing(int port, int delta) {
        return entry(QUEUE_SENSING, List.of(exact(QUEUE_SENSING, "standard_metadata.egress_port", P4Bytes.of(port))), 0,
                action(EG + "sensing.set_queue_delta", "queue_delta", P4Bytes.of(delta)));
    }

    /** A selector member that sends to one uplink: member id = port. */
    Entity uplinkMember(UpwardTable t, int port) {
        return Entity.newBuilder().setActionProfileMember(ActionProfileMember.newBuilder()
                .setActionProfileId(p4.actionProfileId(t.selector)).setMemberId(port)
                .setAction(action(t.portAction, "port", P4Bytes.of(port)))).build();
    }

    /** A routing group as a selector group (id = level + 1: P4Runtime group ids start at 1). */
    Entity group(UpwardTable t, int level, List<Integer> ports) {
        return selectorGroup(t, level + 1, ports);
    }

    /** A selector group of uplinks with an explicit group id. */
    Entity selectorGroup(UpwardTable t, int groupId, List<Integer> ports) {
        ActionProfileGroup.Builder g = ActionProfileGroup.newBuilder().setActionProfileId(p4.actionProfileId(t.selector))
                .setGroupId(groupId).setMaxSize(MAX_GROUP_SIZE);
        for (int port : ports) {
            g.addMembers(ActionProfileGroup.Member.newBuilder().setMemberId(port).setWeight(1));
        }
        return Entity.newBuilder().setActionProfileGroup(g).build();
    }

    /** The routing-group table entry: the DCN prefix (ternary), the group's priority, the group. */
    Entity groupEntry(UpwardTable t, String prefix, int prefixLength, int level, int priority) {
        return groupEntryTo(t, prefix, prefixLength, level + 1, priority);
    }

    /** An upward table entry for a prefix (ternary) at a priority, pointing to a selector group by id. */
    Entity groupEntryTo(UpwardTable t, String prefix, int prefixLength, int groupId, int priority) {
        long mask = prefixLength == 0 ? 0 : (0xFFFFFFFFL << (32 - prefixLength)) & 0xFFFFFFFFL;
        long value = ipv4Value(prefix) & mask;
        FieldMatch m = FieldMatch.newBuilder().setFieldId(p4.matchFieldId(t.table, "hdr.ipv4.dst_addr"))
                .setTernary(FieldMatch.Ternary.newBuilder().setValue(P4Bytes.of(value)).setMask(P4Bytes.of(mask))).build();
        return Entity.newBuilder().setTableEntry(TableEntry.newBuilder().setTableId(p4.tableId(t.table)).addMatch(m)
                .setPriority(priority).setAction(TableAction.newBuilder().setActionProfileGroupId(groupId))).build();
    }

    /** The clone session that carries event reports to the CPU port. */
    Entity cpuCloneSession(int cpuPort) {
        return Entity.newBuilder().setPacketReplicationEngineEntry(PacketReplicationEngineEntry.newBuilder()
                .setCloneSessionEntry(CloneSessionEntry.newBuilder().setSessionId(CPU_CLONE_SESSION)
                        .addReplicas(Replica.newBuilder().setEgressPort(cpuPort).setInstance(0)))).build();
    }

    static final int MAX_GROUP_SIZE = 16;

    /** One of P4TE's three upward tables with its selector and the action its members run. */
    enum UpwardTable {
        DELAY("up_delay", "set_low_delay_port"),
        QUEUE_DEPTH("up_queue", "set_low_queue_port"),
        LINK_UTILIZATION("up_util", "set_low_util_port");

        final String table;
        final String selector;
        final String portAction;

        UpwardTable(String name, String action) {
            this.table = IN + "upward_routing." + name;
            this.selector = table + "_selector";
            this.portAction = IN + "upward_routing." + action;
        }
    }

    static long ipv4Value(String dotted) {
        String[] parts = dotted.split("\\.");
        if (parts.length != 4) {
            throw new IllegalArgumentException("not an IPv4 address: " + dotted);
        }
        long v = 0;
        for (String part : parts) {
            int o = Integer.parseInt(part);
            if (o < 0 || o > 255) {
                throw new IllegalArgumentException("not an IPv4 address: " + dotted);
            }
            v = (v << 8) | o;
        }
        return v;
    }
}
