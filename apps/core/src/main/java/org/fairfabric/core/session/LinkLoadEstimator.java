package org.fairfabric.core.session;

import java.util.Collection;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import org.fairfabric.core.model.Checks;
import org.fairfabric.core.model.Link;
import org.fairfabric.core.model.Path;

/**
 * Promenade Algorithm 3 at the monitor: from the PathBytes tables the receivers report for one
 * period T, r_i(p) = PathBytes / T and Lambda_e = sum over session-paths crossing e of r_i(p) / C(e).
 * Reports of several receivers for the same session-path in one period add up. Bytes of an unknown
 * session or path id are not charged to any link and are listed instead, so one stale report does
 * not spoil the period. Measured at receivers, Lambda_e never shows overload (drops are not counted).
 */
public final class LinkLoadEstimator {
    private final PathLookup paths;

    public LinkLoadEstimator(PathLookup paths) {
        this.paths = Checks.notNull(paths, "path lookup");
    }

    public LinkLoads estimate(Collection<Map<SessionPath, Long>> receiverReports, double periodSeconds) {
        Checks.positive(periodSeconds, "measurement period T");
        Map<SessionPath, Long> bytes = new TreeMap<>();
        for (Map<SessionPath, Long> report : Checks.notNull(receiverReports, "receiver reports")) {
            for (Map.Entry<SessionPath, Long> e : report.entrySet()) {
                Checks.nonNegative(e.getValue(), "bytes of " + e.getKey());
                bytes.merge(e.getKey(), e.getValue(), Long::sum);
            }
        }
        Map<SessionPath, Double> rates = new TreeMap<>();
        for (Map.Entry<SessionPath, Long> e : bytes.entrySet()) {
            rates.put(e.getKey(), e.getValue() * 8.0 / periodSeconds);
        }
        return fromRates(rates);
    }

    /** Lambda_e from per-session-path rates (bit/s), e.g. receiver reports already divided by their T. */
    public LinkLoads fromRates(Map<SessionPath, Double> ratesBps) {
        Map<SessionPath, Double> pathRates = new TreeMap<>();
        Map<String, Double> linkRates = new TreeMap<>();
        Map<String, Long> capacities = new TreeMap<>();
        TreeSet<SessionPath> unattributed = new TreeSet<>();
        for (Map.Entry<SessionPath, Double> e : Checks.notNull(ratesBps, "rates").entrySet()) {
            double rate = Checks.nonNegative(e.getValue(), "rate of " + e.getKey());
            Optional<Path> path = paths.find(e.getKey());
            if (path.isEmpty()) {
                unattributed.add(e.getKey());
                continue;
            }
            pathRates.put(e.getKey(), rate);
            for (Link l : path.get().links()) {
                linkRates.merge(l.id(), rate, Double::sum);
                capacities.put(l.id(), l.capacityBps());
            }
        }
        Map<String, Double> loads = new TreeMap<>();
        for (Map.Entry<String, Double> e : linkRates.entrySet()) {
            loads.put(e.getKey(), e.getValue() / capacities.get(e.getKey()));
        }
        return new LinkLoads(pathRates, linkRates, loads, unattributed);
    }
}
