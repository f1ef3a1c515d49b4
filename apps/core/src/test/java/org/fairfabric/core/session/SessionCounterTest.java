package org.fairfabric.core.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Optional;
import org.fairfabric.core.model.SessionKey;
import org.fairfabric.core.session.SessionCounter.Change;
import org.junit.jupiter.api.Test;

class SessionCounterTest {
    static final SessionKey A = new SessionKey("h0", "h1");
    static final SessionKey B = new SessionKey("h2", "h3");

    @Test
    void inactiveActiveInactiveReturnsToZero() {
        SessionCounter c = new SessionCounter(10_000);
        assertEquals(Change.BECAME_ACTIVE, c.report(A, true, 1));
        assertEquals(1, c.activeCount());
        assertEquals(Change.BECAME_INACTIVE, c.report(A, false, 2));
        assertEquals(0, c.activeCount());
    }

    @Test
    void sessionFirstReportedInactiveIsCountedWhenItTurnsActive() {
        SessionCounter c = new SessionCounter(10_000);
        assertEquals(Change.NONE, c.report(A, false, 1), "the paper lists it here and never counts it");
        assertEquals(Optional.of(SessionState.INACTIVE), c.state(A));
        assertEquals(Change.BECAME_ACTIVE, c.report(A, true, 2));
        assertEquals(1, c.activeCount());
        c.report(A, false, 3);
        assertEquals(Change.NONE, c.report(A, false, 4), "a second inactive report does not decrement again");
        assertEquals(0, c.activeCount());
    }

    @Test
    void duplicateActiveReportsDoNotChangeN() {
        SessionCounter c = new SessionCounter(10_000);
        c.report(A, true, 1);
        assertEquals(Change.NONE, c.report(A, true, 2));
        c.report(B, true, 3);
        assertEquals(2, c.activeCount());
    }

    @Test
    void staleReportsAreIgnored() {
        SessionCounter c = new SessionCounter(10_000);
        c.report(A, true, 100);
        assertEquals(Change.NONE, c.report(A, false, 50));
        assertEquals(1, c.activeCount());
    }

    @Test
    void silentSessionsTimeOut() {
        SessionCounter c = new SessionCounter(1_000);
        c.report(A, true, 0);
        c.report(B, true, 500);
        assertEquals(List.of(), c.expire(1_000), "exactly the timeout is still alive");
        assertEquals(List.of(A), c.expire(1_001));
        assertEquals(1, c.activeCount());
        assertEquals(Optional.empty(), c.state(A));
        assertEquals(Change.BECAME_ACTIVE, c.report(A, true, 1_002), "a returning session counts again");
        assertEquals(2, c.activeCount());
        assertThrows(IllegalArgumentException.class, () -> new SessionCounter(0));
    }
}
