package org.fairfabric.onos.platform;

import java.math.BigInteger;
import java.util.List;
import com.google.protobuf.ByteString;
import p4.config.v1.P4InfoOuterClass.P4Info;
import p4.config.v1.P4InfoOuterClass.Table;
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
 * P4Runtime entities of the fabric pipeline built by name, in the embedded controller's form
 * (controller/program/FabricEntities: ids from the P4Info, values canonical — no leading zero bytes).
 */
final class P4Entities {
    static final String IN = "FabricIngress.";
    static final String EG = "FabricEgress.";
    final P4Info p4 = P4InfoNames.pipeconfP4Info();

    /** Canonical P4Runtime bytes of an unsigned value (as controller/p4rt/P4Bytes). */
    static ByteString bytes(long v) {
        byte[] b = BigInteger.valueOf(v).toByteArray();
        int skip = 0;
        while (skip < b.length - 1 && b[skip] == 0) {
            skip++;
        }
        return ByteString.copyFrom(b, skip, b.length - skip);
    }

    static ByteString ipv4(int a, int b, int c, int d) {
        return bytes(((long) a << 24) | (b << 16) | (c << 8) | d);
    }

    static ByteString mac(long v) {
        return bytes(v);
    }

    int tableId(String name) {
        return table(name).getPreamble().getId();
    }

    private Table table(String name) {
        return p4.getTablesList().stream().filter(t -> t.getPreamble().getName().equals(name)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no table " + name));
    }

    int fieldId(String table, String field) {
        return table(table).getMatchFieldsList().stream().filter(f -> f.getName().equals(field)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no field " + field)).getId();
    }

    int actionId(String name) {
        return p4.getActionsList().stream().filter(a -> a.getPreamble().getName().equals(name)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no action " + name)).getPreamble().getId();
    }

    int profileId(String name) {
        return p4.getActionProfilesList().stream().filter(a -> a.getPreamble().getName().equals(name)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no profile " + name)).getPreamble().getId();
    }

    Action action(String name, Object... params) {
        p4.config.v1.P4InfoOuterClass.Action info = p4.getActionsList().stream()
                .filter(a -> a.getPreamble().getName().equals(name)).findFirst().orElseThrow();
        Action.Builder a = Action.newBuilder().setActionId(info.getPreamble().getId());
        for (int i = 0; i < params.length; i += 2) {
            String param = (String) params[i];
            int id = info.getParamsList().stream().filter(p -> p.getName().equals(param)).findFirst().orElseThrow().getId();
            a.addParams(Action.Param.newBuilder().setParamId(id).setValue((ByteString) params[i + 1]));
        }
        return a.build();
    }

    FieldMatch exact(String table, String field, ByteString v) {
        return FieldMatch.newBuilder().setFieldId(fieldId(table, field)).setExact(FieldMatch.Exact.newBuilder().setValue(v)).build();
    }

    FieldMatch lpm(String table, String field, ByteString v, int prefix) {
        return FieldMatch.newBuilder().setFieldId(fieldId(table, field))
                .setLpm(FieldMatch.LPM.newBuilder().setValue(v).setPrefixLen(prefix)).build();
    }

    FieldMatch ternary(String table, String field, ByteString v, ByteString mask) {
        return FieldMatch.newBuilder().setFieldId(fieldId(table, field))
                .setTernary(FieldMatch.Ternary.newBuilder().setValue(v).setMask(mask)).build();
    }

    Entity entry(String table, List<FieldMatch> match, int priority, Action action) {
        return Entity.newBuilder().setTableEntry(TableEntry.newBuilder().setTableId(tableId(table)).addAllMatch(match)
                .setPriority(priority).setAction(TableAction.newBuilder().setAction(action))).build();
    }

    Entity groupEntry(String table, List<FieldMatch> match, int priority, int groupId) {
        return Entity.newBuilder().setTableEntry(TableEntry.newBuilder().setTableId(tableId(table)).addAllMatch(match)
                .setPriority(priority).setAction(TableAction.newBuilder().setActionProfileGroupId(groupId))).build();
    }

    Entity member(String profile, int memberId, Action action) {
        return Entity.newBuilder().setActionProfileMember(ActionProfileMember.newBuilder()
                .setActionProfileId(profileId(profile)).setMemberId(memberId).setAction(action)).build();
    }

    Entity group(String profile, int groupId, int... members) {
        ActionProfileGroup.Builder g = ActionProfileGroup.newBuilder().setActionProfileId(profileId(profile))
                .setGroupId(groupId).setMaxSize(16);
        for (int m : members) {
            g.addMembers(ActionProfileGroup.Member.newBuilder().setMemberId(m).setWeight(1));
        }
        return Entity.newBuilder().setActionProfileGroup(g).build();
    }

    Entity cloneSession(int session, int port) {
        return Entity.newBuilder().setPacketReplicationEngineEntry(PacketReplicationEngineEntry.newBuilder()
                .setCloneSessionEntry(CloneSessionEntry.newBuilder().setSessionId(session)
                        .addReplicas(Replica.newBuilder().setEgressPort(port).setInstance(0)))).build();
    }
}
