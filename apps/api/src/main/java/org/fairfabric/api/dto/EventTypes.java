package org.fairfabric.api.dto;

/** The event types the controller emits (the Kafka topic each goes to is in docs/kafka.md). */
public final class EventTypes {
    public static final String TENANT_CREATED = "tenant.created";
    public static final String TENANT_UPDATED = "tenant.updated";
    public static final String TENANT_DELETED = "tenant.deleted";
    public static final String HOST_ADDED = "host.added";
    public static final String HOST_REMOVED = "host.removed";
    public static final String SESSION_ADDED = "session.added";
    public static final String SESSION_REMOVED = "session.removed";
    public static final String SESSION_UPDATED = "session.updated";
    public static final String NETWORK_CONFIG_UPDATED = "network-config.updated";
    public static final String ALLOCATION_UPDATED = "allocation.updated";
    public static final String ROUTING_GROUP_MOVED = "routing-group.moved";
    public static final String DEVICE_STATE = "device.state";
    public static final String LINK_STATE = "link.state";

    private EventTypes() {
    }
}
