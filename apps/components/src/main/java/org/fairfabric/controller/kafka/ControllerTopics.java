package org.fairfabric.controller.kafka;

import java.util.List;
import org.fairfabric.api.dto.EventTypes;

/**
 * The Kafka topics the controller writes (it is their only writer), and which event goes where.
 * Schemas are in docs/kafka.md; the envelope version is {@link #SCHEMA_VERSION}.
 */
public final class ControllerTopics {
    public static final String DEFAULT_PREFIX = "ff.ctl.";
    public static final int SCHEMA_VERSION = 1;

    public static final String TENANTS = "tenants.v1";
    public static final String SESSIONS = "sessions.v1";
    public static final String ALLOCATIONS = "allocations.v1";
    public static final String ROUTING_GROUPS = "routing-groups.v1";
    public static final String TOPOLOGY = "topology.v1";
    public static final List<String> ALL = List.of(TENANTS, SESSIONS, ALLOCATIONS, ROUTING_GROUPS, TOPOLOGY);

    private ControllerTopics() {
    }

    /** The topic (without prefix) for an event type. */
    public static String forType(String type) {
        switch (type) {
            case EventTypes.TENANT_CREATED:
            case EventTypes.TENANT_UPDATED:
            case EventTypes.TENANT_DELETED:
            case EventTypes.HOST_ADDED:
            case EventTypes.HOST_REMOVED:
                return TENANTS;
            case EventTypes.SESSION_ADDED:
            case EventTypes.SESSION_REMOVED:
            case EventTypes.SESSION_UPDATED:
                return SESSIONS;
            case EventTypes.ALLOCATION_UPDATED:
            case org.fairfabric.controller.alloc.AllocationEvents.INFEASIBLE:
                return ALLOCATIONS;
            case EventTypes.ROUTING_GROUP_MOVED:
                return ROUTING_GROUPS;
            case EventTypes.DEVICE_STATE:
            case EventTypes.LINK_STATE:
            case EventTypes.NETWORK_CONFIG_UPDATED:
                return TOPOLOGY;
            default:
                throw new IllegalArgumentException("no topic for event type '" + type + "'");
        }
    }
}
