package org.fairfabric.controller.monitor;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;

/** Publishes the data-plane events the controller receives as packet-ins on ff.ctl.dataplane-events.v1 (docs/kafka.md). */
public final class DataplaneEventPublisher {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final Producer<String, String> producer;
    private final String topic;
    private final AtomicLong seq = new AtomicLong();

    public DataplaneEventPublisher(Producer<String, String> producer, String topic) {
        this.producer = producer;
        this.topic = topic;
    }

    /** A vFab failure report: {@code port} of {@code device} failed (or recovered). */
    public void portState(String device, int port, boolean up) {
        ObjectNode o = envelope(device, "port.state");
        o.put("port", port);
        o.put("up", up);
        o.put("source", "failure-report");
        producer.send(new ProducerRecord<>(topic, device, o.toString()));
    }

    /** A P4TE gradient event: {@code metric} (contract C4 name) on {@code port} went {@code trend}. */
    public void gradient(String device, int port, String metric, String trend) {
        ObjectNode o = envelope(device, "gradient");
        o.put("port", port);
        o.put("metric", metric);
        o.put("trend", trend);
        producer.send(new ProducerRecord<>(topic, device, o.toString()));
    }

    private ObjectNode envelope(String device, String type) {
        ObjectNode o = JSON.createObjectNode();
        o.put("schema", 1);
        o.put("device", device);
        o.put("seq", seq.incrementAndGet());
        o.put("ts_ms", System.currentTimeMillis());
        o.put("type", type);
        return o;
    }
}
