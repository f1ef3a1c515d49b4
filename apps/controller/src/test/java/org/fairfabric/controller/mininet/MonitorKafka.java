package org.fairfabric.controller.mininet;

import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;

/**
 * A clean start for a monitor on the default topic names (the controller and the shims have no
 * topic suffix): the monitor's inputs, outputs, internal and changelog topics and its consumer
 * group are deleted, so that it neither replays earlier tests' reports nor resumes their state.
 */
final class MonitorKafka {
    private static final List<String> PREFIXES = List.of("ff.shim.sessions.v1", "ff.shim.pathbytes.v1",
            "ff.shim.stats.v1", "ff.shim.rlnc.v1", "ff.ctl.portstats.v1", "ff.ctl.dataplane-events.v1", "ff.ctl.catalog.v1",
            "ff.ctl.topology.v1", "ff.mon.", "fairfabric-monitor-");
    private static final String GROUP = "fairfabric-monitor";

    private MonitorKafka() {
    }

    static void resetDefaultTopics(String bootstrap) throws Exception {
        Properties p = new Properties();
        p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        try (Admin admin = Admin.create(p)) {
            deleteGroup(admin);
            Set<String> doomed = mine(admin);
            admin.deleteTopics(doomed).all().get(60, TimeUnit.SECONDS);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (!mine(admin).isEmpty()) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("topics not deleted after 60 s: " + mine(admin));
                }
                Thread.sleep(200);
            }
        }
    }

    /**
     * A monitor of the previous test class may still be a member (the broker drops a member that
     * did not leave cleanly after its session timeout): wait for the group to empty, up to 60 s.
     */
    private static void deleteGroup(Admin admin) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (admin.listConsumerGroups().all().get(30, TimeUnit.SECONDS).stream().anyMatch(g -> g.groupId().equals(GROUP))) {
            try {
                admin.deleteConsumerGroups(List.of(GROUP)).all().get(30, TimeUnit.SECONDS);
                return;
            } catch (java.util.concurrent.ExecutionException e) {
                if (!(e.getCause() instanceof org.apache.kafka.common.errors.GroupNotEmptyException) || System.nanoTime() > deadline) {
                    throw e;
                }
                Thread.sleep(500);
            }
        }
    }

    private static Set<String> mine(Admin admin) throws Exception {
        return admin.listTopics().names().get(30, TimeUnit.SECONDS).stream()
                .filter(t -> PREFIXES.stream().anyMatch(t::startsWith)).collect(Collectors.toSet());
    }
}
