package org.fairfabric.monitor.stream;

import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.kafka.common.utils.Utils;
import org.apache.kafka.streams.processor.StreamPartitioner;

/**
 * Partitions signals by key like the default partitioner, except that a tick goes to every
 * partition: each stage instance then advances its clock (and closes its periods) from the same
 * event time, whichever partitions it owns.
 */
public final class TickPartitioner implements StreamPartitioner<String, String> {

    @Override
    @Deprecated
    public Integer partition(String topic, String key, String value, int numPartitions) {
        return Utils.toPositive(Utils.murmur2(key.getBytes(StandardCharsets.UTF_8))) % numPartitions;
    }

    @Override
    @SuppressWarnings("deprecation")
    public Optional<Set<Integer>> partitions(String topic, String key, String value, int numPartitions) {
        if (Out.TICK_KEY.equals(key)) {
            return Optional.of(IntStream.range(0, numPartitions).boxed().collect(Collectors.toSet()));
        }
        return Optional.of(Set.of(partition(topic, key, value, numPartitions)));
    }
}
