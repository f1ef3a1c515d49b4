package org.fairfabric.controller.program;

import com.google.protobuf.ByteString;
import java.util.List;
import org.fairfabric.controller.p4rt.P4Bytes;
import org.fairfabric.controller.p4rt.P4InfoIndex;
import p4.v1.P4RuntimeOuterClass.Action;
import p4.v1.P4RuntimeOuterClass.Entity;
import p4.v1.P4RuntimeOuterClass.FieldMatch;
import p4.v1.P4RuntimeOuterClass.TableAction;
import p4.v1.P4RuntimeOuterClass.TableEntry;

/** Base of the classes that build P4Runtime entities named as in the P4 program (ids from the P4Info). */
abstract class EntityFactory {
    protected final P4InfoIndex p4;

    protected EntityFactory(P4InfoIndex p4) {
        this.p4 = p4;
    }

    protected FieldMatch exact(String table, String field, ByteString value) {
        return FieldMatch.newBuilder().setFieldId(p4.matchFieldId(table, field))
                .setExact(FieldMatch.Exact.newBuilder().setValue(value)).build();
    }

    protected FieldMatch ternary(String table, String field, long value, long mask) {
        return FieldMatch.newBuilder().setFieldId(p4.matchFieldId(table, field))
                .setTernary(FieldMatch.Ternary.newBuilder().setValue(P4Bytes.of(value & mask)).setMask(P4Bytes.of(mask))).build();
    }

    /** An action with its parameters given as name, value pairs. */
    protected Action action(String name, Object... params) {
        Action.Builder a = Action.newBuilder().setActionId(p4.actionId(name));
        for (int i = 0; i < params.length; i += 2) {
            a.addParams(Action.Param.newBuilder().setParamId(p4.paramId(name, (String) params[i]))
                    .setValue((ByteString) params[i + 1]));
        }
        return a.build();
    }

    protected Entity entry(String table, List<FieldMatch> match, int priority, Action action) {
        return Entity.newBuilder().setTableEntry(TableEntry.newBuilder().setTableId(p4.tableId(table)).addAllMatch(match)
                .setPriority(priority).setAction(TableAction.newBuilder().setAction(action))).build();
    }
}
