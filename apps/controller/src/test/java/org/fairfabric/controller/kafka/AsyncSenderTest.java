package org.fairfabric.controller.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;

class AsyncSenderTest {
    /**
     * No broker listens on port 1: the producer's first send waits for metadata (max.block.ms), so
     * the sending thread holds one record, five wait and the other four are dropped, and every
     * send returned to its caller. Closing fails what was still waiting through the callbacks.
     */
    @Test
    void aBrokerThatIsDownNeverBlocksTheCallerAndExcessRecordsAreDropped() {
        AsyncSender sender = new AsyncSender(KafkaClients.reliableProducer("127.0.0.1:1", "async-sender-test", 0), "test", 5);
        AtomicInteger failed = new AtomicInteger();
        for (int i = 0; i < 10; i++) {
            sender.send(new ProducerRecord<>("t", "k", "v" + i), (meta, err) -> {
                if (err != null) {
                    failed.incrementAndGet();
                }
            });
        }
        assertEquals(5, sender.queued(), "records waiting behind the one being sent");
        assertEquals(4, sender.dropped());
        sender.close(Duration.ofMillis(200));
        assertTrue(failed.get() <= 6, "only records that were handed to the producer report: " + failed.get());
    }
}
