package org.fairfabric.monitor.input;

import java.util.Map;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.fairfabric.monitor.stream.Out;

/**
 * All input topics in one task per partition number, each record handed to its topic's reader.
 * One task (rather than one per topic) means the readers advance together: Kafka Streams takes
 * the records of a task's partitions in timestamp order, so a reader that restarts or lags
 * cannot let another one's ticks close periods before its reports arrive, and a restarted or
 * failed-over run processes the same sequence as an uninterrupted one.
 */
public final class InputDispatcher implements Processor<String, String, String, Out> {
    private final Map<String, Processor<String, String, String, Out>> readers;
    private ProcessorContext<String, Out> context;

    public InputDispatcher(Map<String, Processor<String, String, String, Out>> readersByTopic) {
        this.readers = readersByTopic;
    }

    @Override
    public void init(ProcessorContext<String, Out> context) {
        this.context = context;
        readers.values().forEach(r -> r.init(context));
    }

    @Override
    public void process(Record<String, String> record) {
        String topic = context.recordMetadata().map(m -> m.topic()).orElseThrow();
        Processor<String, String, String, Out> reader = readers.get(topic);
        if (reader != null) {
            reader.process(record);
        }
    }
}
