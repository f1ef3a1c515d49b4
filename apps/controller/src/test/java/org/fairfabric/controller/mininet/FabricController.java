package org.fairfabric.controller.mininet;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.fairfabric.controller.ControllerProcess;
import org.fairfabric.controller.rest.HttpJson;

/**
 * The embedded controller as a separate JVM on a Mininet fabric: the fabric pipeline, the
 * fabric's network configuration, events to the Kafka broker at $FAIRFABRIC_KAFKA, REST on a free
 * port. A separate process so that kill -9 is a real crash; the driver kills it if the test JVM dies.
 */
final class FabricController implements AutoCloseable {
    private static final int PAGE = 1000;
    /**
     * vFab echo interval for the tests: at the default 250 ms, p4switch processes starved of CPU
     * on this busy 2-core machine miss three replies in a row and idle links are declared failed.
     */
    static final long ECHO_INTERVAL_MS = 1000;

    private final MininetFabric fabric;
    private final Path dataDir;
    private final Path deviceConfig;
    private final Path logFile;
    private final String token;
    private ControllerProcess process;
    private HttpJson http;
    private final long echoIntervalMs;

    private FabricController(MininetFabric fabric, Path workDir, long echoIntervalMs) throws Exception {
        this.fabric = fabric;
        this.echoIntervalMs = echoIntervalMs;
        this.dataDir = workDir.resolve("controller-data");
        this.deviceConfig = workDir.resolve("fabric.bundle");
        this.logFile = workDir.resolve("controller.log");
        Files.createDirectories(workDir);
        byte[] secret = new byte[24];
        new SecureRandom().nextBytes(secret);
        this.token = Base64.getUrlEncoder().withoutPadding().encodeToString(secret);
        Process bundle = new ProcessBuilder(MininetRequirements.p4switch().toString(), "bundle",
                program().toString(), "-o", deviceConfig.toString()).redirectErrorStream(true).start();
        String out = new String(bundle.getInputStream().readAllBytes());
        if (!bundle.waitFor(120, TimeUnit.SECONDS) || bundle.exitValue() != 0) {
            throw new IllegalStateException("p4switch bundle of fabric.p4 failed: " + out);
        }
    }

    /** Starts the controller on the fabric and waits until every switch is connected, primary and programmed. */
    static FabricController start(MininetFabric fabric, Path workDir) throws Exception {
        return start(fabric, workDir, ECHO_INTERVAL_MS);
    }

    /** The same with the given vFab echo interval. */
    static FabricController start(MininetFabric fabric, Path workDir, long echoIntervalMs) throws Exception {
        return start(fabric, workDir, echoIntervalMs, List.of());
    }

    /** The same with more controller options (e.g. {@code --routing ecmp}). */
    static FabricController start(MininetFabric fabric, Path workDir, long echoIntervalMs, List<String> controllerArgs) throws Exception {
        FabricController c = new FabricController(fabric, workDir, echoIntervalMs);
        c.extraArgs = List.copyOf(controllerArgs);
        c.startProcess();
        c.waitDevicesAvailable(240);
        return c;
    }

    private static Path program() {
        return MininetRequirements.repositoryRoot().resolve("pipeconfs/p4/fabric.p4");
    }

    /** Options added to the controller's command line. */
    private List<String> extraArgs = List.of();

    void startProcess() throws Exception {
        Path p4info = MininetRequirements.repositoryRoot().resolve("pipeconfs/p4/p4info.txt");
        List<String> args = new ArrayList<>(List.of(
                "--data-dir", dataDir.toString(), "--netcfg", fabric.netcfg.toString(), "--http-port", "0",
                "--p4info", p4info.toString(), "--p4-device-config", deviceConfig.toString(),
                "--kafka", MininetRequirements.kafka(), "--echo-interval-ms", Long.toString(echoIntervalMs)));
        args.addAll(extraArgs);
        process = ControllerProcess.start(Map.of("FF_API_TOKEN", token, "FAIRFABRIC_KAFKA", MininetRequirements.kafka()),
                args.toArray(new String[0]));
        fabric.track(process.process.pid());
        http = new HttpJson(process.baseUrl, token);
    }

    /** The controller process's pid (for SIGSTOP/SIGCONT: a starved controller). */
    long pid() {
        return process.process.pid();
    }

    /** kill -9: no shutdown hook, nothing flushed. */
    void kill9() throws InterruptedException {
        process.kill9();
        saveLog();
    }

    /** Appends the output of the process that ran to the log file kept in the work directory. */
    private void saveLog() {
        List<String> lines;
        synchronized (process.output) {
            lines = new ArrayList<>(process.output);
        }
        try {
            Files.write(logFile, lines, java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.APPEND);
        } catch (java.io.IOException e) {
            System.err.println("could not keep the controller's output in " + logFile + ": " + e);
        }
    }

    HttpJson http() {
        return http;
    }

    String token() {
        return token;
    }

    /** A GET that must answer 200. */
    JsonNode get(String path) {
        HttpJson.Answer a = http.get("/api/v1" + path);
        assertEquals(200, a.status, "GET " + path + ": " + a);
        return a.json();
    }

    HttpJson.Answer send(String method, String path, String body) {
        return http.send(method, "/api/v1" + path, body);
    }

    void waitDevicesAvailable(double timeoutS) throws InterruptedException {
        long deadline = System.nanoTime() + (long) (timeoutS * 1e9);
        while (true) {
            JsonNode devices = get("/topology").path("devices");
            List<String> down = new ArrayList<>();
            devices.forEach(d -> {
                if (!d.path("available").asBoolean()) {
                    down.add(d.path("id").asText());
                }
            });
            if (devices.size() > 0 && down.isEmpty()) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("devices not available after " + timeoutS + " s: " + down + "\n" + logTail());
            }
            Thread.sleep(500);
        }
    }

    /** Every event with a sequence number above {@code after}, oldest first. */
    List<JsonNode> eventsAfter(long after) {
        List<JsonNode> out = new ArrayList<>();
        while (true) {
            JsonNode page = get("/events?after=" + after + "&limit=" + PAGE);
            page.forEach(out::add);
            if (page.size() < PAGE) {
                return out;
            }
            after = page.get(page.size() - 1).path("seq").asLong();
        }
    }

    /** The sequence number of the newest event (0 when there is none). */
    long lastEventSeq() {
        List<JsonNode> all = eventsAfter(0);
        return all.isEmpty() ? 0 : all.get(all.size() - 1).path("seq").asLong();
    }

    /** Polls until some events after {@code after} match, or fails after {@code timeoutS}. */
    List<JsonNode> awaitEvents(long after, Predicate<JsonNode> match, double timeoutS, String what) throws InterruptedException {
        long deadline = System.nanoTime() + (long) (timeoutS * 1e9);
        while (true) {
            List<JsonNode> found = eventsAfter(after).stream().filter(match).toList();
            if (!found.isEmpty()) {
                return found;
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("no " + what + " within " + timeoutS + " s\n" + logTail());
            }
            Thread.sleep(500);
        }
    }

    String logTail() {
        List<String> lines;
        synchronized (process.output) {
            lines = new ArrayList<>(process.output);
        }
        return "controller output (last lines):\n" + String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
    }

    @Override
    public void close() throws InterruptedException {
        if (process != null) {
            process.process.destroy(); // SIGTERM: a clean stop
            if (!process.process.waitFor(20, TimeUnit.SECONDS)) {
                process.kill9();
            }
            saveLog();
        }
    }
}
