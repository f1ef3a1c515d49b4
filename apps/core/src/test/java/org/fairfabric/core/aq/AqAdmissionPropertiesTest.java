package org.fairfabric.core.aq;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

class AqAdmissionPropertiesTest {
    static final long C = 100_000_000L;
    static final AqPosition[] POSITIONS = {
        new AqPosition("s1", 1, AqPipeline.EGRESS), new AqPosition("s1", 1, AqPipeline.INGRESS),
        new AqPosition("s1", 2, AqPipeline.EGRESS),
    };

    /** Each op: value < 0 releases a live AQ, else requests that many Mbit/s (or that weight). */
    @Property(tries = 300)
    void absoluteRatesNeverExceedCapacity(@ForAll @Size(max = 80) List<@IntRange(min = -30, max = 60) Integer> ops) {
        AqAdmission a = new AqAdmission(p -> C, new AqDefaults(100_000, 20_000, 1500, 1e-4), 64, 10);
        List<Long> live = new ArrayList<>();
        long now = 0;
        int i = 0;
        for (int op : ops) {
            now += 3;
            AqPosition pos = POSITIONS[i++ % POSITIONS.length];
            if (op < 0 && !live.isEmpty()) {
                a.release(live.remove(Math.floorMod(op, live.size())), now);
            } else if (op > 0) {
                AqDecision d = a.request(AqRequest.absolute("t", "e" + i, op * 1e6, CongestionSignal.DROP, pos,
                        OptionalLong.empty(), OptionalLong.empty()), now);
                d.grant().ifPresent(g -> live.add(g.aqId()));
            }
            Set<Long> ids = new HashSet<>();
            for (AqPosition p : POSITIONS) {
                double sum = 0;
                for (AqGrant g : a.grantsAt(p)) {
                    sum += g.rateBps();
                    assertTrue(g.aqId() > 0 && g.aqId() <= AqIdAllocator.MAX_ID);
                    assertTrue(ids.add(g.aqId()), "AQ ids unique");
                }
                assertTrue(sum <= C, "absolute rates at " + p + " sum to " + sum);
            }
        }
    }

    @Property(tries = 300)
    void weightedRatesAlwaysShareTheWholeCapacity(@ForAll @Size(max = 60) List<@IntRange(min = -10, max = 10) Integer> ops) {
        AqAdmission a = new AqAdmission(p -> C, new AqDefaults(100_000, 20_000, 1500, 1e-4), 64, 10);
        List<Long> live = new ArrayList<>();
        AqPosition pos = POSITIONS[0];
        long now = 0;
        for (int op : ops) {
            now += 1;
            if (op < 0 && !live.isEmpty()) {
                a.release(live.remove(Math.floorMod(op, live.size())), now);
            } else if (op > 0) {
                a.request(AqRequest.weighted("t", "e", op, CongestionSignal.ECN, pos, OptionalLong.empty(),
                        OptionalLong.empty()), now).grant().ifPresent(g -> live.add(g.aqId()));
            }
            double sum = 0;
            double weights = 0;
            for (AqGrant g : a.grantsAt(pos)) {
                sum += g.rateBps();
                weights += g.request().weight();
            }
            if (!live.isEmpty()) {
                assertEquals(C, sum, 1e-3);
                for (AqGrant g : a.grantsAt(pos)) {
                    assertEquals(C * g.request().weight() / weights, g.rateBps(), 1e-3);
                }
            }
        }
    }
}
