package org.fairfabric.core.platform;

import java.util.List;
import java.util.concurrent.CompletionStage;

/**
 * Programs switches by slices: every component owns one named slice of each switch's entities and
 * replaces it whole; the platform keeps each switch at the union of its slices (embedded: the
 * DeviceAgent's intended state and reconciliation; ONOS: flow rules and groups per app id).
 *
 * @param <E> an entity as the platform writes it (embedded and ONOS: a P4Runtime entity)
 * @param <R> what a write reports when it is done
 */
public interface DeviceProgramming<E, R> {
    /**
     * Replaces slice {@code slice} of {@code deviceId} with {@code entities}. Completes with the
     * write that carried it, or with null when the switch is not part of the fabric (nothing was
     * written). Never blocks; writes to one switch keep their order.
     */
    CompletionStage<R> setSlice(String slice, String deviceId, List<E> entities);
}
