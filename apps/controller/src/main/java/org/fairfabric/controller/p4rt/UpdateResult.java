package org.fairfabric.controller.p4rt;

import io.grpc.Status;

/** The outcome of one update of a write batch: a gRPC canonical code and the switch's message. */
public final class UpdateResult {
    public static final UpdateResult OK = new UpdateResult(Status.Code.OK, "");

    public final Status.Code code;
    public final String message;

    public UpdateResult(Status.Code code, String message) {
        this.code = code;
        this.message = message == null ? "" : message;
    }

    public boolean ok() {
        return code == Status.Code.OK;
    }

    @Override
    public String toString() {
        return ok() ? "OK" : code + ": " + message;
    }
}
