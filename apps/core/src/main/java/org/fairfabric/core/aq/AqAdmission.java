package org.fairfabric.core.aq;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.function.ToLongFunction;
import org.fairfabric.core.model.Checks;

/**
 * AQ admission control (AQ paper section 4.1). Absolute mode grants a request only if the absolute
 * rates at its position (device, port, pipeline) plus the new one stay within the port capacity C,
 * and declines it otherwise. Weighted mode gives each AQ at a position R_i = C w_i / sum(w) over the
 * AQs granted there, recomputed on every grant and release. Decisions where the paper is silent:
 * <ul>
 *   <li>shares are over granted AQs (the controller does not see activity);</li>
 *   <li>a position holds AQs of one mode only: a request of the other mode is declined, because a
 *       weighted share of "what absolute AQs leave" could drop to zero;</li>
 *   <li>each granted AQ gets a unique non-zero id and a register index from the (device, pipeline)
 *       register array, quarantined after release (see {@link RegisterIndexAllocator}).</li>
 * </ul>
 * Bad input (unknown AQ id, unknown position) is an exception; lack of capacity or of register
 * space is a decline. Neither changes any state.
 */
public final class AqAdmission {
    private final ToLongFunction<AqPosition> capacityBps;
    private final AqDefaults defaults;
    private final int registersPerPipeline;
    private final long quarantineMillis;
    private final AqIdAllocator ids = new AqIdAllocator();
    private final Map<Long, AqGrant> grants = new LinkedHashMap<>();
    private final Map<String, RegisterIndexAllocator> registers = new HashMap<>();

    /**
     * @param capacityBps capacity of the port at a position; throws IllegalArgumentException for unknown ports
     */
    public AqAdmission(ToLongFunction<AqPosition> capacityBps, AqDefaults defaults, int registersPerPipeline,
                       long quarantineMillis) {
        this.capacityBps = Checks.notNull(capacityBps, "capacity lookup");
        this.defaults = Checks.notNull(defaults, "AQ defaults");
        if (registersPerPipeline < 1) {
            throw new IllegalArgumentException("register array size must be positive");
        }
        this.registersPerPipeline = registersPerPipeline;
        this.quarantineMillis = Checks.nonNegative(quarantineMillis, "quarantine (ms)");
    }

    public AqDecision request(AqRequest req, long nowMillis) {
        Checks.notNull(req, "AQ request");
        long capacity = Checks.positive(capacityBps.applyAsLong(req.position()), "capacity of " + req.position());
        List<AqGrant> peers = grantsAt(req.position());
        for (AqGrant g : peers) {
            if (g.request().mode() != req.mode()) {
                return AqDecision.declined(req.position() + " already holds " + g.request().mode()
                        + " AQs; a position holds one mode only");
            }
        }
        if (req.limitBytes().isPresent() && req.limitBytes().getAsLong() < defaults.mtuBytes()) {
            throw new IllegalArgumentException("AQ limit " + req.limitBytes().getAsLong()
                    + " B is below one MTU (" + defaults.mtuBytes() + " B): every packet would be dropped");
        }
        if (req.mode() == AqMode.ABSOLUTE) {
            double used = 0;
            for (AqGrant g : peers) {
                used += g.rateBps();
            }
            if (used + req.bandwidthBps() > capacity) {
                return AqDecision.declined("not enough bandwidth at " + req.position() + ": " + used + " of "
                        + capacity + " bit/s reserved, " + req.bandwidthBps() + " requested");
            }
        }
        RegisterIndexAllocator regs = registers.computeIfAbsent(registerKey(req.position()),
                k -> new RegisterIndexAllocator(registersPerPipeline, quarantineMillis));
        OptionalInt index = regs.allocate(nowMillis);
        if (index.isEmpty()) {
            return AqDecision.declined("no free AQ register index on " + registerKey(req.position()));
        }
        long id = ids.allocate();
        double rate = req.mode() == AqMode.ABSOLUTE ? req.bandwidthBps() : 0;
        AqGrant grant = configure(new AqGrant(id, index.getAsInt(), req, rate, 0, 0), rate, capacity);
        grants.put(id, grant);
        List<AqGrant> rerated = req.mode() == AqMode.WEIGHTED ? rerate(req.position(), capacity) : List.of();
        AqGrant finalGrant = grants.get(id);
        List<AqGrant> others = new ArrayList<>();
        for (AqGrant g : rerated) {
            if (g.aqId() != id) {
                others.add(g);
            }
        }
        return AqDecision.granted(finalGrant, others);
    }

    /** Releases an AQ; returns the AQs at its position whose rate changed (weighted mode). */
    public List<AqGrant> release(long aqId, long nowMillis) {
        AqGrant g = grants.get(aqId);
        if (g == null) {
            throw new IllegalArgumentException("no AQ with id " + aqId);
        }
        grants.remove(aqId);
        ids.release(aqId);
        registers.get(registerKey(g.position())).release(g.registerIndex(), nowMillis);
        if (g.request().mode() == AqMode.WEIGHTED) {
            return rerate(g.position(), capacityBps.applyAsLong(g.position()));
        }
        return List.of();
    }

    public Optional<AqGrant> get(long aqId) {
        return Optional.ofNullable(grants.get(aqId));
    }

    public List<AqGrant> all() {
        return Collections.unmodifiableList(new ArrayList<>(grants.values()));
    }

    public List<AqGrant> grantsAt(AqPosition position) {
        List<AqGrant> out = new ArrayList<>();
        for (AqGrant g : grants.values()) {
            if (g.position().equals(position)) {
                out.add(g);
            }
        }
        return out;
    }

    private List<AqGrant> rerate(AqPosition position, long capacity) {
        List<AqGrant> peers = grantsAt(position);
        double totalWeight = 0;
        for (AqGrant g : peers) {
            totalWeight += g.request().weight();
        }
        List<AqGrant> changed = new ArrayList<>();
        for (AqGrant g : peers) {
            double rate = capacity * g.request().weight() / totalWeight;
            AqGrant updated = configure(g, rate, capacity);
            if (!updated.equals(g)) {
                grants.put(g.aqId(), updated);
                changed.add(updated);
            }
        }
        return changed;
    }

    private AqGrant configure(AqGrant g, double rate, long capacity) {
        AqRequest r = g.request();
        long limit = r.limitBytes().isPresent() ? r.limitBytes().getAsLong() : defaults.limitBytes(rate, capacity);
        long ecn = 0;
        if (r.signal() == CongestionSignal.ECN) {
            ecn = r.ecnThresholdBytes().isPresent() ? r.ecnThresholdBytes().getAsLong()
                    : defaults.ecnThresholdBytes(rate, capacity);
        }
        return g.withRate(rate, limit, ecn);
    }

    private static String registerKey(AqPosition p) {
        return p.deviceId() + "/" + p.pipeline();
    }
}
