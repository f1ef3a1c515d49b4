package org.fairfabric.controller.alloc;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.function.LongSupplier;
import org.fairfabric.api.dto.AqDto;
import org.fairfabric.core.aq.AqAdmission;
import org.fairfabric.core.aq.AqDecision;
import org.fairfabric.core.aq.AqDefaults;
import org.fairfabric.core.aq.AqGrant;
import org.fairfabric.core.aq.AqPipeline;
import org.fairfabric.core.aq.AqPosition;
import org.fairfabric.core.aq.AqRequest;
import org.fairfabric.core.aq.CongestionSignal;
import org.fairfabric.core.model.ConnectPoint;
import org.fairfabric.core.model.Host;
import org.fairfabric.core.model.Topology;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Augmented Queues for the hosts of tenants with a guarantee (AQ paper §5.4, "bi-directional
 * guarantees for VMs"): each such host that sends gets an outbound AQ in the ingress pipeline of
 * its first hop, each that receives an inbound AQ in the egress pipeline of its host port, both in
 * absolute mode at the rate the allocator gave the host (the sum over its sessions, at least its
 * share of the guarantee). Requests go through the core's {@link AqAdmission} (admission, AQ ids,
 * register indices, re-rating of weighted peers); a rate change is a release and a new request (the core has no in-place
 * update for absolute AQs). What is granted is kept here as the data plane's view, which
 * {@link AllocationDataPlane} turns into table entries.
 */
public final class AqPlanner {
    private static final Logger LOG = LoggerFactory.getLogger(AqPlanner.class);
    /** Physical queue of a p4switch port (bytes) and its ECN threshold: the base for default AQ limits. */
    static final AqDefaults DEFAULTS = new AqDefaults(150_000, 30_000, 1500, 1e-3);
    static final int REGISTERS = 65536;
    /** A released register index is not reused for this long (its gap drains first). */
    static final long QUARANTINE_MS = 2000;
    /** Rate changes below this fraction keep the AQ as it is (no release and re-request). */
    static final double RATE_SLACK = 1e-3;

    /** One wanted AQ: a host and a direction. */
    static final class Key {
        private final String host;
        private final boolean outbound;

        Key(String host, boolean outbound) {
            this.host = host;
            this.outbound = outbound;
        }

        public String host() {
            return host;
        }

        public boolean outbound() {
            return outbound;
        }

        @Override
        public boolean equals(Object o) {
            if (this == o) {
                return true;
            }
            if (!(o instanceof Key)) {
                return false;
            }
            Key other = (Key) o;
            return java.util.Objects.equals(host, other.host)
                    && outbound == other.outbound;
        }

        @Override
        public int hashCode() {
            return java.util.Objects.hash(host, outbound);
        }

        @Override
        public String toString() {
            return "Key[host=" + host + ", outbound=" + outbound + "]";
        }
    }

    private final AqAdmission admission;
    private final LongSupplier clockMillis;
    private final Map<Key, AqGrant> live = new HashMap<>();
    private volatile Topology topology;

    public AqPlanner(LongSupplier clockMillis) {
        this.admission = new AqAdmission(this::capacity, DEFAULTS, REGISTERS, QUARANTINE_MS);
        this.clockMillis = clockMillis;
    }

