package org.fairfabric.core.ports;

/** Where the core reports what it did: event log, GUI, Kafka. Must not block the caller for long. */
public interface EventSink {
    void emit(FabricEvent event);
}
