package org.fairfabric.monitor;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.test.TestRecord;
import org.fairfabric.monitor.stream.Json;

/** The monitor's topology in a TopologyTestDriver, with one input per topic and readers for the outputs. */
final class MonitorDriver implements AutoCloseable {
    final Topics topics = new Topics("");
    final TopologyTestDriver driver;
    private final Path stateDir;

    MonitorDriver(MonitorSettings settings) throws Exception {
        stateDir = Files.createTempDirectory("monitor-ttd");
        Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, "monitor-test");
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        p.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        p.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        p.put(StreamsConfig.ROCKSDB_CONFIG_SETTER_CLASS_CONFIG, BoundedRocksDbMemory.class); // as Monitor.streamsConfig
        driver = new TopologyTestDriver(MonitorTopology.build(topics, settings), p);
    }

    TestInputTopic<String, String> input(String topic) {
        return driver.createInputTopic(topic, new StringSerializer(), new StringSerializer());
    }

    void pipe(String topic, String key, String value, long timestampMs) {
        input(topic).pipeInput(key, value, timestampMs);
    }

    void loadCatalog() {
        for (String[] kv : DocExamples.keyed("ff.ctl.catalog.v1")) {
            pipe(topics.catalog, kv[0], kv[1], 0);
        }
    }

    /** Every record written to an output topic since the last read: key and parsed value (null for a tombstone). */
    List<Out> read(String topic) {
        TestOutputTopic<String, String> out =
                driver.createOutputTopic(topic, new StringDeserializer(), new StringDeserializer());
        List<Out> records = new ArrayList<>();
        for (TestRecord<String, String> r : out.readRecordsToList()) {
            records.add(new Out(r.key(), r.value() == null ? null : Json.parseObject(r.value())));
        }
        return records;
    }

    record Out(String key, JsonNode value) {
    }

    @Override
    public void close() throws Exception {
        driver.close();
        try (var walk = Files.walk(stateDir)) {
            walk.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        }
    }
}
