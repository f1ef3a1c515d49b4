import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeSet;
import com.google.protobuf.TextFormat;
import org.fairfabric.controller.core.CoreTopology;
import org.fairfabric.controller.netcfg.NetworkConfig;
import org.fairfabric.controller.netcfg.NetworkConfigParser;
import org.fairfabric.controller.p4rt.P4InfoIndex;
import org.fairfabric.controller.program.FabricPlan;
import org.fairfabric.core.model.Topology;
import org.fairfabric.core.routing.Metric;
import org.fairfabric.onos.platform.TopologySummary;
import p4.v1.P4RuntimeOuterClass.Entity;
import p4.v1.P4RuntimeOuterClass.ReadResponse;

/**
 * Writes what the embedded controller's forwarding and routing-group planning (FabricPlan) gives
 * every switch of a network configuration, one ReadResponse text file per switch, plus the core
 * model's summary: the golden files EmbeddedGoldenTest holds the ONOS app to. Run by
 * generate-embedded-golden.sh (needs apps/controller built).
 *
 * Arguments: P4INFO NETCFG OUTDIR
 */
public final class EmbeddedEntities {
    public static void main(String[] args) throws Exception {
        P4InfoIndex p4 = new P4InfoIndex(P4InfoIndex.parseText(Files.readString(Path.of(args[0]))));
        NetworkConfig cfg = new NetworkConfigParser().parse(Files.readString(Path.of(args[1])));
        Path out = Path.of(args[2]);
        Files.createDirectories(out);
        Topology topo = CoreTopology.build(cfg, List.of());
        Map<String, List<Entity>> plan = new FabricPlan(p4, 255, 10).entities(topo,
                d -> routerMac(cfg.devices.get(d).address.deviceId), d -> allInLevelZero(topo, d));
        for (Map.Entry<String, List<Entity>> e : plan.entrySet()) {
            String text = TextFormat.printToString(ReadResponse.newBuilder().addAllEntities(e.getValue()).build());
            Files.writeString(out.resolve(e.getKey().replace(':', '_') + ".txt"), text);
        }
        Files.writeString(out.resolve("topology.txt"), TopologySummary.of(topo));
    }

    static String routerMac(long id) {
        return String.format("02:aa:00:00:%02x:%02x", (id >> 8) & 0xff, id & 0xff);
    }

    /** Every uplink of a switch in level 0 of every metric (as FabricPlanTest). */
    static Map<Metric, List<SortedSet<Integer>>> allInLevelZero(Topology t, String device) {
        List<Integer> ups = new ArrayList<>();
        t.upwardLinks(device).forEach(l -> ups.add(l.src().port()));
        if (ups.isEmpty()) {
            return null;
        }
        Map<Metric, List<SortedSet<Integer>>> m = new EnumMap<>(Metric.class);
        for (Metric metric : Metric.values()) {
            m.put(metric, List.of(new TreeSet<>(ups), new TreeSet<>(), new TreeSet<>()));
        }
        return m;
    }
}
