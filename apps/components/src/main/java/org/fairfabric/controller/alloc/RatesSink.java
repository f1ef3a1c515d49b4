package org.fairfabric.controller.alloc;

import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/** Where finished rates tables go (Kafka's {@code ff.ctl.rates.v1} in the controller). */
public interface RatesSink {
    /** Sends one table; {@code json} has passed {@link RatesTableJson#check}. */
    void send(String host, String json);

    /**
     * Sends the tables of one allocation, in the map's order, together where the sink can (Kafka:
     * in as few requests as their size allows); by default one at a time. The stage completes when
     * the sink has delivered them all or given up (Kafka: every record acknowledged or failed).
     */
    default CompletionStage<?> sendAll(Map<String, String> jsonByHost) {
        jsonByHost.forEach(this::send);
        return CompletableFuture.completedFuture(null);
    }
}
