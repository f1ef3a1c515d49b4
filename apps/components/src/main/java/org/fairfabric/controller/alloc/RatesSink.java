package org.fairfabric.controller.alloc;

import java.util.Map;

/** Where finished rates tables go (Kafka's {@code ff.ctl.rates.v1} in the controller). */
public interface RatesSink {
    /** Sends one table; {@code json} has passed {@link RatesTableJson#check}. */
    void send(String host, String json);

    /**
     * Sends the tables of one allocation, in the map's order, together where the sink can (Kafka:
     * in as few requests as their size allows); by default one at a time.
     */
    default void sendAll(Map<String, String> jsonByHost) {
        jsonByHost.forEach(this::send);
    }
}
