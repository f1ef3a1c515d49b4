package org.fairfabric.core.model;

import java.util.OptionalDouble;

/**
 * Session weights from tenant weights (Promenade section 3.8: a tenant divides its weight over its
 * communicating VM pairs). The paper leaves the split open; fairfabric splits a tenant's weight
 * equally over its active sessions, and a session with an explicit weight uses that value instead
 * of its equal share (the others keep theirs, so explicit weights are absolute, not carved out).
 * The explicit-weight sessions count among the tenant's sessions all the same. (The controller's
 * ProblemAdapter counts each tenant's sessions and applies {@link #weight} to each.)
 */
public final class SessionWeights {
    private SessionWeights() {
    }

    /**
     * One session's weight: its explicit weight, else its tenant's weight shared equally by the
     * tenant's {@code activeSessions} (this one included).
     */
    public static double weight(double tenantWeight, int activeSessions, OptionalDouble explicit) {
        return explicit.isPresent() ? explicit.getAsDouble() : tenantWeight / activeSessions;
    }
}
