package org.fairfabric.controller.p4rt;

import com.google.protobuf.ByteString;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import p4.v1.P4RuntimeOuterClass.ActionProfileGroup;
import p4.v1.P4RuntimeOuterClass.Entity;
import p4.v1.P4RuntimeOuterClass.FieldMatch;
import p4.v1.P4RuntimeOuterClass.Replica;
import p4.v1.P4RuntimeOuterClass.TableEntry;
import p4.v1.P4RuntimeOuterClass.Update;

/**
 * The updates that turn what a switch holds into what the controller intends: deletes of entries
 * it should not have (table entries first, members last), then inserts and modifies (members
 * first, table entries last), then every meter configuration. Contents are compared after
 * normalising what a switch may legitimately reorder or add (match order, counter data).
 */
final class Reconciler {
    private Reconciler() {
    }

    static List<Update> diff(Collection<Entity> intended, List<Entity> actual) {
        Map<ByteString, Entity> want = new HashMap<>();
        for (Entity e : intended) {
            want.put(EntityKey.of(e), e);
        }
        Map<ByteString, Entity> have = new HashMap<>();
        for (Entity e : actual) {
            if (EntityKey.tracked(e) && !EntityKey.modifyOnly(e) && !isDefaultEntry(e)) {
                have.put(EntityKey.of(e), e);
            }
        }
        List<Update> deletes = new ArrayList<>();
        for (Map.Entry<ByteString, Entity> h : have.entrySet()) {
            if (!want.containsKey(h.getKey())) {
                deletes.add(update(Update.Type.DELETE, h.getValue()));
            }
        }
        deletes.sort(Comparator.comparingInt((Update u) -> EntityKey.insertRank(u.getEntity())).reversed());

        List<Entity> ordered = new ArrayList<>(intended);
        ordered.sort(Comparator.comparingInt(EntityKey::insertRank));
        List<Update> writes = new ArrayList<>();
        List<Update> meters = new ArrayList<>();
        for (Entity e : ordered) {
            if (EntityKey.modifyOnly(e)) {
                meters.add(update(Update.Type.MODIFY, e));
                continue;
            }
            Entity current = have.get(EntityKey.of(e));
            if (isDefaultEntry(e)) {
                writes.add(update(Update.Type.MODIFY, e));
            } else if (current == null) {
                writes.add(update(Update.Type.INSERT, e));
            } else if (!normal(current).equals(normal(e))) {
                writes.add(update(Update.Type.MODIFY, e));
            }
        }
        List<Update> all = new ArrayList<>(deletes);
        all.addAll(writes);
        all.addAll(meters);
        return all;
    }

    /**
     * The updates that turn the intended state {@code have} into {@code want}: inserts and modifies
     * (members first, table entries last), then deletes (table entries first, members last).
     */
    static List<Update> converge(Collection<Entity> want, Collection<Entity> have) {
        Map<ByteString, Entity> held = new HashMap<>();
        for (Entity e : have) {
            held.put(EntityKey.of(e), e);
        }
        return converge(want, held, EntityKey::of);
    }

    /**
     * As {@link #converge(Collection, Collection)}, with what is held already by key and the keys of
     * the wanted entities from {@code keyOf} (which may remember them): a caller that wants mostly
     * the entities it wanted last time pays for the difference, not for the whole state.
     */
    static List<Update> converge(Collection<Entity> want, Map<ByteString, Entity> held, java.util.function.Function<Entity, ByteString> keyOf) {
        Map<ByteString, Entity> wanted = new java.util.LinkedHashMap<>();
        for (Entity e : want) {
            if (wanted.put(keyOf.apply(e), e) != null) {
                throw new IllegalArgumentException("the same entity twice: " + e);
            }
        }
        List<Map.Entry<ByteString, Entity>> ordered = new ArrayList<>(wanted.entrySet());
        ordered.sort(Comparator.comparingInt(w -> EntityKey.insertRank(w.getValue())));
        List<Update> out = new ArrayList<>();
        for (Map.Entry<ByteString, Entity> w : ordered) {
            Entity e = w.getValue();
            Entity current = held.get(w.getKey());
            if (current == null) {
                out.add(update(EntityKey.modifyOnly(e) || isDefaultEntry(e) ? Update.Type.MODIFY : Update.Type.INSERT, e));
            } else if (current != e && !current.equals(e) && !normal(current).equals(normal(e))) {
                out.add(update(Update.Type.MODIFY, e));
            }
        }
        List<Update> deletes = new ArrayList<>();
        for (Map.Entry<ByteString, Entity> h : held.entrySet()) {
            if (!wanted.containsKey(h.getKey()) && !EntityKey.modifyOnly(h.getValue()) && !isDefaultEntry(h.getValue())) {
                deletes.add(update(Update.Type.DELETE, h.getValue()));
            }
        }
        deletes.sort(Comparator.comparingInt((Update u) -> EntityKey.insertRank(u.getEntity())).reversed());
        out.addAll(deletes);
        return out;
    }

    private static boolean isDefaultEntry(Entity e) {
        return e.hasTableEntry() && e.getTableEntry().getIsDefaultAction();
    }

    private static Update update(Update.Type type, Entity e) {
        return Update.newBuilder().setType(type).setEntity(e).build();
    }

    static Entity normal(Entity e) {
        switch (e.getEntityCase()) {
            case TABLE_ENTRY: {
                TableEntry t = e.getTableEntry();
                List<FieldMatch> match = new ArrayList<>(t.getMatchList());
                match.sort(Comparator.comparingInt(FieldMatch::getFieldId));
                return Entity.newBuilder().setTableEntry(t.toBuilder().clearMatch().addAllMatch(match)
                        .clearCounterData().clearTimeSinceLastHit()).build();
            }
            case ACTION_PROFILE_GROUP: {
                ActionProfileGroup g = e.getActionProfileGroup();
                List<ActionProfileGroup.Member> members = new ArrayList<>(g.getMembersList());
                members.sort(Comparator.comparingInt(ActionProfileGroup.Member::getMemberId));
                return Entity.newBuilder().setActionProfileGroup(g.toBuilder().clearMembers().addAllMembers(members)).build();
            }
            case PACKET_REPLICATION_ENGINE_ENTRY: {
                var pre = e.getPacketReplicationEngineEntry();
                if (!pre.hasMulticastGroupEntry()) {
                    return e;
                }
                List<Replica> replicas = new ArrayList<>(pre.getMulticastGroupEntry().getReplicasList());
                replicas.sort(Comparator.comparingInt(Replica::getEgressPort).thenComparingInt(Replica::getInstance));
                return Entity.newBuilder().setPacketReplicationEngineEntry(pre.toBuilder().setMulticastGroupEntry(
                        pre.getMulticastGroupEntry().toBuilder().clearReplicas().addAllReplicas(replicas))).build();
            }
            default:
                return e;
        }
    }
}
