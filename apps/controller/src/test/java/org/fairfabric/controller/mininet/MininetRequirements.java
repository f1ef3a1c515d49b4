package org.fairfabric.controller.mininet;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * What the Mininet-backed tests need: root, bin/p4switch, the project's virtualenv, iperf3 and a
 * Kafka broker at $FAIRFABRIC_KAFKA (all provided by {@code ./fairfabric test}). When the mininet
 * group is run without them, the tests fail with the list of what is missing; they never skip.
 */
final class MininetRequirements {
    private MininetRequirements() {
    }

    static void check() {
        List<String> missing = new ArrayList<>();
        if (!isRoot()) {
            missing.add("root (Mininet needs it; run ./fairfabric test as root)");
        }
        Path root = repositoryRoot();
        if (!Files.isExecutable(p4switch())) {
            missing.add(p4switch() + " (./fairfabric setup builds it)");
        }
        if (!Files.isExecutable(python())) {
            missing.add(python() + " (./fairfabric setup makes the virtualenv)");
        }
        if (!onPath("iperf3")) {
            missing.add("iperf3 on the PATH (./fairfabric setup installs it)");
        }
        String kafka = System.getenv("FAIRFABRIC_KAFKA");
        if (kafka == null || kafka.isBlank()) {
            missing.add("a Kafka broker at $FAIRFABRIC_KAFKA (unset; ./fairfabric test starts one)");
        } else if (!reachable(kafka)) {
            missing.add("a Kafka broker at $FAIRFABRIC_KAFKA=" + kafka + " (nothing listens there)");
        }
        if (!Files.isRegularFile(root.resolve("apps/controller/target/runtime-classpath.txt"))) {
            missing.add("the controller's runtime class path (mvn builds it in generate-test-resources)");
        }
        if (!missing.isEmpty()) {
            throw new IllegalStateException("the Mininet tests cannot run here; missing: " + String.join("; ", missing));
        }
    }

    static String kafka() {
        return System.getenv("FAIRFABRIC_KAFKA");
    }

    /** The repository: the nearest directory above the working directory with go.mod and ./fairfabric. */
    static Path repositoryRoot() {
        for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
            if (Files.isRegularFile(p.resolve("go.mod")) && Files.isRegularFile(p.resolve("fairfabric"))) {
                return p;
            }
        }
        throw new IllegalStateException("not inside the fairfabric repository: " + Path.of("").toAbsolutePath());
    }

    static Path python() {
        return repositoryRoot().resolve(".venv/bin/python");
    }

    static Path p4switch() {
        String env = System.getenv("FF_P4SWITCH");
        return env != null && !env.isBlank() ? Path.of(env) : repositoryRoot().resolve("bin/p4switch");
    }

    private static boolean isRoot() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("Uid:")) {
                    return line.split("\\s+")[2].equals("0"); // the effective uid
                }
            }
        } catch (IOException e) {
            return false;
        }
        return false;
    }

    private static boolean onPath(String program) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, program))) {
                return true;
            }
        }
        return false;
    }

    private static boolean reachable(String bootstrap) {
        String first = bootstrap.split(",")[0].trim();
        int colon = first.lastIndexOf(':');
        if (colon < 0) {
            return false;
        }
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(first.substring(0, colon), Integer.parseInt(first.substring(colon + 1))), 2000);
            return true;
        } catch (IOException | NumberFormatException e) {
            return false;
        }
    }
}
