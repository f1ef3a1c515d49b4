package org.fairfabric.core.ports;

import java.util.List;

/** Publishes an allocation (Kafka for host shims, REST views): the complete set for one epoch. */
public interface RatePublisher {
    void publish(long epoch, List<PathRate> rates);
}
