package org.fairfabric.core.model;

import java.util.Objects;
import java.util.OptionalDouble;

/**
 * A session: traffic from one VM to another of the same tenant (Promenade's session i). Its weight
 * is either set explicitly or derived from the tenant's weight by {@link SessionWeights}.
 */
public final class Session {
    private final SessionKey key;
    private final String tenantId;
    private final OptionalDouble explicitWeight;
    private final TrafficClass trafficClass;

    public Session(SessionKey key, String tenantId, OptionalDouble explicitWeight, TrafficClass trafficClass) {
        this.key = Checks.notNull(key, "session key");
        this.tenantId = Checks.nonEmpty(tenantId, "session tenant id");
        this.explicitWeight = Checks.notNull(explicitWeight, "session explicit weight");
        if (explicitWeight.isPresent()) {
            Checks.positive(explicitWeight.getAsDouble(), "session weight");
        }
        this.trafficClass = Checks.notNull(trafficClass, "session traffic class");
    }

    public Session(SessionKey key, String tenantId) {
        this(key, tenantId, OptionalDouble.empty(), TrafficClass.BEST_EFFORT);
    }

    public SessionKey key() {
        return key;
    }

    public String tenantId() {
        return tenantId;
    }

    public OptionalDouble explicitWeight() {
        return explicitWeight;
    }

    public TrafficClass trafficClass() {
        return trafficClass;
    }

    public Session withExplicitWeight(double weight) {
        return new Session(key, tenantId, OptionalDouble.of(weight), trafficClass);
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof Session)) {
            return false;
        }
        Session s = (Session) o;
        return key.equals(s.key) && tenantId.equals(s.tenantId) && explicitWeight.equals(s.explicitWeight)
                && trafficClass == s.trafficClass;
    }

    @Override
    public int hashCode() {
        return Objects.hash(key, tenantId, explicitWeight, trafficClass);
    }

    @Override
    public String toString() {
        return "Session(" + key + ", tenant=" + tenantId + ")";
    }
}
