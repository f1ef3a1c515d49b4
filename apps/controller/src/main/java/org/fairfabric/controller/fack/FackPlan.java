package org.fairfabric.controller.fack;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import org.fairfabric.core.model.ConnectPoint;
import org.fairfabric.core.model.Host;
import org.fairfabric.core.model.Port;
import org.fairfabric.core.model.Topology;
import p4.v1.P4RuntimeOuterClass.Entity;

/**
 * What FACK needs on every leaf (a switch with host ports), given the allocation's rate of each
 * host port (the sum of the allocated rates of the sessions sent from hosts behind it):
 * <ul>
 * <li>a clone session per host port, so that a FACK leaves where the data came in;</li>
 * <li>{@code fack_classes}: the enabled DSCPs;</li>
 * <li>per host port with an allocated rate and enabled DSCP, a safe-rate meter at that rate
 *     (one rate; burst {@value #SAFE_BURST_MS} ms of it, at least {@value #MIN_BURST_BYTES}
 *     bytes): traffic above its allocation is "over its safe rate" in P4TE's decision table. A
 *     port without an allocated rate gets no meter, so it is always GREEN and never gets a FACK;</li>
 * <li>per uplink, the utilisation meter of P4TE §7.1: CIR 70 %, PIR 90 % of the link, bursts of
 *     {@value #LINK_BURST_MS} ms at those rates.</li>
 * </ul>
 * Every DSCP shares its port's rate: the allocation has no per-class rates (docs/pipeline.md).
 */
final class FackPlan {
    static final double LINK_CIR_FRACTION = 0.70;
    static final double LINK_PIR_FRACTION = 0.90;
    static final int SAFE_BURST_MS = 10;
    static final int LINK_BURST_MS = 10;
    static final long MIN_BURST_BYTES = 2 * 1514;

    private final FackEntities entities;
    private final FackSettings settings;

    FackPlan(FackEntities entities, FackSettings settings) {
        this.entities = entities;
        this.settings = settings;
    }

    /** The entities per leaf; {@code portRateBps}: the allocated rate of each host port (absent: none). */
    Map<String, List<Entity>> entities(Topology topo, Map<ConnectPoint, Double> portRateBps) {
        Map<String, TreeSet<Integer>> hostPorts = new TreeMap<>();
        for (Host h : topo.hosts().values()) {
            ConnectPoint a = h.attachment();
            if (topo.devices().containsKey(a.elementId())) {
                hostPorts.computeIfAbsent(a.elementId(), d -> new TreeSet<>()).add(a.port());
            }
        }
        Map<String, List<Entity>> out = new TreeMap<>();
        hostPorts.forEach((device, ports) -> {
            List<Entity> es = new ArrayList<>();
            for (int dscp : settings.dscps()) {
                es.add(entities.fackClass(dscp, settings.minBytesBetween()));
            }
            for (int port : ports) {
                es.add(entities.cloneSession(port));
                Double bps = portRateBps.get(new ConnectPoint(device, port));
                if (bps == null || !(bps > 0)) {
                    continue;
                }
                long rate = Math.max(1, Math.round(bps / 8));
                for (int dscp : settings.dscps()) {
                    es.add(entities.classSafeRate(port, dscp));
                    es.add(entities.classSafeRateMeter(port, dscp, rate, burst(rate, SAFE_BURST_MS)));
                }
            }
            for (Port p : topo.ports(device)) {
                if (!p.upward()) {
                    continue;
                }
                long cir = Math.round(p.speedBps() / 8.0 * LINK_CIR_FRACTION);
                long pir = Math.round(p.speedBps() / 8.0 * LINK_PIR_FRACTION);
                es.add(entities.linkUtil(p.number()));
                es.add(entities.linkUtilMeter(p.number(), cir, burst(cir, LINK_BURST_MS), pir, burst(pir, LINK_BURST_MS)));
            }
            out.put(device, es);
        });
        return out;
    }

    static long burst(long bytesPerSecond, int ms) {
        return Math.max(MIN_BURST_BYTES, bytesPerSecond * ms / 1000);
    }
}
