package org.fairfabric.core.ports;

/** Kinds of events the core reports for the event log, GUI and Kafka. */
public enum FabricEventType {
    GROUP_MOVE, LINK_DOWN, LINK_UP, AQ_GRANTED, AQ_DECLINED, AQ_RERATED, AQ_RELEASED,
    SESSION_ACTIVE, SESSION_INACTIVE, SESSION_EXPIRED, MIGRATION, GUARANTEE_VIOLATION
}
