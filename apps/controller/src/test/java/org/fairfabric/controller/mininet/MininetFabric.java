package org.fairfabric.controller.mininet;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A p4switch fabric in Mininet, run by the Python driver ({@code mininet/fairfabric_mn/driver.py})
 * and driven over its stdin/stdout JSON protocol. The driver stops the fabric when its input
 * closes, so a test JVM that dies (even by kill -9) leaves no fabric behind.
 */
public final class MininetFabric implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final long REPLY_TIMEOUT_S = 240;
    private static final String EOF = "\u0000eof";

    private final Process process;
    private final Writer in;
    private final BlockingQueue<String> replies = new LinkedBlockingQueue<>();
    private final Path log;
    /** The driver's ready line: switches (role, pod, device id, gRPC port) and hosts (ip, mac, switch, port). */
    public final JsonNode ready;
    public final Path netcfg;

    private MininetFabric(Process process, Path log, Path netcfg) throws Exception {
        this.process = process;
        this.log = log;
        this.netcfg = netcfg;
        this.in = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
        Thread reader = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = r.readLine()) != null) {
                    replies.add(line);
                }
            } catch (IOException ignored) {
                // the driver died; the EOF marker below reports it
            }
            replies.add(EOF);
        }, "mininet-driver");
        reader.setDaemon(true);
        reader.start();
        this.ready = next(300);
        if (!ready.path("ready").asBoolean()) {
            throw new IllegalStateException("the driver did not get ready: " + ready);
        }
    }

    /**
     * Starts a fabric: {@code topo} fattree or leafspine, node names prefixed {@code prefix},
     * links at {@code bwMbit} Mbit/s. Fails (never skips) when root, bin/p4switch or the venv are missing.
     */
    public static MininetFabric start(String topo, String prefix, double bwMbit, Path workDir) throws Exception {
        return start(topo, prefix, bwMbit, workDir, false);
    }

    /** As {@link #start(String, String, double, Path)}; {@code shims}: a host shim on every host (driver option --shims). */
    public static MininetFabric start(String topo, String prefix, double bwMbit, Path workDir, boolean shims) throws Exception {
        return start(topo, prefix, bwMbit, workDir, shims, List.of());
    }

    /** As {@link #start(String, String, double, Path, boolean)} with more driver options (e.g. {@code --core-bw 1}). */
    public static MininetFabric start(String topo, String prefix, double bwMbit, Path workDir, boolean shims, List<String> driverArgs)
            throws Exception {
        MininetRequirements.check();
        Files.createDirectories(workDir);
        Path netcfg = workDir.resolve("netcfg.json");
        Path log = workDir.resolve("driver.log");
        Path root = MininetRequirements.repositoryRoot();
        ProcessBuilder pb = new ProcessBuilder(MininetRequirements.python().toString(), "-m", "fairfabric_mn.driver",
                "--topo", topo, "--prefix", prefix, "--netcfg", netcfg.toString(), "--bw", Double.toString(bwMbit))
                .directory(root.resolve("mininet").toFile())
                .redirectError(ProcessBuilder.Redirect.appendTo(log.toFile()));
        pb.command().addAll(driverArgs);
        if (shims) {
            pb.command().add("--shims");
            pb.environment().put("FAIRFABRIC_KAFKA", MininetRequirements.kafka());
        }
        pb.environment().put("PYTHONPATH", root.resolve("mininet").toString());
        pb.environment().put("PYTHONUNBUFFERED", "1");
        Process p = pb.start();
        try {
            return new MininetFabric(p, log, netcfg);
        } catch (Exception e) {
            p.destroy();
            p.waitFor(60, TimeUnit.SECONDS);
            throw new IllegalStateException("starting the " + topo + " failed; driver log " + log + ":\n" + tail(log), e);
        }
    }

    /** Runs one driver command; fields come as name, value pairs. A command the driver refuses fails the test. */
    public JsonNode call(String op, Object... fields) {
        JsonNode reply = tryCall(op, fields);
        if (!reply.path("ok").asBoolean()) {
            throw new AssertionError("driver command " + op + " failed: " + reply.path("error").asText());
        }
        return reply;
    }

    /** Runs one driver command and returns its reply, whether or not it succeeded. */
    public synchronized JsonNode tryCall(String op, Object... fields) {
        ObjectNode req = JSON.createObjectNode().put("op", op);
        for (int i = 0; i < fields.length; i += 2) {
            req.set((String) fields[i], JSON.valueToTree(fields[i + 1]));
        }
        try {
            in.write(JSON.writeValueAsString(req) + "\n");
            in.flush();
            return next(REPLY_TIMEOUT_S);
        } catch (IOException e) {
            throw new IllegalStateException("the driver is gone; log " + log + ":\n" + tail(log), e);
        }
    }

    private JsonNode next(long timeoutS) throws IOException {
        String line;
        try {
            line = replies.poll(timeoutS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        if (line == null) {
            throw new IllegalStateException("no answer from the driver within " + timeoutS + " s; log " + log);
        }
        if (line.equals(EOF)) {
            replies.add(EOF);
            throw new IllegalStateException("the driver exited; log " + log + ":\n" + tail(log));
        }
        return JSON.readTree(line);
    }

    public List<String> hosts() {
        List<String> out = new ArrayList<>();
        ready.path("hosts").fieldNames().forEachRemaining(out::add);
        return out;
    }

    public JsonNode host(String name) {
        JsonNode h = ready.path("hosts").path(name);
        if (h.isMissingNode()) {
            throw new IllegalArgumentException("no host " + name);
        }
        return h;
    }

    public List<String> switches() {
        List<String> out = new ArrayList<>();
        for (Iterator<String> it = ready.path("switches").fieldNames(); it.hasNext(); ) {
            out.add(it.next());
        }
        return out;
    }

    public String role(String switchName) {
        return ready.path("switches").path(switchName).path("role").asText();
    }

    /** One ping per ordered pair, repeated until a round has no loss or {@code timeoutS} passed. */
    public JsonNode pingAll(double timeoutS) {
        return call("ping_all", "timeout", timeoutS);
    }

    /** For each [src, dst] pair (all at once): how many of {@code count} UDP flows (distinct source ports) from src reach dst. */
    public List<Integer> flowsDelivered(List<List<String>> pairs, int count) {
        List<Integer> out = new ArrayList<>();
        call("flows", "pairs", pairs, "count", count).path("delivered").forEach(n -> out.add(n.asInt()));
        return out;
    }

    /**
     * Starts {@code iperf3 -s -1} on {@code host} (bound to {@code bind} unless null) and returns
     * its job once it listens: a client started earlier fails to connect and sends nothing (the
     * server can take over a second to start on a loaded machine).
     */
    public int iperf3Server(String host, String bind, int port) throws InterruptedException {
        List<String> argv = new ArrayList<>(List.of("iperf3", "-s", "-1", "-p", Integer.toString(port)));
        if (bind != null) {
            argv.addAll(List.of("-B", bind));
        }
        int job = call("bg", "host", host, "argv", argv).path("job").asInt();
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (true) {
            JsonNode ss = call("cmd", "host", host, "argv", List.of("ss", "-Hltn", "sport = :" + port));
            if (ss.path("out").asText().contains(":" + port)) {
                return job;
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("iperf3 -s on " + host + " not listening on port " + port + " after 30 s: " + ss);
            }
            Thread.sleep(100);
        }
    }

    /** A process started for this fabric (the controller): the driver kills it at the end and records it for ./fairfabric clean. */
    public void track(long pid) {
        call("track", "pid", pid);
    }

    public String logTail() {
        return tail(log);
    }

    static String tail(Path file) {
        try {
            String s = Files.readString(file);
            return s.substring(Math.max(0, s.length() - 4000));
        } catch (IOException e) {
            return "(" + e + ")";
        }
    }

    @Override
    public void close() throws Exception {
        try {
            in.write("{\"op\":\"stop\"}\n");
            in.flush();
            in.close();
        } catch (IOException alreadyGone) {
            // the driver has exited; nothing to stop
        }
        if (!process.waitFor(120, TimeUnit.SECONDS)) {
            process.destroy(); // SIGTERM: the driver still stops the fabric
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        }
    }
}
