package org.fairfabric.api.store;

import java.util.Objects;
import org.fairfabric.api.dto.HostDto;
import org.fairfabric.api.dto.SessionDto;
import org.fairfabric.api.dto.TenantDto;

/**
 * One durable change to the stored state. A store persists mutations in order; replaying them
 * onto {@link StoredState#EMPTY} gives back the state.
 */
public abstract class Mutation {
    private Mutation() {
    }

    /** Applies this change; the caller has already validated it against {@code state}. */
    public abstract StoredState applyTo(StoredState state);

    public static final class PutTenant extends Mutation {
        public final TenantDto tenant;

        public PutTenant(TenantDto tenant) {
            this.tenant = Objects.requireNonNull(tenant);
        }

        @Override
        public StoredState applyTo(StoredState state) {
            return state.withTenant(tenant);
        }
    }

    /** Removes a tenant and its hosts. */
    public static final class DeleteTenant extends Mutation {
        public final String tenantId;

        public DeleteTenant(String tenantId) {
            this.tenantId = Objects.requireNonNull(tenantId);
        }

        @Override
        public StoredState applyTo(StoredState state) {
            return state.withoutTenant(tenantId);
        }
    }

    public static final class PutHost extends Mutation {
        public final HostDto host;

        public PutHost(HostDto host) {
            this.host = Objects.requireNonNull(host);
        }

        @Override
        public StoredState applyTo(StoredState state) {
            return state.withHost(host);
        }
    }

    /** Removes a host and the sessions from or to it. */
    public static final class DeleteHost extends Mutation {
        public final String hostId;

        public DeleteHost(String hostId) {
            this.hostId = Objects.requireNonNull(hostId);
        }

        @Override
        public StoredState applyTo(StoredState state) {
            return state.withoutHost(hostId);
        }
    }

    /** Adds or replaces (for example with a new weight) a session declared over the API; uses its id's number. */
    public static final class PutSession extends Mutation {
        public final SessionDto session;

        public PutSession(SessionDto session) {
            this.session = Objects.requireNonNull(session);
        }

        @Override
        public StoredState applyTo(StoredState state) {
            return state.withSession(session);
        }
    }

    public static final class DeleteSession extends Mutation {
        public final String sessionId;

        public DeleteSession(String sessionId) {
            this.sessionId = Objects.requireNonNull(sessionId);
        }

        @Override
        public StoredState applyTo(StoredState state) {
            return state.withoutSession(sessionId);
        }
    }

    /**
     * Records that session ids up to {@code s<upTo>} are used (a detected session's id, or the
     * count a compacted journal must keep). Never lowers the count.
     */
    public static final class UseSessionNumbers extends Mutation {
        public final long upTo;

        public UseSessionNumbers(long upTo) {
            if (upTo < 0) {
                throw new IllegalArgumentException("upTo must be >= 0, got " + upTo);
            }
            this.upTo = upTo;
        }

        @Override
        public StoredState applyTo(StoredState state) {
            return state.withSessionNumbersUsed(upTo);
        }
    }

    /** Replaces the network configuration (ONOS network-config JSON, kept as text). */
    public static final class PutNetworkConfig extends Mutation {
        public final String json;

        public PutNetworkConfig(String json) {
            this.json = Objects.requireNonNull(json);
        }

        @Override
        public StoredState applyTo(StoredState state) {
            return state.withNetworkConfig(json);
        }
    }
}
