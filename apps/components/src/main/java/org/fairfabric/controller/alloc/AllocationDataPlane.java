package org.fairfabric.controller.alloc;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.fairfabric.controller.program.AllocationEntities;
import org.fairfabric.core.aq.AqFixedPoint;
import org.fairfabric.core.aq.AqGrant;
import org.fairfabric.core.model.Host;
import org.fairfabric.core.model.Topology;
import p4.v1.P4RuntimeOuterClass.Entity;

/**
 * The switch entries an allocation needs, per switch:
 * <ul>
 * <li>{@code host_port_keep_tag} on the host port of every host that runs the shim (its shim
 *     counts received bytes per path id, Promenade Eq. 5, and strips the tag itself);</li>
 * <li>{@code path_classifier} on the first hop of every session whose sender has no shim: the
 *     first hop pins the session's flows to its paths in proportion to the path rates, by the low
 *     {@link #BUCKET_BITS} bits of the L4 source port (per flow, like ECMP; a session on one path
 *     gets one entry for all its traffic);</li>
 * <li>the AQs of {@link AqPlanner}: {@code aq_table} in the ingress (outbound) or egress (inbound)
 *     instance, {@code aq_classify_outbound} by source address at the first hop,
 *     {@code aq_classify_inbound} by destination address at the last hop.</li>
 * </ul>
 */
public final class AllocationDataPlane {
    /** The path classifier splits a session's flows into 2^BUCKET_BITS buckets by L4 source port. */
    public static final int BUCKET_BITS = 4;
    static final int CLASSIFIER_PRIORITY = 10;

    private final AllocationEntities entities;

    public AllocationDataPlane(AllocationEntities entities) {
        this.entities = entities;
    }

    /** Every entry of an allocation and its AQs, per switch (the union of the two slices below). */
    public Map<String, List<Entity>> entities(AllocationResult r, List<AqPlanner.PlacedAq> aqs) {
        Map<String, List<Entity>> out = new TreeMap<>();
        keepTags(r, out);
        aqEntries(aqs, out);
        classifiers(r, out);
        return out;
    }

    /** The allocation's own entries: tag keeping on the shims' host ports and the first-hop path classifiers. */
    public Map<String, List<Entity>> pathEntities(AllocationResult r) {
        Map<String, List<Entity>> out = new TreeMap<>();
        keepTags(r, out);
        classifiers(r, out);
        return out;
    }

    /** The AQs' classifiers and configurations. */
    public Map<String, List<Entity>> aqEntities(List<AqPlanner.PlacedAq> aqs) {
        Map<String, List<Entity>> out = new TreeMap<>();
        aqEntries(aqs, out);
        return out;
    }

    private void keepTags(AllocationResult r, Map<String, List<Entity>> out) {
        Topology topo = r.model().topology();
        for (String h : r.model().shimHosts()) {
            Host host = topo.host(h);
            add(out, host.attachment().elementId(), entities.keepTag(host.attachment().port()));
        }
    }

    /**
     * An AQ's rate in the pipeline per bit/s of its allocated rate. AQs count IPv4 total length,
     * allocations fabric frames: a full packet is 1500 of the 1538 bytes a fabric link carries (the
     * path's 802.1Q tag, Ethernet and the fabric header around it). At the allocated rate in IP
     * bytes an AQ let a sender without a shim put 2.3 % more than its allocation on the fabric
     * (aq-isolation, docs/results.md); at exactly the frames' share a shim that fills its class
     * would have no room for drift, so 1 % is added.
     */
    static final double AQ_RATE_PER_ALLOCATED = 1500.0 / 1538 * 1.01;

    private void aqEntries(List<AqPlanner.PlacedAq> aqs, Map<String, List<Entity>> out) {
        for (AqPlanner.PlacedAq a : aqs) {
            AqGrant g = a.grant();
            String device = g.position().deviceId();
            double rate = g.rateBps() * AQ_RATE_PER_ALLOCATED;
            add(out, device, entities.aqConfig(a.outbound(), g.aqId(), g.registerIndex(), AqFixedPoint.rateFp(rate),
                    g.limitBytes(), AllocationEntities.AQ_CC_DROP, g.ecnThresholdBytes(), AqFixedPoint.inverseRateFp(rate)));
            add(out, device, a.outbound() ? entities.aqOutbound(a.ip(), g.aqId()) : entities.aqInbound(a.ip(), g.aqId()));
        }
    }

    private void classifiers(AllocationResult r, Map<String, List<Entity>> out) {
        Topology topo = r.model().topology();
        for (SessionAllocation s : r.sessions()) {
            if (s.paths().isEmpty() || r.model().shimHosts().contains(topo.host(s.session().srcHost).cableOwner())) {
                continue;
            }
            Host src = topo.host(s.session().srcHost);
            Host dst = topo.host(s.session().dstHost);
            int[] buckets = buckets(s.paths());
            int mask = (1 << BUCKET_BITS) - 1;
            int used = 0;
            for (int b : buckets) {
                used += b > 0 ? 1 : 0;
            }
            int bucket = 0;
            for (int j = 0; j < buckets.length; j++) {
                int pathId = s.paths().get(j).pathId();
                if (used == 1 && buckets[j] > 0) {
                    add(out, src.attachment().elementId(), entities.classify(src.ip(), dst.ip(), 0, 0, pathId, CLASSIFIER_PRIORITY));
                    continue;
                }
                for (int k = 0; k < buckets[j]; k++, bucket++) {
                    add(out, src.attachment().elementId(),
                            entities.classify(src.ip(), dst.ip(), bucket, mask, pathId, CLASSIFIER_PRIORITY));
                }
            }
        }
    }

    /** 2^BUCKET_BITS buckets over the paths in proportion to their rates (largest remainder; ties to the lower path). */
    static int[] buckets(List<PathAllocation> paths) {
        int n = 1 << BUCKET_BITS;
        double total = 0;
        for (PathAllocation p : paths) {
            total += Math.max(0, p.rateBps());
        }
        int[] out = new int[paths.size()];
        if (!(total > 0)) {
            out[0] = n;
            return out;
        }
        double[] rest = new double[paths.size()];
        int given = 0;
        for (int j = 0; j < paths.size(); j++) {
            double exact = n * Math.max(0, paths.get(j).rateBps()) / total;
            out[j] = (int) Math.floor(exact);
            rest[j] = exact - out[j];
            given += out[j];
        }
        while (given < n) {
            int best = 0;
            for (int j = 1; j < rest.length; j++) {
                if (rest[j] > rest[best]) {
                    best = j;
                }
            }
            out[best]++;
            rest[best] = -1;
            given++;
        }
        return out;
    }

    private static void add(Map<String, List<Entity>> out, String device, Entity e) {
        out.computeIfAbsent(device, d -> new ArrayList<>()).add(e);
    }
}
