package org.fairfabric.controller.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.fairfabric.api.service.EventLog;
import org.fairfabric.api.service.NetworkView;
import org.fairfabric.controller.Controller;
import org.fairfabric.controller.netcfg.FabricConfigs;
import org.fairfabric.controller.netcfg.NetworkConfig;
import org.fairfabric.controller.netcfg.NetworkConfigParser;
import org.fairfabric.controller.p4rt.DeviceAgent;
import org.fairfabric.controller.p4rt.DeviceFleet;
import org.fairfabric.controller.p4rt.P4InfoIndex;
import org.fairfabric.controller.p4rt.PacketIo;
import org.fairfabric.controller.p4rt.PipelineFiles;
import org.fairfabric.controller.p4rt.WriteResult;
import org.fairfabric.controller.program.FabricEventHandler;
import org.fairfabric.controller.program.FabricPlan;
import org.fairfabric.controller.component.ControlBus;
import org.fairfabric.controller.component.ControlEvent;
import org.fairfabric.controller.failure.FailureComponent;
import org.fairfabric.controller.forwarding.ForwardingComponent;
import org.fairfabric.controller.platform.EmbeddedTopology;
import org.fairfabric.controller.platform.P4RuntimePackets;
import org.fairfabric.controller.platform.SliceComposer;
import org.fairfabric.controller.routing.RoutingGroupsComponent;
import org.fairfabric.controller.program.LatencyRecorder;
import org.fairfabric.controller.program.P4teLoopStages;
import p4.v1.P4RuntimeOuterClass.Entity;
import p4.v1.P4RuntimeOuterClass.Update;

/**
 * The P4TE loop in one process against one p4switch, without Mininet, so that the figure is the
 * loop's and not the CPU left over by a fabric of software switches. The controller side is wired
 * as {@link Controller} wires it (device fleet → event handler → programmer → device agent) for
 * the 4×4 leaf-spine configuration, of which only leaf1 runs: a p4switch process with the fabric
 * pipeline, host h1 on port 1 and its four uplinks (ports 5-8) at 10 Mbit/s, on the interfaces
 * given. The other switches of the configuration are unreachable addresses (their writes are
 * deferred, as for any switch that is away). There are no echo probes (nothing would answer them).
 *
 * <p>Traffic, on the data plane only: h1 (the far end of port 1, in its own network namespace,
 * 10.0.1.1) sends bursts of 25 UDP datagrams of 1000 bytes to h13 (10.0.4.1) every 12 ms, from
 * one of four source ports in turn. Each burst fills the queue of the uplink the routing groups
 * send it to, whose egress raises queue-depth INCREASE events (Δ = 10 packets) and the next burst
 * on a drained queue a DECREASE (P4TE Algorithm 1); Algorithm 4 moves the port between routing
 * groups and the controller writes them.
 *
 * <p>Measured per event that caused routing-group writes, after a warm-up: from its packet-in
 * arriving on the controller's stream to the switch's answer to the Write carrying its group
 * changes, with the controller's stages ({@link P4teLoopStages}) and the switch's (from its log).
 * The baseline, measured in the same run: one-update Writes to the same switch through the same
 * agent, first under the same traffic, then with none.
 *
 * <pre>java -cp ... org.fairfabric.controller.bench.P4teLoopBench P4SWITCH_BINARY IF1,IF5,IF6,IF7,IF8 H1_NETNS [SAMPLES] [WARMUP_SECONDS]</pre>
 * (run from the repository root; the interfaces must exist and be up, the far end of IF1 in
 * network namespace H1_NETNS with address 10.0.1.1/8: tools/bench/p4te.sh --local sets this up).
 */
