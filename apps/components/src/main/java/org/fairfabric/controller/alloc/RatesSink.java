package org.fairfabric.controller.alloc;

/** Where finished rates tables go (Kafka's {@code ff.ctl.rates.v1} in the controller). */
public interface RatesSink {
    /** Sends one table; {@code json} has passed {@link RatesTableJson#check}. */
    void send(String host, String json);
}
