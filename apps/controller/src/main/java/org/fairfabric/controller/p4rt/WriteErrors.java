package org.fairfabric.controller.p4rt;

import com.google.protobuf.Any;
import com.google.protobuf.InvalidProtocolBufferException;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.protobuf.StatusProto;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import p4.v1.P4RuntimeOuterClass;

/**
 * Reads the per-update errors of a failed Write (P4Runtime §12.3): the call fails with a
 * google.rpc.Status whose details hold one p4.v1.Error per update, in order. When the details do
 * not match the batch (a whole-call failure such as PERMISSION_DENIED), every update gets the
 * call's status.
 */
final class WriteErrors {
    private WriteErrors() {
    }

    static List<UpdateResult> perUpdate(StatusRuntimeException e, int updates) {
        com.google.rpc.Status st = StatusProto.fromThrowable(e);
        if (st != null && st.getDetailsCount() == updates) {
            List<UpdateResult> out = new ArrayList<>(updates);
            for (Any detail : st.getDetailsList()) {
                if (!detail.is(P4RuntimeOuterClass.Error.class)) {
                    return all(e, updates);
                }
                try {
                    P4RuntimeOuterClass.Error err = detail.unpack(P4RuntimeOuterClass.Error.class);
                    out.add(err.getCanonicalCode() == 0 ? UpdateResult.OK
                            : new UpdateResult(Status.fromCodeValue(err.getCanonicalCode()).getCode(), err.getMessage()));
                } catch (InvalidProtocolBufferException ex) {
                    return all(e, updates);
                }
            }
            return out;
        }
        return all(e, updates);
    }

    private static List<UpdateResult> all(StatusRuntimeException e, int updates) {
        return Collections.nCopies(updates, new UpdateResult(e.getStatus().getCode(), e.getStatus().getDescription()));
    }
}
