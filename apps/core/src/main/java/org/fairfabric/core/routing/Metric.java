package org.fairfabric.core.routing;

/**
 * The link metrics P4TE ranks upward ports by; each has its own upward table and routing groups.
 * The one source of the metric names fairfabric shows outside Java (REST, events, Kafka):
 * {@link #wireName()}, stated as the enum of docs/api/openapi.yaml and in docs/kafka.md
 * (ApiContractTest in apps/controller holds the three together).
 */
public enum Metric {
    DELAY("hop-delay"), QUEUE_DEPTH("queue-depth"), LINK_UTILIZATION("link-utilisation");

    private final String wireName;

    Metric(String wireName) {
        this.wireName = wireName;
    }

    /** The name in REST answers, events and Kafka records, for example {@code queue-depth}. */
    public String wireName() {
        return wireName;
    }

    /** The metric of a wire name; IllegalArgumentException for any other string. */
    public static Metric ofWireName(String name) {
        for (Metric m : values()) {
            if (m.wireName.equals(name)) {
                return m;
            }
        }
        throw new IllegalArgumentException("no metric named '" + name + "'");
    }
}