    /** Brings the AQs in line with an allocation; returns every AQ in force, with its host's address. */
    public synchronized List<PlacedAq> apply(AllocationResult r) {
        topology = r.model().topology();
        Map<Key, Double> want = new TreeMap<>((a, b) -> a.host().equals(b.host())
                ? Boolean.compare(a.outbound(), b.outbound()) : a.host().compareTo(b.host()));
        Map<Key, String> tenantOf = new HashMap<>();
        for (SessionAllocation s : r.sessions()) {
            if (!r.model().guaranteedTenants().contains(s.session().tenantId) || !(s.totalBps() > 0)) {
                continue;
            }
            Key out = new Key(s.session().srcHost, true);
            Key in = new Key(s.session().dstHost, false);
            want.merge(out, s.totalBps(), Double::sum);
            want.merge(in, s.totalBps(), Double::sum);
            tenantOf.put(out, s.session().tenantId);
            tenantOf.put(in, s.session().tenantId);
        }
        for (Map.Entry<Key, AqGrant> e : new ArrayList<>(live.entrySet())) {
            Double rate = want.get(e.getKey());
            AqGrant g = e.getValue();
            if (rate == null || !g.position().equals(position(e.getKey()))
                    || Math.abs(rate - g.rateBps()) > RATE_SLACK * g.rateBps()) {
                admission.release(g.aqId(), clockMillis.getAsLong());
                live.remove(e.getKey());
            }
        }
        for (Map.Entry<Key, Double> e : want.entrySet()) {
            Key k = e.getKey();
            if (live.containsKey(k)) {
                continue;
            }
            AqRequest req = AqRequest.absolute(tenantOf.get(k), k.host() + (k.outbound() ? "/out" : "/in"), e.getValue(),
                    CongestionSignal.DROP, position(k), OptionalLong.empty(), OptionalLong.empty());
            try {
                AqDecision d = admission.request(req, clockMillis.getAsLong());
                if (d.isGranted()) {
                    live.put(k, d.grant().get());
                } else {
                    LOG.warn("AQ for {} declined: {}", req.entity(), d.declineReason().orElse("?"));
                }
            } catch (IllegalArgumentException refused) {
                LOG.warn("AQ for {} not requested: {}", req.entity(), refused.getMessage()); // e.g. a host without a cable
            }
        }
        Map<Long, AqGrant> installed = new HashMap<>();
        for (AqGrant g : admission.all()) {
            installed.put(g.aqId(), g); // peers re-rated by admission carry their new rates
        }
        List<PlacedAq> out = new ArrayList<>();
        for (Map.Entry<Key, AqGrant> e : live.entrySet()) {
            AqGrant g = installed.get(e.getValue().aqId());
            if (g != null) {
                out.add(new PlacedAq(e.getKey().host(), topology.host(e.getKey().host()).ip(), e.getKey().outbound(), g));
            }
        }
        out.sort((a, b) -> Long.compare(a.grant().aqId(), b.grant().aqId()));
        return out;
    }

    /** An AQ in force: the host it serves, the host's address, its direction, and the grant. */
    public static final class PlacedAq {
        private final String host;
        private final String ip;
        private final boolean outbound;
        private final AqGrant grant;

        public PlacedAq(String host, String ip, boolean outbound, AqGrant grant) {
            this.host = host;
            this.ip = ip;
            this.outbound = outbound;
            this.grant = grant;
        }

        public String host() {
            return host;
        }

        public String ip() {
            return ip;
        }

        public boolean outbound() {
            return outbound;
        }

        public AqGrant grant() {
            return grant;
        }

        /** How the REST API and the GUI show it. */
        public AqDto dto() {
            AqPosition at = grant.position();
            return new AqDto(at.deviceId(), at.port(), at.pipeline() == AqPipeline.INGRESS ? "ingress" : "egress",
                    grant.request().tenantId(), host, outbound ? "outbound" : "inbound", grant.aqId(), grant.rateBps(),
                    grant.limitBytes(), grant.ecnThresholdBytes());
        }

        @Override
        public boolean equals(Object o) {
            if (this == o) {
                return true;
            }
            if (!(o instanceof PlacedAq)) {
                return false;
            }
            PlacedAq other = (PlacedAq) o;
            return java.util.Objects.equals(host, other.host)
                    && java.util.Objects.equals(ip, other.ip)
                    && outbound == other.outbound
                    && java.util.Objects.equals(grant, other.grant);
        }

        @Override
        public int hashCode() {
            return java.util.Objects.hash(host, ip, outbound, grant);
        }

        @Override
        public String toString() {
            return "PlacedAq[host=" + host + ", ip=" + ip + ", outbound=" + outbound + ", grant=" + grant + "]";
        }
    }

    private AqPosition position(Key k) {
        Host h = topology.host(k.host());
        return new AqPosition(h.attachment().elementId(), h.attachment().port(),
                k.outbound() ? AqPipeline.INGRESS : AqPipeline.EGRESS);
    }

    private long capacity(AqPosition p) {
        return topology.linkFrom(new ConnectPoint(p.deviceId(), p.port()))
                .orElseThrow(() -> new IllegalArgumentException("no link at " + p)).capacityBps();
    }
}
