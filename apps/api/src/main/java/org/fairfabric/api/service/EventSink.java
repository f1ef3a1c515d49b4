package org.fairfabric.api.service;

import org.fairfabric.api.dto.EventDto;

/** Receives every event after it is recorded (the embedded controller's Kafka publisher is one). */
public interface EventSink {
    void publish(EventDto event);
}
