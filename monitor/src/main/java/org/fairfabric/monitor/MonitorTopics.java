package org.fairfabric.monitor;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.errors.TopicExistsException;

/** Creates the topics the monitor reads and writes when they are absent (replication 1: the project's single broker). */
public final class MonitorTopics {
    private MonitorTopics() {
    }

    public static void ensure(Admin admin, Topics topics, int partitions) throws InterruptedException {
        Set<String> existing;
        try {
            existing = admin.listTopics().names().get();
        } catch (ExecutionException e) {
            throw new IllegalStateException("cannot list topics: " + e.getCause().getMessage(), e.getCause());
        }
        List<NewTopic> create = new ArrayList<>();
        Map<String, String> compact = Map.of("cleanup.policy", "compact");
        for (String t : topics.inputs()) {
            create.add(new NewTopic(t, 1, (short) 1));
        }
        create.add(new NewTopic(topics.catalog, 1, (short) 1).configs(compact));
        for (String t : topics.internal()) {
            create.add(new NewTopic(t, partitions, (short) 1));
        }
        for (String t : topics.compactedOutputs()) {
            create.add(new NewTopic(t, partitions, (short) 1).configs(compact));
        }
        for (String t : topics.eventOutputs()) {
            create.add(new NewTopic(t, partitions, (short) 1));
        }
        create.removeIf(t -> existing.contains(t.name()));
        if (create.isEmpty()) {
            return;
        }
        try {
            admin.createTopics(create).all().get();
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof TopicExistsException)) {
                throw new IllegalStateException("cannot create topics: " + e.getCause().getMessage(), e.getCause());
            }
        }
        // the broker's metadata lags the creation: wait until every topic is described (the
        // global store's thread dies on a topic without partitions)
        List<String> names = create.stream().map(NewTopic::name).toList();
        for (int attempt = 0; ; attempt++) {
            try {
                admin.describeTopics(names).allTopicNames().get();
                return;
            } catch (ExecutionException e) {
                if (attempt >= 50) {
                    throw new IllegalStateException("created topics are not visible: " + e.getCause().getMessage(), e.getCause());
                }
                Thread.sleep(200);
            }
        }
    }
}
