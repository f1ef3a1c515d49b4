package org.fairfabric.monitor;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.errors.GroupIdNotFoundException;
import org.apache.kafka.common.errors.GroupNotEmptyException;

/**
 * {@code --reset}: a fresh view for a new run of the fabric (the demo, the GUI tests). Deletes the
 * monitor's own topics (outputs, internal signal topics, changelogs), its consumer group and its
 * local state; the inputs stay, and the new application starts at their end, so it neither replays
 * reports of earlier runs (a backlog it would need minutes to work through, showing a view that
 * many minutes old) nor serves their sessions and links as current.
 */
public final class MonitorReset {
    private MonitorReset() {
    }

    public static void reset(Admin admin, Topics topics, String applicationId, Path stateDir) throws InterruptedException {
        try {
            deleteGroup(admin, applicationId);
            Set<String> doomed = owned(admin, topics, applicationId);
            if (!doomed.isEmpty()) {
                admin.deleteTopics(doomed).all().get();
            }
            for (int attempt = 0; !owned(admin, topics, applicationId).isEmpty(); attempt++) {
                if (attempt >= 300) {
                    throw new IllegalStateException("topics not deleted after 60 s: " + owned(admin, topics, applicationId));
                }
                Thread.sleep(200);
            }
        } catch (ExecutionException e) {
            throw new IllegalStateException("cannot reset the monitor's topics: " + e.getCause().getMessage(), e.getCause());
        }
        deleteTree(stateDir);
    }

    /**
     * An instance stopped moments ago (or killed) is still a member of the group until its session
     * times out (6 s, Monitor.streamsConfig): the broker refuses to delete a group that is not empty.
     */
    private static void deleteGroup(Admin admin, String applicationId) throws ExecutionException, InterruptedException {
        for (int attempt = 0;; attempt++) {
            try {
                admin.deleteConsumerGroups(List.of(applicationId)).all().get();
                return;
            } catch (ExecutionException e) {
                if (e.getCause() instanceof GroupIdNotFoundException) {
                    return;
                }
                if (!(e.getCause() instanceof GroupNotEmptyException) || attempt >= 150) {
                    throw e;
                }
                Thread.sleep(200);
            }
        }
    }

    private static Set<String> owned(Admin admin, Topics topics, String applicationId)
            throws ExecutionException, InterruptedException {
        List<String> mine = new ArrayList<>(topics.internal());
        mine.addAll(topics.compactedOutputs());
        mine.addAll(topics.eventOutputs());
        return admin.listTopics().names().get().stream()
                .filter(t -> mine.contains(t) || t.startsWith(applicationId + "-")).collect(Collectors.toSet());
    }

    private static void deleteTree(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> all = Files.walk(dir)) {
            for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot delete the local state " + dir + ": " + e.getMessage(), e);
        }
    }
}
