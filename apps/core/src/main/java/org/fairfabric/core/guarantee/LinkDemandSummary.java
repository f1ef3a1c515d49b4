package org.fairfabric.core.guarantee;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.fairfabric.core.model.Checks;

/**
 * Reference model of the per-link demand summary a switch keeps for vFab probes (section IV-B):
 * Phi_l and W_l over the active pairs on the link. The paper's Bloom filter cannot update a pair's
 * window, delete on a finish probe, or age out silent pairs, all of which it requires; fairfabric's
 * switch keeps a slot per pair with (phi, w, last probe time) instead, and this class states the
 * semantics the pipeline must match: a repeated probe replaces the pair's values (idempotent), a
 * finish probe removes the pair, and a pair with no probe for the ageing period (10 s) is removed.
 * Times in milliseconds.
 */
public final class LinkDemandSummary {
    private static final class Slot {
        double tokens;
        double windowBytes;
        long lastProbeMillis;
    }

    private final long ageMillis;
    private final Map<String, Slot> pairs = new HashMap<>();

    public LinkDemandSummary(long ageMillis) {
        this.ageMillis = Checks.positive(ageMillis, "ageing period (ms)");
    }

    /** A probe of a pair crossed the link carrying its tokens and its window for this link. */
    public void onProbe(String pairId, double tokens, double windowBytes, long nowMillis) {
        Checks.nonEmpty(pairId, "pair id");
        Checks.positive(tokens, "pair tokens");
        Checks.nonNegative(windowBytes, "pair window");
        Slot s = pairs.computeIfAbsent(pairId, k -> new Slot());
        s.tokens = tokens;
        s.windowBytes = windowBytes;
        s.lastProbeMillis = nowMillis;
    }

    /** A finish probe: the pair left the link. Returns whether it was counted (the per-hop ACK). */
    public boolean onFinish(String pairId) {
        return pairs.remove(pairId) != null;
    }

    /** Removes pairs silent for longer than the ageing period; returns their ids. */
    public List<String> age(long nowMillis) {
        List<String> gone = new ArrayList<>();
        for (Map.Entry<String, Slot> e : pairs.entrySet()) {
            if (nowMillis - e.getValue().lastProbeMillis > ageMillis) {
                gone.add(e.getKey());
            }
        }
        for (String id : gone) {
            pairs.remove(id);
        }
        return gone;
    }

    /** Phi_l. */
    public double totalTokens() {
        double sum = 0;
        for (Slot s : pairs.values()) {
            sum += s.tokens;
        }
        return sum;
    }

    /** W_l. */
    public double totalWindowBytes() {
        double sum = 0;
        for (Slot s : pairs.values()) {
            sum += s.windowBytes;
        }
        return sum;
    }
}
