package org.fairfabric.controller.p4rt;

import java.util.List;

/**
 * The outcome of a write, one {@link UpdateResult} per update in request order. {@code deferred}
 * is true when the device was not connected: the updates are then part of the intended state and
 * reach the switch when it is reconciled.
 */
public final class WriteResult implements TimedWrite {
    public final List<UpdateResult> results;
    public final boolean deferred;
    /** When the write went through the device's queue and to the switch (null for results made elsewhere). */
    public final WriteTiming timing;

    public WriteResult(List<UpdateResult> results, boolean deferred) {
        this(results, deferred, null);
    }

    public WriteResult(List<UpdateResult> results, boolean deferred, WriteTiming timing) {
        this.results = List.copyOf(results);
        this.deferred = deferred;
        this.timing = timing;
    }

    @Override
    public WriteTiming timing() {
        return timing;
    }

    @Override
    public boolean deferred() {
        return deferred;
    }

    public boolean allOk() {
        return results.stream().allMatch(UpdateResult::ok);
    }

    public long failures() {
        return results.stream().filter(r -> !r.ok()).count();
    }

    @Override
    public String toString() {
        return (deferred ? "deferred " : "") + results;
    }
}
