package org.fairfabric.monitor;

import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;

/** One monitor instance in the foreground: {@code ./fairfabric monitor}. */
public final class Monitor {
    /**
     * Task idling (max.task.idle.ms): 0 = wait only for input data known to be on the broker but not
     * fetched yet, never for producers of caught-up inputs. A positive value also makes the task
     * wait that long whenever a sparse input (session reports, topology, data-plane events) goes
     * empty again after a record, which stalled the whole view for that long (the 10 s of the first
     * version: the demo's 12-79 s stale figures, the bench's seconds of lag). Ordering across inputs
     * is the input watermark's job (docs/monitor.md, "Clocks").
     */
    public static final long MAX_TASK_IDLE_MS = 0;
    private Monitor() {
    }

    /** The Kafka Streams configuration of an instance (docs/monitor.md, "Processing guarantees"). */
    public static Properties streamsConfig(MonitorOptions o) {
        Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, "fairfabric-monitor" + o.topicSuffix());
        p.put(StreamsConfig.CLIENT_ID_CONFIG, "fairfabric-monitor" + o.topicSuffix() + "-" + o.instanceId());
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, o.bootstrap());
        p.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        p.put(StreamsConfig.STATE_DIR_CONFIG, o.stateDir().toAbsolutePath().toString());
        p.put(StreamsConfig.REPLICATION_FACTOR_CONFIG, 1);
        p.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, o.threads());
        p.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, o.commitIntervalMs());
        // Latency: Kafka Streams lingers 100 ms before sending a batch, and a consumer's fetch waits up to
        // 500 ms when a read_committed partition has nothing new; each stage of the view would pay both.
        p.put(StreamsConfig.producerPrefix(ProducerConfig.LINGER_MS_CONFIG), 5);
        p.put(StreamsConfig.consumerPrefix(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG), 20);
        // Wait for input partitions that have data not fetched yet (at start, or behind a slow fetch on a
        // loaded machine) before taking another input's later records; caught-up partitions are not waited for.
        p.put(StreamsConfig.MAX_TASK_IDLE_MS_CONFIG, MAX_TASK_IDLE_MS);
        p.put(StreamsConfig.consumerPrefix(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG), "earliest");
        // a killed instance's partitions move to the others after this long
        p.put(StreamsConfig.consumerPrefix(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG), 6000);
        p.put(StreamsConfig.consumerPrefix(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG), 1500);
        p.put(StreamsConfig.ROCKSDB_CONFIG_SETTER_CLASS_CONFIG, BoundedRocksDbMemory.class);
        return p;
    }

    public static KafkaStreams start(MonitorOptions o) throws InterruptedException {
        Properties admin = new Properties();
        admin.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, o.bootstrap());
        Topics topics = new Topics(o.topicSuffix());
        Properties config = streamsConfig(o);
        try (Admin a = Admin.create(admin)) {
            if (o.reset()) {
                MonitorReset.reset(a, topics, config.getProperty(StreamsConfig.APPLICATION_ID_CONFIG), o.stateDir());
                System.out.println("monitor: reset (the monitor's topics, consumer group and " + o.stateDir() + " deleted)");
            }
            MonitorTopics.ensure(a, topics, o.partitions());
        }
        KafkaStreams streams = new KafkaStreams(MonitorTopology.build(topics, o.settings(), o.reset()), config);
        streams.setUncaughtExceptionHandler(e -> {
            System.err.println("monitor: stream thread failed: " + e);
            return org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse
                    .REPLACE_THREAD;
        });
        streams.setStateListener((now, before) ->
                System.out.println("monitor: " + before + " -> " + now));
        streams.start();
        return streams;
    }

    public static void main(String[] args) throws Exception {
        MonitorOptions o;
        try {
            if (args.length == 1 && (args[0].equals("-h") || args[0].equals("--help"))) {
                System.out.println(MonitorOptions.USAGE);
                return;
            }
            o = MonitorOptions.parse(args, System.getenv());
        } catch (IllegalArgumentException e) {
            System.err.println("monitor: " + e.getMessage());
            System.err.println(MonitorOptions.USAGE);
            System.exit(2);
            return;
        }
        KafkaStreams streams = start(o);
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            streams.close();
            stopped.countDown();
        }));
        System.out.println("monitor: instance " + o.instanceId() + " on " + o.bootstrap() + ", state in "
                + o.stateDir() + ", period " + o.settings().periodMs() + " ms");
        stopped.await();
    }
}
