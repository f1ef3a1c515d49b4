package org.fairfabric.controller.platform;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.fairfabric.controller.p4rt.DeviceAgent;
import org.fairfabric.controller.p4rt.DeviceFleet;
import org.fairfabric.controller.p4rt.WriteResult;
import org.fairfabric.core.platform.DeviceProgramming;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import p4.v1.P4RuntimeOuterClass.Entity;

/**
 * The embedded {@link DeviceProgramming}: keeps every component's slice per switch and hands each
 * switch's {@link DeviceAgent} the union (slices in name order) as its intended state; the agent
 * writes the difference now and everything again when the switch reconnects. While a hand-over
 * still waits in the agent's queue, a new slice only replaces what it will write (it takes the
 * latest union when its turn comes), so a burst of changes costs one write per switch.
 */
public final class SliceComposer implements DeviceProgramming<Entity, WriteResult> {
    private static final Logger LOG = LoggerFactory.getLogger(SliceComposer.class);

    private final Map<String, SortedMap<String, List<Entity>>> slices = new HashMap<>();
    private final Map<String, CompletableFuture<WriteResult>> pending = new HashMap<>();
    private DeviceFleet fleet;

    /** A new configuration's fleet: every slice of the old one is void (components set theirs again). */
    public synchronized void fleetReplaced(DeviceFleet newFleet) {
        fleet = newFleet;
        slices.clear();
        pending.clear();
    }

    /** The agents of the current fleet (empty before the first configuration). */
    public synchronized Map<String, DeviceAgent> agents() {
        return fleet == null ? Map.of() : fleet.agents();
    }

    @Override
    public synchronized CompletionStage<WriteResult> setSlice(String slice, String deviceId, List<Entity> entities) {
        if (fleet == null || !fleet.agents().containsKey(deviceId)) {
            return CompletableFuture.completedFuture(null);
        }
        List<Entity> next = List.copyOf(entities);
        SortedMap<String, List<Entity>> mine = slices.computeIfAbsent(deviceId, d -> new TreeMap<>());
        if (next.equals(mine.get(slice))) {
            return CompletableFuture.completedFuture(null);
        }
        mine.put(slice, next);
        CompletableFuture<WriteResult> waiting = pending.get(deviceId);
        if (waiting != null) {
            return waiting;
        }
        CompletableFuture<WriteResult> done = new CompletableFuture<>();
        pending.put(deviceId, done);
        fleet.agent(deviceId).converge(() -> taken(deviceId, done)).whenComplete((r, err) -> {
            if (err != null) {
                LOG.warn("{}: programming failed: {}", deviceId, err.toString());
                synchronized (this) {
                    pending.remove(deviceId, done);
                }
                done.completeExceptionally(err);
                return;
            }
            if (!r.allOk()) {
                LOG.warn("{}: {} of {} updates refused: {}", deviceId, r.failures(), r.results.size(), r);
            } else {
                LOG.debug("{}: {} updates {}", deviceId, r.results.size(), r.deferred ? "deferred" : "written");
            }
            done.complete(r);
        });
        return done;
    }

    /** The union the agent writes now; later slices start a new hand-over. */
    private synchronized List<Entity> taken(String deviceId, CompletableFuture<WriteResult> handOver) {
        pending.remove(deviceId, handOver);
        List<Entity> all = new ArrayList<>();
        SortedMap<String, List<Entity>> mine = slices.get(deviceId);
        if (mine != null) {
            mine.values().forEach(all::addAll);
        }
        return all;
    }

    /** One switch's slices as they are now (name → entities), for tests and diagnostics. */
    public synchronized Map<String, List<Entity>> slicesOf(String deviceId) {
        SortedMap<String, List<Entity>> mine = slices.get(deviceId);
        return mine == null ? Map.of() : new TreeMap<>(mine);
    }
}
