package org.fairfabric.core.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.fairfabric.core.model.SessionKey;

class SessionCounterPropertiesTest {
    /**
     * Each op: session = |op| % 5; op % 7 == 0 expires, op > 0 reports active, op < 0 inactive.
     * Time moves forward by 1..(|op| % 4) ms with occasional stale (earlier) report times.
     */
    @Property(tries = 500)
    void countNeverNegativeAndAlwaysTheNumberOfActiveSessions(
            @ForAll @Size(max = 200) List<@IntRange(min = -50, max = 50) Integer> ops) {
        SessionCounter c = new SessionCounter(20);
        long now = 0;
        for (int op : ops) {
            now += Math.abs(op) % 4;
            SessionKey key = new SessionKey("h" + Math.abs(op) % 5, "x");
            if (op % 7 == 0) {
                c.expire(now);
            } else {
                long reportTime = op % 3 == 0 ? now - 5 : now;
                c.report(key, op > 0, reportTime);
            }
            assertTrue(c.activeCount() >= 0);
            assertEquals(c.activeSessions().size(), c.activeCount());
        }
    }
}
