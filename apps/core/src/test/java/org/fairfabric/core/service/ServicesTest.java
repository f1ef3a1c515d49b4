package org.fairfabric.core.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import org.fairfabric.core.aq.AqAdmission;
import org.fairfabric.core.aq.AqDefaults;
import org.fairfabric.core.aq.AqPipeline;
import org.fairfabric.core.aq.AqPosition;
import org.fairfabric.core.aq.AqRequest;
import org.fairfabric.core.aq.CongestionSignal;
import org.fairfabric.core.model.LeafSpine;
import org.fairfabric.core.model.Link;
import org.fairfabric.core.model.LinkState;
import org.fairfabric.core.model.SessionKey;
import org.fairfabric.core.model.Topology;
import org.fairfabric.core.ports.DataPlaneException;
import org.fairfabric.core.ports.FabricEvent;
import org.fairfabric.core.ports.FabricEventType;
import org.fairfabric.core.routing.Metric;
import org.fairfabric.core.routing.MetricEvent;
import org.fairfabric.core.routing.Trend;
import org.fairfabric.core.session.EnumeratedPaths;
import org.fairfabric.core.session.LinkLoadEstimator;
import org.fairfabric.core.session.LinkLoads;
import org.fairfabric.core.session.SessionCounter;
import org.fairfabric.core.session.SessionPath;
import org.junit.jupiter.api.Test;

class ServicesTest {
    static final Map<Metric, Integer> THREE = Map.of(Metric.DELAY, 3, Metric.QUEUE_DEPTH, 3, Metric.LINK_UTILIZATION, 3);
    final RecordingDataPlane dp = new RecordingDataPlane();
    final List<FabricEvent> log = new ArrayList<>();

    @Test
    void routingGroupServiceInstallsMovesAndHandlesFailures() {
        Topology t = LeafSpine.build(4, 4, 4, 40, 20);
        Link uplink = t.linkFrom(new org.fairfabric.core.model.ConnectPoint("p0l0", 5)).get();
        t = t.withLinkState(uplink.id(), LinkState.DOWN);
        RoutingGroupService s = new RoutingGroupService(THREE, dp, log::add, () -> 42);
        s.install(t);
        assertEquals(List.of("p0l0", "p0l1", "p0l2", "p0l3"), s.devices(), "spines have no uplinks");
        assertEquals(3 * 4 * 4 - 3, dp.groupWrites.size(), "the down uplink starts in no group");
        assertEquals(Set.of(6, 7, 8), s.membership("p0l0").get(Metric.QUEUE_DEPTH).get(0));

        dp.groupWrites.clear();
        s.onMetricEvents(List.of(new MetricEvent("p0l1", 6, Metric.QUEUE_DEPTH, Trend.INCREASE)));
        assertEquals(2, dp.groupWrites.size());
        assertEquals(FabricEventType.GROUP_MOVE, log.get(0).type());
        assertEquals("QUEUE_DEPTH group 0 -> 1", log.get(0).detail());

        assertThrows(IllegalArgumentException.class, () -> s.onMetricEvents(List.of(
                new MetricEvent("p0l1", 6, Metric.QUEUE_DEPTH, Trend.INCREASE),
                new MetricEvent("p0s0", 1, Metric.QUEUE_DEPTH, Trend.INCREASE))));
        assertEquals(Set.of(6), s.membership("p0l1").get(Metric.QUEUE_DEPTH).get(1), "nothing moved");

        assertEquals(3, s.onLinkState(uplink.id(), LinkState.UP).size(), "one ADD per metric table");
        assertEquals(Set.of(5, 6, 7, 8), s.membership("p0l0").get(Metric.DELAY).get(0));
        Link spineDown = t.linkFrom(new org.fairfabric.core.model.ConnectPoint("p0s0", 1)).get();
        assertEquals(List.of(), s.onLinkState(spineDown.id(), LinkState.DOWN), "downlinks have no groups");
        assertEquals(FabricEventType.LINK_DOWN, log.get(log.size() - 1).type());
        assertEquals(12, s.resync("p0l3").size());
    }

    @Test
    void aqServiceWritesGrantsAndUndoesAFailedInstall() {
        AqAdmission admission = new AqAdmission(p -> 50_000_000L, new AqDefaults(150_000, 30_000, 1500, 1e-3), 8, 1000);
        AqService s = new AqService(admission, dp, log::add, () -> 7);
        AqPosition pos = new AqPosition("s1", 1, AqPipeline.EGRESS);
        long a = s.request(AqRequest.weighted("t", "a", 1, CongestionSignal.DROP, pos, OptionalLong.empty(),
                OptionalLong.empty())).grant().get().aqId();
        long b = s.request(AqRequest.weighted("t", "b", 1, CongestionSignal.DROP, pos, OptionalLong.empty(),
                OptionalLong.empty())).grant().get().aqId();
        assertEquals(List.of("install " + a + " 50000000", "install " + b + " 25000000", "update " + a + " 25000000"),
                dp.aqWrites);
        dp.failInstall = true;
        assertThrows(DataPlaneException.class, () -> s.request(AqRequest.weighted("t", "c", 2, CongestionSignal.DROP,
                pos, OptionalLong.empty(), OptionalLong.empty())));
        assertEquals(2, s.grants().size(), "failed install changed nothing");
        assertEquals(25e6, admission.get(a).get().rateBps(), 1e-6);
        dp.failInstall = false;
        s.release(b);
        assertTrue(dp.aqWrites.contains("remove " + b));
        assertEquals("update " + a + " 50000000", dp.aqWrites.get(dp.aqWrites.size() - 1));
        assertEquals(FabricEventType.AQ_RERATED, log.get(log.size() - 1).type());
    }

    @Test
    void sessionMonitorCountsSessionsAndComputesLoads() {
        Topology t = LeafSpine.build(2, 2, 2, 1_000_000, 1_000_000);
        SessionMonitor m = new SessionMonitor(new SessionCounter(1000),
                new LinkLoadEstimator(new EnumeratedPaths(t)), log::add, () -> 5000);
        SessionKey k = new SessionKey("h0", "h2");
        m.onSessionReport(k, true, 1);
        m.onSessionReport(k, true, 2);
        assertEquals(1, m.activeCount());
        assertEquals(1, log.size());
        m.onPathBytes(Map.of(new SessionPath(k, 1), 125_000L), 2);
        m.onPathBytes(Map.of(new SessionPath(k, 1), 62_500L), 1);
        LinkLoads loads = m.closePeriod();
        assertEquals(500_000, loads.pathRatesBps().get(new SessionPath(k, 1)), 1e-9, "the latest report wins");
        assertEquals(0, m.closePeriod().linkLoads().size(), "a new period starts empty");
        assertEquals(List.of(k), m.expire());
        assertEquals(0, m.activeCount());
        assertEquals(FabricEventType.SESSION_EXPIRED, log.get(log.size() - 1).type());
    }
}
