package org.fairfabric.controller;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** The controller started as a separate JVM, as an operator would run it, so a test can kill -9 it. */
public final class ControllerProcess implements AutoCloseable {
    private static final String READY = "REST API on ";

    public final Process process;
    public final String baseUrl;
    public final List<String> output;

    private ControllerProcess(Process process, String baseUrl, List<String> output) {
        this.process = process;
        this.baseUrl = baseUrl;
        this.output = output;
    }

    public static String classPath() throws IOException {
        Path target = Path.of("target");
        return target.resolve("classes").toAbsolutePath() + java.io.File.pathSeparator
                + Files.readString(target.resolve("runtime-classpath.txt")).strip();
    }

    public static ProcessBuilder command(Map<String, String> env, String... args) throws IOException {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m", "-cp", classPath(), Main.class.getName()));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.environment().remove("FAIRFABRIC_KAFKA");
        pb.environment().remove("FF_API_TOKEN");
        pb.environment().putAll(env);
        return pb;
    }

    /** Starts the controller and waits (at most a minute) until it prints its REST address. */
    public static ControllerProcess start(Map<String, String> env, String... args) throws Exception {
        Process p = command(env, args).start();
        List<String> lines = java.util.Collections.synchronizedList(new ArrayList<>());
        CompletableFuture<String> url = new CompletableFuture<>();
        Thread reader = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = r.readLine()) != null) {
                    lines.add(line);
                    int i = line.indexOf(READY);
                    if (i >= 0) {
                        url.complete(line.substring(i + READY.length()).replace("/api/v1", "").strip());
                    }
                }
            } catch (IOException ignored) {
                // the process died; the future below reports it
            }
            url.completeExceptionally(new IllegalStateException("controller exited before it was ready: " + lines));
        }, "controller-output");
        reader.setDaemon(true);
        reader.start();
        try {
            return new ControllerProcess(p, url.get(180, TimeUnit.SECONDS), lines); // JVM start-up on a loaded machine
        } catch (Exception e) {
            p.destroyForcibly();
            throw e;
        }
    }

    /** SIGKILL: no shutdown hook, no flush, nothing the controller can do about it. */
    public void kill9() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(30, TimeUnit.SECONDS);
    }

    @Override
    public void close() throws InterruptedException {
        kill9();
    }
}
