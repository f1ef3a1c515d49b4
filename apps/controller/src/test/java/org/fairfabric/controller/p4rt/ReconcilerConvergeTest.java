package org.fairfabric.controller.p4rt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import p4.v1.P4RuntimeOuterClass.ActionProfileGroup;
import p4.v1.P4RuntimeOuterClass.ActionProfileMember;
import p4.v1.P4RuntimeOuterClass.Entity;
import p4.v1.P4RuntimeOuterClass.FieldMatch;
import p4.v1.P4RuntimeOuterClass.TableAction;
import p4.v1.P4RuntimeOuterClass.TableEntry;
import p4.v1.P4RuntimeOuterClass.Update;

/** Moving the intended state to a new one: upserts first (members → entries), deletes last (entries → members). */
class ReconcilerConvergeTest {
    static Entity member(int id) {
        return Entity.newBuilder().setActionProfileMember(ActionProfileMember.newBuilder().setActionProfileId(7).setMemberId(id)).build();
    }

    static Entity group(int id, int... members) {
        ActionProfileGroup.Builder g = ActionProfileGroup.newBuilder().setActionProfileId(7).setGroupId(id);
        for (int m : members) {
            g.addMembers(ActionProfileGroup.Member.newBuilder().setMemberId(m).setWeight(1));
        }
        return Entity.newBuilder().setActionProfileGroup(g).build();
    }

    static Entity entry(int priority, int group) {
        return Entity.newBuilder().setTableEntry(TableEntry.newBuilder().setTableId(1).setPriority(priority)
                .addMatch(FieldMatch.newBuilder().setFieldId(1).setTernary(FieldMatch.Ternary.newBuilder()
                        .setValue(P4Bytes.of(10)).setMask(P4Bytes.of(255))))
                .setAction(TableAction.newBuilder().setActionProfileGroupId(group))).build();
    }

    static List<String> describe(List<Update> updates) {
        List<String> out = new ArrayList<>();
        for (Update u : updates) {
            Entity e = u.getEntity();
            String what = e.hasTableEntry() ? "entry" + e.getTableEntry().getPriority()
                    : e.hasActionProfileGroup() ? "group" + e.getActionProfileGroup().getGroupId()
                    : "member" + e.getActionProfileMember().getMemberId();
            out.add(u.getType() + " " + what);
        }
        return out;
    }

    @Test
    void portMovesToALowerLevelWhoseGroupWasEmpty() {
        // level 0 = {3, 4} -> level 0 = {4}, level 1 = {3}
        List<Entity> have = List.of(member(3), member(4), group(1, 3, 4), entry(3, 1));
        List<Entity> want = List.of(member(3), member(4), group(1, 4), entry(3, 1), group(2, 3), entry(2, 2));
        assertEquals(List.of("MODIFY group1", "INSERT group2", "INSERT entry2"), describe(Reconciler.converge(want, have)));
    }

    @Test
    void emptiedLevelLosesItsEntryBeforeItsGroup() {
        List<Entity> have = List.of(member(3), group(1, 3), entry(3, 1));
        List<Entity> want = List.of(member(3), group(2, 3), entry(2, 2));
        assertEquals(List.of("INSERT group2", "INSERT entry2", "DELETE entry3", "DELETE group1"),
                describe(Reconciler.converge(want, have)));
    }

    @Test
    void sameStateWritesNothingAndDuplicatesAreRefused() {
        List<Entity> have = List.of(member(3), group(1, 3), entry(3, 1));
        assertEquals(List.of(), Reconciler.converge(have, have));
        assertThrows(IllegalArgumentException.class, () -> Reconciler.converge(List.of(member(3), member(3)), List.of()));
    }
}