public final class P4teLoopBench {
    static final String LEAF = "device:leaf1";
    static final int HOST_PORT = 1;
    static final int FIRST_UPLINK = 5;
    static final int UPLINK_MBPS = 10;
    static final String DESTINATION = "10.0.4.1"; // h13, behind the spines
    static final String STAGE_MARK = "P4TE stage ";
    /** h1's traffic: bursts of 25 datagrams of 1000 bytes every 12 ms, four source ports in turn, until killed. */
    static final String BURSTS = String.join("\n",
            "import socket, sys, time",
            "socks = [socket.socket(socket.AF_INET, socket.SOCK_DGRAM) for _ in range(4)]",
            "payload = bytes(1000 - 28)",
            "n = 0",
            "while True:",
            "    s = socks[n % 4]",
            "    for _ in range(25):",
            "        try:",
            "            s.sendto(payload, (sys.argv[1], 5201))",
            "        except OSError:",
            "            pass",
            "    n += 1",
            "    time.sleep(0.012)",
            "");

    private P4teLoopBench() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 3 || args.length > 5) {
            System.err.println("usage: P4teLoopBench P4SWITCH_BINARY IF1,IF5,IF6,IF7,IF8 H1_NETNS [SAMPLES (default 400)] [WARMUP_SECONDS (default 3)]");
            System.exit(2);
        }
        Path bin = Path.of(args[0]);
        String[] interfaces = args[1].split(",");
        String hostNetns = args[2];
        int samples = args.length > 3 ? Integer.parseInt(args[3]) : 400;
        int warmupSeconds = args.length > 4 ? Integer.parseInt(args[4]) : 3;
        if (interfaces.length != 5 || samples < 1 || samples > 100_000 || warmupSeconds < 0 || warmupSeconds > 60) {
            System.err.println("need five interfaces (leaf1's port 1 and ports 5-8), 1-100000 samples, 0-60 s of warm-up");
            System.exit(2);
        }
        Path p4info = Path.of("pipeconfs/p4/p4info.txt");
        Path program = Path.of("pipeconfs/p4/fabric.p4");
        if (!Files.isRegularFile(p4info) || !Files.isRegularFile(program)) {
            System.err.println("run from the repository root (pipeconfs/p4/fabric.p4 and p4info.txt not found)");
            System.exit(2);
        }
        Path tmp = Files.createTempDirectory("ff-p4te-loop-bench");
        Path bundle = tmp.resolve("fabric.bundle");
        run(bin, "bundle", program.toString(), "-o", bundle.toString());
        PipelineFiles pipeline = PipelineFiles.read(p4info, bundle);
        int grpcPort = freePort();
        Path switchLog = tmp.resolve("p4switch-leaf1.log");
        List<String> cmd = new ArrayList<>(List.of(bin.toString(), "run", "--device-id", "1", "--grpc-addr", "127.0.0.1:" + grpcPort,
                "--admin-addr", "", "--cpu-port", Integer.toString(Controller.CPU_PORT), "--log-level", "info"));
        cmd.addAll(List.of("-i", HOST_PORT + "@" + interfaces[0]));
        for (int i = 1; i < interfaces.length; i++) {
            int port = FIRST_UPLINK + i - 1;
            cmd.addAll(List.of("-i", port + "@" + interfaces[i], "--port-rate", port + "=" + UPLINK_MBPS + "M"));
        }
        Process sw = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(switchLog.toFile()).start();
        DeviceFleet fleet = null;
        ControlBus bus = new ControlBus();
        Process h1 = null;
        try {
            waitListening(sw, grpcPort, switchLog);
            NetworkConfig cfg = new NetworkConfigParser().parse(onlyLeaf1Reachable(
                    FabricConfigs.leafSpine(4, 4, 4, "127.0.0.1", grpcPort, UPLINK_MBPS)));
            NetworkView network = new NetworkView(new EventLog(Clock.systemUTC(), Controller.EVENTS_KEPT));
            Controller.resetTopology(network, cfg);
            SliceComposer slices = new SliceComposer();
            EmbeddedTopology topology = new EmbeddedTopology(List::of);
            P4RuntimePackets packets = new P4RuntimePackets(new PacketIo(pipeline.p4info), slices::agents);
            FabricPlan plan = new FabricPlan(new P4InfoIndex(pipeline.p4info), Controller.CPU_PORT, Controller.QUEUE_DELTA);
            bus.register(new ForwardingComponent(plan, topology, slices, packets, ip -> java.util.Optional.empty()));
            RoutingGroupsComponent groups = bus.register(new RoutingGroupsComponent(plan, slices, network));
            bus.register(new FailureComponent(topology, network, bus));
            FabricEventHandler feedback = new FabricEventHandler(
                    (e, receivedNanos) -> bus.post(new ControlEvent.MetricReported(e, receivedNanos)),
                    (device, port, failed) -> bus.post(new ControlEvent.PortStateReported(device, port, failed)));
            packets.addListener(feedback::onPacket);
            CountDownLatch leafReady = new CountDownLatch(1);
            fleet = new DeviceFleet(cfg, DeviceAgent.electionIdNow(), pipeline, (device, up) -> {
                network.setDeviceAvailable(device, up);
                if (up && device.equals(LEAF)) {
                    leafReady.countDown();
                }
            }, packets::onPacketIn);
            slices.fleetReplaced(fleet);
            bus.post(new ControlEvent.TopologyChanged(topology.configurationApplied(cfg), true));
            bus.sync();
            fleet.start();
            if (!leafReady.await(60, TimeUnit.SECONDS)) {
                throw new IllegalStateException("leaf1 did not connect; switch log " + switchLog);
            }
            bus.sync();
            DeviceAgent leaf = fleet.agent(LEAF);
            leaf.intendedEntities().get(30, TimeUnit.SECONDS); // its queue has written everything handed so far

            P4teLoopStages stages = groups.loopStages();
            Path script = tmp.resolve("bursts.py");
            Files.writeString(script, BURSTS);
            h1 = new ProcessBuilder("ip", "netns", "exec", hostNetns, "/usr/bin/python3", script.toString(), DESTINATION)
                    .redirectErrorStream(true).redirectOutput(tmp.resolve("h1.log").toFile()).start();
            Thread.sleep(warmupSeconds * 1000L);
            if (!h1.isAlive()) {
                throw new IllegalStateException("h1's traffic stopped: " + Files.readString(tmp.resolve("h1.log")));
            }
            stages.clear();
            String loadBefore = loadAverage();
            long start = System.nanoTime();
            long deadline = start + TimeUnit.SECONDS.toNanos(120);
            while (stages.stage(P4teLoopStages.Stage.TOTAL).count() < samples && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            String loadAfter = loadAverage();
            String total = stages.stage(P4teLoopStages.Stage.TOTAL).summary();
            double p50 = stages.stage(P4teLoopStages.Stage.TOTAL).percentileMillis(50);
            double p99 = stages.stage(P4teLoopStages.Stage.TOTAL).percentileMillis(99);
            List<String> stageLines = stages.lines();
            int portKindTable = new P4InfoIndex(pipeline.p4info).tableId("ingress_port_kind");
            LatencyRecorder busy = bareWrites(leaf, portKindTable, samples);
            h1.destroy();
            h1.waitFor(5, TimeUnit.SECONDS);
            Thread.sleep(500); // writes in flight, queues drained
            LatencyRecorder idle = bareWrites(leaf, portKindTable, samples);

            System.out.printf(Locale.ROOT, "[bench] in-process P4TE loop: controller + one p4switch (leaf1, 4 uplinks at %d Mbit/s), no Mininet;"
                    + " %.1f s of UDP bursts from h1 after %d s of warm-up%n", UPLINK_MBPS, seconds, warmupSeconds);
            System.out.println("[bench] load average before/after: " + loadBefore + " / " + loadAfter);
            System.out.println("[bench] " + total + " (target p99 <= 5 ms)");
            System.out.printf(Locale.ROOT, "[bench] baseline, same run: one-update Write round trip, same traffic %s;"
                    + " loop/baseline p50 %.1fx p99 %.1fx%n", busy.summary(),
                    p50 / busy.percentileMillis(50), p99 / busy.percentileMillis(99));
            System.out.println("[bench] baseline, same run: one-update Write round trip, no traffic " + idle.summary());
            System.out.println("[bench] controller stages:");
            for (String line : stageLines) {
                System.out.println("[bench]   " + line);
            }
            fleet.close();
            fleet = null;
            bus.close();
            stop(sw);
            System.out.println("[bench] switch stages (all packet-ins and Writes of the run, warm-up included):");
            for (String line : switchStages(switchLog)) {
                System.out.println("[bench]   " + line);
            }
        } finally {
            if (h1 != null) {
                h1.destroyForcibly();
            }
            if (fleet != null) {
                fleet.close();
            }
            bus.close();
            sw.destroyForcibly();
        }
    }

    /**
     * The floor of the loop: {@code n} writes of one update (a MODIFY that leaves an entry of
     * {@code table}, which the loop never changes, as it is) through the same agent, from the
     * write sent to the switch's answer.
     */
    static LatencyRecorder bareWrites(DeviceAgent leaf, int table, int n) throws Exception {
        Entity entry = null;
        for (Entity e : leaf.intendedEntities().get(30, TimeUnit.SECONDS)) {
            if (e.hasTableEntry() && e.getTableEntry().getTableId() == table && !e.getTableEntry().getIsDefaultAction()) {
                entry = e;
                break;
            }
        }
        if (entry == null) {
            throw new IllegalStateException("leaf1 holds no entry of table " + table);
        }
        Update modify = Update.newBuilder().setType(Update.Type.MODIFY).setEntity(entry).build();
        LatencyRecorder out = new LatencyRecorder();
        for (int i = 0; i < n; i++) {
            WriteResult r = leaf.write(List.of(modify)).get(30, TimeUnit.SECONDS);
            if (!r.allOk() || r.deferred) {
                throw new IllegalStateException("bare write failed: " + r);
            }
            out.record(r.timing.answeredNanos - r.timing.sentNanos);
            Thread.sleep(2);
        }
        return out;
    }

    /**
     * The configuration with every switch but leaf1 at an address where nothing answers and with a
     * device id no switch of the fabric uses, so that no other switch on this machine is taken over.
     */
    static String onlyLeaf1Reachable(String json) throws IOException {
        ObjectMapper mapper = new ObjectMapper();
        JsonNode root = mapper.readTree(json);
        Iterator<Map.Entry<String, JsonNode>> devices = root.get("devices").fields();
        long id = 1000;
        while (devices.hasNext()) {
            Map.Entry<String, JsonNode> d = devices.next();
            if (!d.getKey().equals(LEAF)) {
                ((ObjectNode) d.getValue().get("basic")).put("managementAddress",
                        "grpc://127.0.0.1:" + freePort() + "?device_id=" + (++id));
            }
        }
        return mapper.writeValueAsString(root);
    }

    /** The switch's stage lines from its log (it writes them when it stops). */
    static List<String> switchStages(Path log) throws IOException {
        Map<String, String> out = new LinkedHashMap<>();
        for (String line : Files.readAllLines(log, StandardCharsets.UTF_8)) {
            int at = line.indexOf(STAGE_MARK);
            if (at >= 0) {
                String stage = line.substring(at + STAGE_MARK.length()).replaceAll("\"$", "");
                out.put(stage, stage);
            }
        }
        if (out.isEmpty()) {
            return List.of("(none in " + log + ")");
        }
        return new ArrayList<>(out.values());
    }

    static String loadAverage() {
        try {
            String[] f = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
            return f[0] + " " + f[1] + " " + f[2];
        } catch (IOException e) {
            return "?";
        }
    }

    static void stop(Process p) throws InterruptedException {
        p.destroy(); // SIGTERM: the switch logs its stages as it stops
        if (!p.waitFor(15, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            p.waitFor(5, TimeUnit.SECONDS);
        }
    }

    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    static void waitListening(Process sw, int port, Path log) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (true) {
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress("127.0.0.1", port), 200);
                return;
            } catch (IOException notYet) {
                if (!sw.isAlive() || System.nanoTime() > deadline) {
                    throw new IllegalStateException("p4switch did not listen on " + port + ": " + Files.readString(log));
                }
                Thread.sleep(20);
            }
        }
    }

    static String run(Path bin, String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(bin.toString()));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(120, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IllegalStateException("p4switch " + String.join(" ", args) + " failed: " + out);
        }
        return out;
    }
}
