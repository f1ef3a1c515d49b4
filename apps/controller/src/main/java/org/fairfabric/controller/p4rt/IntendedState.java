package org.fairfabric.controller.p4rt;

import com.google.protobuf.ByteString;
import io.grpc.Status;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import p4.v1.P4RuntimeOuterClass.Entity;
import p4.v1.P4RuntimeOuterClass.ForwardingPipelineConfig;
import p4.v1.P4RuntimeOuterClass.Update;

/**
 * What the controller wants a switch to hold: its pipeline and every entity written to it
 * (table entries, action-profile members and groups, PRE entries, meter configurations). It is
 * the source of truth when a switch is reconciled. Confined to its device's write queue thread.
 */
final class IntendedState {
    /** How to undo one applied update if the switch refuses it. */
    static final class Undo {
        final ByteString key;
        final Entity previous;

        Undo(ByteString key, Entity previous) {
            this.key = key;
            this.previous = previous;
        }
    }

    private final Map<ByteString, Entity> entities = new LinkedHashMap<>();
    private ForwardingPipelineConfig pipeline;

    ForwardingPipelineConfig pipeline() {
        return pipeline;
    }

    void setPipeline(ForwardingPipelineConfig p) {
        pipeline = p;
        entities.clear();
    }

    Collection<Entity> entities() {
        return new ArrayList<>(entities.values());
    }

    /** The entities by key (a read-only view: it changes as updates apply). */
    Map<ByteString, Entity> byKey() {
        return java.util.Collections.unmodifiableMap(entities);
    }

    int size() {
        return entities.size();
    }

    /** Checks {@code u} against the intended state, as the switch would; null when it is acceptable. */
    UpdateResult check(Update u) {
        Entity e = u.getEntity();
        ByteString key = EntityKey.of(e);
        boolean present = entities.containsKey(key);
        if (EntityKey.modifyOnly(e)) {
            return u.getType() == Update.Type.MODIFY ? null
                    : new UpdateResult(Status.Code.INVALID_ARGUMENT, e.getEntityCase() + " can only be modified");
        }
        switch (u.getType()) {
            case INSERT:
                return present ? new UpdateResult(Status.Code.ALREADY_EXISTS, "the controller already holds this entity") : null;
            case MODIFY:
            case DELETE:
                return present ? null : new UpdateResult(Status.Code.NOT_FOUND, "the controller holds no such entity");
            default:
                return new UpdateResult(Status.Code.INVALID_ARGUMENT, "update type " + u.getType());
        }
    }

    Undo apply(Update u) {
        Entity e = u.getEntity();
        ByteString key = EntityKey.of(e);
        Entity previous = u.getType() == Update.Type.DELETE ? entities.remove(key) : entities.put(key, e);
        return new Undo(key, previous);
    }

    void undo(Undo undo) {
        if (undo.previous == null) {
            entities.remove(undo.key);
        } else {
            entities.put(undo.key, undo.previous);
        }
    }
}
