package org.fairfabric.monitor.stream;

/**
 * What a stage emits: a value for one of the monitor's topics. The topology routes each kind to
 * its topic; the record key is the Kafka key.
 */
public record Out(Kind kind, String value) {

    public enum Kind {
        PAIR_SIGNAL, LINK_SIGNAL, TENANT_SIGNAL, SESSION_VIEW, LINK_VIEW, TENANT_VIEW, EVENT, REJECTED
    }

    /** Keys of clock ticks: sent to every partition of a signal topic so that every stage's clock advances. */
    public static final String TICK_KEY = "~tick";
}
