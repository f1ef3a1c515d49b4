package org.fairfabric.controller.kafka;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hands records to a Kafka producer from a thread of its own. A producer that has no metadata
 * for a topic yet (a broker that is down when the controller starts) blocks its caller for up to
 * {@code max.block.ms} per record; a component thread blocked that way stalls the controller's
 * start-up and every other event behind it. Records keep their order; at most {@code capacity}
 * wait, further ones are dropped, counted and logged.
 */
public final class AsyncSender implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(AsyncSender.class);

    private final KafkaProducer<String, String> producer;
    private final String name;
    private final ThreadPoolExecutor thread;
    private final AtomicLong dropped = new AtomicLong();

    public AsyncSender(KafkaProducer<String, String> producer, String name, int capacity) {
        this.producer = producer;
        this.name = name;
        this.thread = new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS, new ArrayBlockingQueue<>(capacity), r -> {
            Thread t = new Thread(r, "kafka-send-" + name);
            t.setDaemon(true);
            return t;
        }, (r, executor) -> {
            if (dropped.incrementAndGet() % 1000 == 1) {
                LOG.warn("{}: {} records dropped so far: the broker has not taken the queued ones", name, dropped.get());
            }
        });
    }

    /** Queues the record; the callback runs when the broker acknowledged it or the send failed. */
    public void send(ProducerRecord<String, String> record, Callback callback) {
        thread.execute(() -> {
            try {
                producer.send(record, callback);
            } catch (RuntimeException e) { // e.g. no metadata within max.block.ms
                callback.onCompletion(null, e);
            }
        });
    }

    /**
     * Queues the records as one: the sending thread hands them to the producer back to back, so
     * they gather in its batch while its network thread sends the first. {@code callbacks}: one
     * per record.
     */
    public void sendAll(List<ProducerRecord<String, String>> records, List<Callback> callbacks) {
        thread.execute(() -> {
            for (int i = 0; i < records.size(); i++) {
                try {
                    producer.send(records.get(i), callbacks.get(i));
                } catch (RuntimeException e) {
                    callbacks.get(i).onCompletion(null, e);
                }
            }
        });
    }

    /** Waits until every record queued so far is acknowledged or has failed. */
    public void flush() {
        try {
            thread.submit(producer::flush).get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException e) {
            LOG.warn("{}: flush failed: {}", name, e.getCause().toString());
        }
    }

    /** Records waiting for the sending thread. */
    public int queued() {
        return thread.getQueue().size();
    }

    /** Records dropped because too many were waiting. */
    public long dropped() {
        return dropped.get();
    }

    /** Sends what is queued (within the timeout), then closes the producer. */
    public void close(Duration timeout) {
        thread.shutdown();
        try {
            if (!thread.awaitTermination(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                thread.shutdownNow();
            }
        } catch (InterruptedException e) {
            thread.shutdownNow();
            Thread.currentThread().interrupt();
        }
        producer.close(timeout);
    }

    @Override
    public void close() {
        close(Duration.ofSeconds(10));
    }
}
