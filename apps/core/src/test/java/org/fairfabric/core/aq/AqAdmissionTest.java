package org.fairfabric.core.aq;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;
import org.junit.jupiter.api.Test;

class AqAdmissionTest {
    static final long C = 50_000_000L;
    static final AqPosition EGRESS = new AqPosition("s1", 1, AqPipeline.EGRESS);
    static final AqDefaults DEFAULTS = new AqDefaults(150_000, 30_000, 1500, 1e-3);

    static AqAdmission admission() {
        return new AqAdmission(p -> {
            if (!p.deviceId().equals("s1")) {
                throw new IllegalArgumentException("unknown device " + p.deviceId());
            }
            return C;
        }, DEFAULTS, 16, 2_000);
    }

    static AqRequest abs(String entity, double bps) {
        return AqRequest.absolute("t", entity, bps, CongestionSignal.DROP, EGRESS, OptionalLong.empty(), OptionalLong.empty());
    }

    static AqRequest wtd(String entity, double w) {
        return AqRequest.weighted("t", entity, w, CongestionSignal.ECN, EGRESS, OptionalLong.empty(), OptionalLong.empty());
    }

    @Test
    void absoluteModeDeclinesWhatDoesNotFitAndGrantsAfterARelease() {
        AqAdmission a = admission();
        AqDecision first = a.request(abs("a", 20e6), 0);
        assertTrue(a.request(abs("b", 20e6), 0).isGranted());
        AqDecision third = a.request(abs("c", 20e6), 0);
        assertFalse(third.isGranted());
        assertTrue(third.declineReason().get().contains("not enough bandwidth"));
        assertEquals(2, a.all().size(), "a decline changes nothing");
        a.release(first.grant().get().aqId(), 10);
        assertTrue(a.request(abs("c", 20e6), 20).isGranted());
        assertTrue(a.request(abs("d", 10e6), 20).isGranted(), "exactly C fits");
    }

    @Test
    void weightedModeSharesCapacityByWeightAndReratesOnGrantAndRelease() {
        AqAdmission a = admission();
        AqGrant one = a.request(wtd("a", 1), 0).grant().get();
        AqDecision second = a.request(wtd("b", 2), 0);
        assertEquals(50e6 * 2 / 3, second.grant().get().rateBps(), 1e-6);
        assertEquals(1, second.rerated().size());
        assertEquals(50e6 / 3, second.rerated().get(0).rateBps(), 1e-6);
        AqDecision third = a.request(wtd("c", 1), 0);
        assertEquals(12.5e6, third.grant().get().rateBps(), 1e-6);
        assertEquals(12.5e6, a.get(one.aqId()).get().rateBps(), 1e-6);
        assertEquals(25e6, a.get(second.grant().get().aqId()).get().rateBps(), 1e-6);
        assertEquals(102_400, AqFixedPoint.rateFp(12.5e6));
        List<AqGrant> after = a.release(third.grant().get().aqId(), 5);
        assertEquals(2, after.size());
        assertEquals(50e6 / 3, a.get(one.aqId()).get().rateBps(), 1e-6);
    }

    @Test
    void defaultLimitAndEcnThresholdFollowTheRate() {
        AqAdmission a = admission();
        AqGrant g = a.request(wtd("a", 1), 0).grant().get();
        assertEquals(150_000, g.limitBytes(), "R = C: the whole PQ limit");
        assertEquals(30_000, g.ecnThresholdBytes());
        AqGrant h = a.request(wtd("b", 9), 0).grant().get();
        AqGrant gNow = a.get(g.aqId()).get();
        assertEquals(15_000, gNow.limitBytes(), "R = C/10: a tenth, above the 8 MTU floor of 12,000");
        assertEquals(3_000, gNow.ecnThresholdBytes(), "K_PQ/10 = 3000 > R*RTT/7 = 5e6/8*1e-3/7 = 89");
        assertEquals(135_000, h.limitBytes());
        AqGrant small = new AqAdmission(p -> C, DEFAULTS, 4, 0).request(abs("x", 1e6), 0).grant().get();
        assertEquals(12_000, small.limitBytes(), "8 MTU floor");
        assertEquals(0, small.ecnThresholdBytes(), "DROP-type AQs have no ECN threshold");
    }

    @Test
    void idsAreUniqueAndNonZeroAndRegisterIndicesAreQuarantined() {
        AqAdmission a = admission();
        Set<Long> ids = new HashSet<>();
        AqGrant first = a.request(abs("a", 1e6), 0).grant().get();
        ids.add(first.aqId());
        assertEquals(0, first.registerIndex());
        a.release(first.aqId(), 100);
        AqGrant second = a.request(abs("b", 1e6), 200).grant().get();
        assertNotEquals(first.aqId(), second.aqId(), "ids are not reused");
        assertEquals(1, second.registerIndex(), "index 0 is still in quarantine");
        AqGrant third = a.request(abs("c", 1e6), 2_100).grant().get();
        assertEquals(0, third.registerIndex(), "quarantine over");
        ids.add(second.aqId());
        ids.add(third.aqId());
        assertEquals(3, ids.size());
        assertFalse(ids.contains(0L));
        AqGrant ingress = a.request(AqRequest.absolute("t", "i", 1e6, CongestionSignal.DROP,
                new AqPosition("s1", 1, AqPipeline.INGRESS), OptionalLong.empty(), OptionalLong.empty()), 2_100).grant().get();
        assertEquals(0, ingress.registerIndex(), "ingress and egress arrays are separate");
    }

    @Test
    void registerExhaustionIsADecline() {
        AqAdmission a = new AqAdmission(p -> C, DEFAULTS, 2, 1000);
        assertTrue(a.request(abs("a", 1e6), 0).isGranted());
        assertTrue(a.request(abs("b", 1e6), 0).isGranted());
        AqDecision d = a.request(abs("c", 1e6), 0);
        assertTrue(d.declineReason().get().contains("register"));
        assertEquals(2, a.all().size());
    }

    @Test
    void modesDoNotMixAtOnePositionAndBadInputIsRejected() {
        AqAdmission a = admission();
        a.request(abs("a", 1e6), 0);
        assertFalse(a.request(wtd("b", 1), 0).isGranted());
        assertThrows(IllegalArgumentException.class, () -> a.release(999, 0));
        assertThrows(IllegalArgumentException.class, () -> a.request(AqRequest.absolute("t", "e", 1e6,
                CongestionSignal.DROP, new AqPosition("nope", 1, AqPipeline.EGRESS), OptionalLong.empty(),
                OptionalLong.empty()), 0));
        assertThrows(IllegalArgumentException.class, () -> a.request(AqRequest.absolute("t", "e", 1e6,
                CongestionSignal.DROP, EGRESS, OptionalLong.empty(), OptionalLong.of(1000)), 0));
        assertThrows(IllegalArgumentException.class, () -> AqRequest.absolute("t", "e", 1e6,
                CongestionSignal.DROP, EGRESS, OptionalLong.of(100), OptionalLong.empty()));
        assertThrows(IllegalArgumentException.class, () -> abs("e", -5));
        assertEquals(1, a.all().size());
    }
}
