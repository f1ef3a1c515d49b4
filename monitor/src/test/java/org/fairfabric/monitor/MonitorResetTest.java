package org.fairfabric.monitor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Against the broker of `./fairfabric kafka start`. */
class MonitorResetTest {
    /**
     * A Kafka Streams member does not leave its group when it stops, so right after a monitor was
     * killed the broker refuses to delete the group ("The group is not empty") until the member's
     * session times out; --reset waits for that instead of failing (the gui suite then ran with no
     * monitor).
     */
    @Test
    void resetRightAfterAMonitorWasKilledWaitsForItsGroupAndDeletesEverythingItOwned() throws Exception {
        try (BrokerFixture f = new BrokerFixture()) {
            Path state = f.tempDir();
            BrokerFixture.kill(f.startMonitor(0, state));
            String applicationId = "fairfabric-monitor" + f.suffix;
            MonitorReset.reset(f.admin, f.topics, applicationId, state);
            assertFalse(f.admin.listConsumerGroups().all().get().stream().anyMatch(g -> g.groupId().equals(applicationId)),
                    "the group is gone");
            Set<String> left = f.admin.listTopics().names().get();
            assertEquals(Set.of(), Set.copyOf(f.topics.internal().stream().filter(left::contains).toList()), "internal topics deleted");
            assertFalse(Files.exists(state), "local state deleted");
        }
    }
}
