package org.fairfabric.controller.p4rt;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** A real p4switch process (the project's P4Runtime software switch) with no data ports, for control-plane tests. */
final class P4SwitchProcess implements AutoCloseable {
    final Path binary;
    final int port;
    final long deviceId;
    private final Path log;
    private final List<String> extraArgs;
    private Process process;

    P4SwitchProcess(Path binary, long deviceId, Path log) throws IOException {
        this(binary, deviceId, log, List.of());
    }

    /** {@code extraArgs} go to {@code p4switch run} (for example --tls-cert and --tls-key). */
    P4SwitchProcess(Path binary, long deviceId, Path log, List<String> extraArgs) throws IOException {
        this.extraArgs = List.copyOf(extraArgs);
        this.binary = binary;
        this.deviceId = deviceId;
        this.log = log;
        try (ServerSocket s = new ServerSocket(0)) {
            this.port = s.getLocalPort();
        }
    }

    /** Runs a p4switch subcommand to completion and returns its standard output. */
    static String tool(Path binary, String... args) throws IOException, InterruptedException {
        List<String> cmd = new java.util.ArrayList<>(List.of(binary.toString()));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(120, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IllegalStateException("p4switch " + String.join(" ", args) + " failed");
        }
        return out;
    }

    void start() throws IOException, InterruptedException {
        List<String> cmd = new java.util.ArrayList<>(List.of(binary.toString(), "run", "--device-id", Long.toString(deviceId),
                "--grpc-addr", "127.0.0.1:" + port, "--admin-addr", "", "--log-level", "warn"));
        cmd.addAll(extraArgs);
        process = new ProcessBuilder(cmd)
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (true) {
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress("127.0.0.1", port), 200);
                return;
            } catch (IOException notYet) {
                if (!process.isAlive() || System.nanoTime() > deadline) {
                    throw new IllegalStateException("p4switch did not listen on " + port + ": " + Files.readString(log));
                }
                Thread.sleep(20);
            }
        }
    }

    /** SIGKILL, as when the switch crashes. */
    void kill9() throws InterruptedException {
        if (process != null) {
            process.destroyForcibly();
            process.waitFor(10, TimeUnit.SECONDS);
        }
    }

    @Override
    public void close() throws InterruptedException {
        kill9();
    }
}
