package org.fairfabric.onos.platform;

/**
 * The platform component's properties, in a class of their own (ONOS's convention): the component
 * annotation names them, and onos-maven-plugin's {@code cfg} goal reads them from here to list them
 * for {@code cfg get}/{@code cfg set}.
 */
public final class OsgiPropertyConstants {
    /** Kafka's brokers ({@code host:port[,host:port...]}) the leader publishes to; empty: no Kafka. */
    public static final String KAFKA_BOOTSTRAP_PROPERTY = "kafkaBootstrap";
    public static final String KAFKA_BOOTSTRAP_DEFAULT = "";
    /** The share of every link the allocator leaves free, 0 to 0.5 (docs/controller.md, "Capacity headroom"). */
    public static final String CAPACITY_HEADROOM_PROPERTY = "capacityHeadroom";
    public static final double CAPACITY_HEADROOM_DEFAULT = 0.0;

    private OsgiPropertyConstants() {
    }
}
