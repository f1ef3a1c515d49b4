package org.fairfabric.controller.p4rt;

import com.google.protobuf.ByteString;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import p4.v1.P4RuntimeOuterClass.Entity;
import p4.v1.P4RuntimeOuterClass.FieldMatch;
import p4.v1.P4RuntimeOuterClass.TableEntry;

/**
 * What identifies an entity on a switch, independent of its contents: a table entry by table,
 * match (in field-id order) and priority; action-profile members and groups by profile and id;
 * PRE entries by group or session id; meter configurations by meter and index (or table entry). Two entities with the same key are the same entry.
 */
final class EntityKey {
    private EntityKey() {
    }

    static ByteString of(Entity e) {
        switch (e.getEntityCase()) {
            case TABLE_ENTRY: {
                TableEntry t = e.getTableEntry();
                List<FieldMatch> match = new ArrayList<>(t.getMatchList());
                match.sort(Comparator.comparingInt(FieldMatch::getFieldId));
                TableEntry key = TableEntry.newBuilder().setTableId(t.getTableId()).addAllMatch(match)
                        .setPriority(t.getPriority()).setIsDefaultAction(t.getIsDefaultAction()).build();
                return tag(1, key.toByteString());
            }
            case ACTION_PROFILE_MEMBER:
                return tag(2, e.getActionProfileMember().toBuilder().clearAction().build().toByteString());
            case ACTION_PROFILE_GROUP:
                return tag(3, e.getActionProfileGroup().toBuilder().clearMembers().clearMaxSize().build().toByteString());
            case PACKET_REPLICATION_ENGINE_ENTRY: {
                var pre = e.getPacketReplicationEngineEntry();
                if (pre.hasMulticastGroupEntry()) {
                    return tag(4, ByteString.copyFromUtf8(Integer.toString(pre.getMulticastGroupEntry().getMulticastGroupId())));
                }
                return tag(5, ByteString.copyFromUtf8(Integer.toString(pre.getCloneSessionEntry().getSessionId())));
            }
            case METER_ENTRY:
                return tag(6, e.getMeterEntry().toBuilder().clearConfig().build().toByteString());
            case DIRECT_METER_ENTRY:
                return tag(7, of(Entity.newBuilder().setTableEntry(e.getDirectMeterEntry().getTableEntry()).build()));
            default:
                throw new IllegalArgumentException("the controller does not keep intended state for " + e.getEntityCase()
                        + " entities (write them without reconciliation)");
        }
    }

    /** Whether the controller keeps this kind of entity in the intended state. */
    static boolean tracked(Entity e) {
        switch (e.getEntityCase()) {
            case TABLE_ENTRY:
            case ACTION_PROFILE_MEMBER:
            case ACTION_PROFILE_GROUP:
            case PACKET_REPLICATION_ENGINE_ENTRY:
            case METER_ENTRY:
            case DIRECT_METER_ENTRY:
                return true;
            default:
                return false;
        }
    }

    /** Meter configurations exist for every index; they are only ever modified, never inserted or deleted. */
    static boolean modifyOnly(Entity e) {
        return e.getEntityCase() == Entity.EntityCase.METER_ENTRY || e.getEntityCase() == Entity.EntityCase.DIRECT_METER_ENTRY;
    }

    /** Insert order: members before the groups that use them, groups and PRE before table entries. */
    static int insertRank(Entity e) {
        switch (e.getEntityCase()) {
            case ACTION_PROFILE_MEMBER:
                return 0;
            case ACTION_PROFILE_GROUP:
                return 1;
            case PACKET_REPLICATION_ENGINE_ENTRY:
                return 2;
            case TABLE_ENTRY:
                return 3;
            default:
                return 4;
        }
    }

    private static ByteString tag(int kind, ByteString body) {
        return ByteString.copyFrom(new byte[] {(byte) kind}).concat(body);
    }
}
