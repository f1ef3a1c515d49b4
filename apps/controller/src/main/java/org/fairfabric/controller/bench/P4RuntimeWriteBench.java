package org.fairfabric.controller.bench;

import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.fairfabric.controller.p4rt.DeviceAgent;
import org.fairfabric.controller.p4rt.DeviceListener;
import org.fairfabric.controller.p4rt.P4Bytes;
import org.fairfabric.controller.p4rt.P4InfoIndex;
import org.fairfabric.controller.p4rt.WriteResult;
import p4.config.v1.P4InfoOuterClass.P4Info;
import p4.v1.P4RuntimeOuterClass.Action;
import p4.v1.P4RuntimeOuterClass.Entity;
import p4.v1.P4RuntimeOuterClass.FieldMatch;
import p4.v1.P4RuntimeOuterClass.TableAction;
import p4.v1.P4RuntimeOuterClass.TableEntry;
import p4.v1.P4RuntimeOuterClass.Update;

/**
 * Controller → switch P4Runtime writes per second, against a real p4switch running the l3router
 * program: N route inserts one update per Write call (the baseline), then, after emptying the
 * table, the same N inserts in one write that the agent splits into batches. Prints both rates.
 *
 * <pre>java -cp ... org.fairfabric.controller.bench.P4RuntimeWriteBench BIN/p4switch PROGRAM.p4 [N]</pre>
 */
public final class P4RuntimeWriteBench {
    private P4RuntimeWriteBench() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 2) {
            System.err.println("usage: P4RuntimeWriteBench P4SWITCH_BINARY PROGRAM.p4 [ENTRIES (1-4096, default 4000)]");
            System.exit(2);
        }
        Path bin = Path.of(args[0]);
        Path program = Path.of(args[1]);
        int n = args.length > 2 ? Integer.parseInt(args[2]) : 4000;
        if (n < 1 || n > 4096) {
            System.err.println("ENTRIES must be 1-4096 (the size of l3router's ipv4_lpm table)");
            System.exit(2);
        }
        Path tmp = Files.createTempDirectory("ff-p4rt-bench");
        P4Info p4info = P4InfoIndex.parseText(run(bin, "p4info", program.toString()));
        Path bundle = tmp.resolve("bundle");
        run(bin, "bundle", program.toString(), "-o", bundle.toString());
        P4InfoIndex ids = new P4InfoIndex(p4info);
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        Process sw = new ProcessBuilder(bin.toString(), "run", "--device-id", "1", "--grpc-addr", "127.0.0.1:" + port,
                "--admin-addr", "", "--log-level", "warn").redirectErrorStream(true)
                .redirectOutput(tmp.resolve("p4switch.log").toFile()).start();
        ManagedChannel ch = null;
        try {
            waitListening(port, sw);
            ch = NettyChannelBuilder.forAddress("127.0.0.1", port).usePlaintext().build();
            try (DeviceAgent agent = new DeviceAgent("bench", ch, 1, DeviceAgent.electionIdNow(), new DeviceListener() { }, DeviceAgent.DEFAULT_MAX_BATCH)) {
                agent.setPipeline(p4info, Files.readAllBytes(bundle));
                agent.start();
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                while (!agent.ready()) {
                    if (System.nanoTime() > deadline) {
                        throw new IllegalStateException("switch not ready; see " + tmp.resolve("p4switch.log"));
                    }
                    Thread.sleep(10);
                }
                System.out.printf("p4rt-writes: %d route inserts into RouterIngress.ipv4_lpm of p4switch (l3router)%n", n);
                double single = measure("baseline: one update per Write", n, () -> {
                    for (int i = 0; i < n; i++) {
                        check(agent.write(List.of(update(Update.Type.INSERT, route(ids, i)))).get());
                    }
                });
                List<Update> dels = new ArrayList<>();
                for (int i = 0; i < n; i++) {
                    dels.add(update(Update.Type.DELETE, route(ids, i)));
                }
                check(agent.write(dels).get()); // untimed: back to an empty table
                double batched = measure("batched (" + DeviceAgent.DEFAULT_MAX_BATCH + " per Write)", n, () -> {
                    List<Update> ins = new ArrayList<>();
                    for (int i = 0; i < n; i++) {
                        ins.add(update(Update.Type.INSERT, route(ids, i)));
                    }
                    check(agent.write(ins).get());
                });
                System.out.printf("p4rt-writes: batched / baseline = %.1fx%n", batched / single);
            }
        } finally {
            if (ch != null) {
                ch.shutdownNow();
            }
            sw.destroyForcibly();
            sw.waitFor(10, TimeUnit.SECONDS);
        }
    }

    private interface Work {
        void run() throws Exception;
    }

    /** Runs {@code work} (n inserts) and prints updates per second. */
    private static double measure(String label, int n, Work work) throws Exception {
        long t0 = System.nanoTime();
        work.run();
        double seconds = (System.nanoTime() - t0) / 1e9;
        double rate = n / seconds;
        System.out.printf("p4rt-writes: %-34s %10.0f updates/s (%d updates in %.2f s)%n", label, rate, n, seconds);
        return rate;
    }

    private static void check(WriteResult r) {
        if (!r.allOk() || r.deferred) {
            throw new IllegalStateException("write failed: " + r.results.stream().filter(u -> !u.ok()).findFirst().orElse(null));
        }
    }

    private static Update update(Update.Type type, Entity e) {
        return Update.newBuilder().setType(type).setEntity(e).build();
    }

    private static Entity route(P4InfoIndex ids, int i) {
        String t = "RouterIngress.ipv4_lpm";
        String a = "RouterIngress.ipv4_forward";
        long prefix = (10L << 24) | ((long) i << 8);
        return Entity.newBuilder().setTableEntry(TableEntry.newBuilder().setTableId(ids.tableId(t))
                .addMatch(FieldMatch.newBuilder().setFieldId(ids.matchFieldId(t, "hdr.ipv4.dstAddr"))
                        .setLpm(FieldMatch.LPM.newBuilder().setValue(P4Bytes.of(prefix)).setPrefixLen(24)))
                .setAction(TableAction.newBuilder().setAction(Action.newBuilder().setActionId(ids.actionId(a))
                        .addParams(Action.Param.newBuilder().setParamId(ids.paramId(a, "dstAddr")).setValue(P4Bytes.of(0x0a0000000000L + i)))
                        .addParams(Action.Param.newBuilder().setParamId(ids.paramId(a, "port")).setValue(P4Bytes.of(1 + i % 16)))))).build();
    }

    private static String run(Path bin, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(bin.toString()));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (p.waitFor() != 0) {
            throw new IllegalStateException("p4switch " + String.join(" ", args) + " failed");
        }
        return out;
    }

    private static void waitListening(int port, Process sw) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (true) {
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress("127.0.0.1", port), 200);
                return;
            } catch (java.io.IOException e) {
                if (!sw.isAlive() || System.nanoTime() > deadline) {
                    throw new IllegalStateException("p4switch did not start", e);
                }
                Thread.sleep(20);
            }
        }
    }
}
