package org.fairfabric.core.model;

import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.TreeMap;

/**
 * Session weights from tenant weights (Promenade section 3.8: a tenant divides its weight over its
 * communicating VM pairs). The paper leaves the split open; fairfabric splits a tenant's weight
 * equally over its active sessions, and a session with an explicit weight uses that value instead
 * of its equal share (the others keep theirs, so explicit weights are absolute, not carved out).
 */
public final class SessionWeights {
    private SessionWeights() {
    }

    public static Map<SessionKey, Double> compute(Map<String, Tenant> tenants, Collection<Session> activeSessions) {
        Map<String, Integer> activePerTenant = new HashMap<>();
        Map<SessionKey, Session> unique = new HashMap<>();
        for (Session s : activeSessions) {
            if (!tenants.containsKey(s.tenantId())) {
                throw new IllegalArgumentException("session " + s.key() + " names unknown tenant " + s.tenantId());
            }
            if (unique.put(s.key(), s) != null) {
                throw new IllegalArgumentException("session " + s.key() + " is listed twice");
            }
            activePerTenant.merge(s.tenantId(), 1, Integer::sum);
        }
        Map<SessionKey, Double> weights = new TreeMap<>();
        for (Session s : unique.values()) {
            weights.put(s.key(), weight(tenants.get(s.tenantId()).weight(), activePerTenant.get(s.tenantId()), s.explicitWeight()));
        }
        return weights;
    }

    /**
     * One session's weight: its explicit weight, else its tenant's weight shared equally by the
     * tenant's {@code activeSessions} (this one included).
     */
    public static double weight(double tenantWeight, int activeSessions, OptionalDouble explicit) {
        return explicit.isPresent() ? explicit.getAsDouble() : tenantWeight / activeSessions;
    }
}
