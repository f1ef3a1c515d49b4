package org.fairfabric.onos.platform;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.protobuf.ByteString;
import com.google.protobuf.TextFormat;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.fairfabric.onos.fabric.TestFabric;
import org.junit.jupiter.api.Test;
import org.onosproject.core.ApplicationId;
import org.onosproject.core.CoreServiceAdapter;
import org.onosproject.core.DefaultApplicationId;
import org.onosproject.net.DeviceId;
import org.onosproject.net.flow.FlowRule;
import org.onosproject.net.flow.TrafficTreatment;
import org.onosproject.net.flow.criteria.Criterion;
import org.onosproject.net.flow.criteria.PiCriterion;
import org.onosproject.net.flow.instructions.PiInstruction;
import org.onosproject.net.group.Group;
import org.onosproject.net.group.GroupBucket;
import org.onosproject.net.group.GroupDescription;
import org.onosproject.net.pi.runtime.PiAction;
import org.onosproject.net.pi.runtime.PiActionParam;
import org.onosproject.net.pi.runtime.PiActionProfileGroupId;
import org.onosproject.net.pi.runtime.PiExactFieldMatch;
import org.onosproject.net.pi.runtime.PiFieldMatch;
import org.onosproject.net.pi.runtime.PiGroupKey;
import org.onosproject.net.pi.runtime.PiLpmFieldMatch;
import org.onosproject.net.pi.runtime.PiTableAction;
import org.onosproject.net.pi.runtime.PiTernaryFieldMatch;
import p4.v1.P4RuntimeOuterClass.Action;
import p4.v1.P4RuntimeOuterClass.ActionProfileGroup;
import p4.v1.P4RuntimeOuterClass.ActionProfileMember;
import p4.v1.P4RuntimeOuterClass.Entity;
import p4.v1.P4RuntimeOuterClass.FieldMatch;
import p4.v1.P4RuntimeOuterClass.ReadResponse;
import p4.v1.P4RuntimeOuterClass.TableEntry;

/**
 * The ONOS app against the embedded controller for the same fabric (docs/examples/netcfg-leafspine-4x4.json,
 * as ONOS's netcfg providers present it): the core model {@link OnosFabricTopology} builds equals
 * the embedded one, and every entity the embedded FabricPlan writes (golden files from
 * tools/generate-embedded-golden.sh) lands in ONOS as a PI flow rule or group that says the same
 * thing — same table, match fields, values, priority, action and parameters, same groups with the
 * same member actions and weights, the clone session.
 */
class EmbeddedGoldenTest {
    static final Path NETCFG = Path.of("../../docs/examples/netcfg-leafspine-4x4.json");
    static final Path GOLDEN = Path.of("src/test/resources/golden/leafspine-4x4");

    final P4InfoNames names = P4InfoNames.ofPipeconf();
    final TestFabric.Devices devices = new TestFabric.Devices();
    final TestFabric.Links links = new TestFabric.Links();
    final TestFabric.Netcfg netcfg = new TestFabric.Netcfg();
    final TestHosts hosts = new TestHosts();

    /** What ONOS's device, link and host providers make of the example netcfg. */
    void loadNetcfg() throws Exception {
        JsonNode cfg = new ObjectMapper().readTree(NETCFG.toFile());
        Map<String, Integer> maxPort = new HashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = cfg.get("links").fields(); it.hasNext(); ) {
            String[] ends = it.next().getKey().split("-device:");
            for (String end : new String[] {ends[0], "device:" + ends[1]}) {
                String[] dp = end.split("/");
                maxPort.merge(dp[0], Integer.parseInt(dp[1]), Math::max);
            }
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = cfg.get("devices").fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> d = it.next();
            devices.add(d.getKey(), maxPort.getOrDefault(d.getKey(), 8), d.getValue().get("basic").get("managementAddress").asText());
            netcfg.role(d.getKey(), d.getValue().get("fairfabric").toString());
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = cfg.get("links").fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> l = it.next();
            String[] ends = l.getKey().split("-device:");
            String[] a = ends[0].split("/");
            String[] b = ("device:" + ends[1]).split("/");
            links.cable(a[0], Integer.parseInt(a[1]), b[0], Integer.parseInt(b[1]), l.getValue().get("basic").get("bandwidth").asLong());
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = cfg.get("hosts").fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> h = it.next();
            JsonNode basic = h.getValue().get("basic");
            String[] at = basic.get("locations").get(0).asText().split("/");
            hosts.add(basic.get("name").asText(), h.getKey().split("/")[0], basic.get("ips").get(0).asText(), at[0],
                    Integer.parseInt(at[1]));
        }
    }

    @Test
    void theOnosModelOfTheFabricIsTheEmbeddedOne() throws Exception {
        loadNetcfg();
        OnosFabricTopology topology = new OnosFabricTopology(devices, links, hosts, netcfg, List::of);
        assertEquals(Files.readString(GOLDEN.resolve("topology.txt")), TopologySummary.of(topology.refresh()));
    }

    @Test
    void everyEmbeddedEntityBecomesAnOnosEntityThatSaysTheSame() throws Exception {
        loadNetcfg();
        OnosFabricTopology topology = new OnosFabricTopology(devices, links, hosts, netcfg, List::of);
        RecordingFlowRules flows = new RecordingFlowRules();
        RecordingGroups groups = new RecordingGroups();
        OnosDeviceProgramming programming = new OnosDeviceProgramming(new CoreServiceAdapter() {
            @Override
            public ApplicationId registerApplication(String name) {
                return new DefaultApplicationId(9, name);
            }
        }, devices, flows, groups, new EntityTranslator(names));
        int switches = 0;
        for (String device : topology.refresh().devices().keySet()) {
            List<Entity> embedded = golden(device);
            SliceWrite w = programming.setSlice("forwarding", device, embedded).toCompletableFuture().get();
            ApplicationId app = programming.sliceApp("forwarding");
            DeviceId d = DeviceId.deviceId(device);

            List<String> want = new ArrayList<>();
            List<String> wantGroups = new ArrayList<>();
            Map<String, String> members = new HashMap<>();
            for (Entity e : embedded) {
                if (e.hasActionProfileMember()) {
                    ActionProfileMember m = e.getActionProfileMember();
                    members.put(m.getActionProfileId() + "/" + m.getMemberId(), action(m.getAction()));
                }
            }
            java.util.Set<String> unused = new java.util.HashSet<>(members.keySet());
            for (Entity e : embedded) {
                if (e.hasTableEntry()) {
                    want.add(entry(e.getTableEntry()));
                    if (names.table(e.getTableEntry().getTableId()).name.endsWith("my_station.my_station")) {
                        assertEquals(topology.routerMac(device).replace(":", ""),
                                String.format("%012x", number(e.getTableEntry().getMatch(0).getExact().getValue())),
                                device + ": the router MAC the ONOS app derives is the embedded one");
                    }
                } else if (e.hasActionProfileMember()) {
                    continue;
                } else if (e.hasActionProfileGroup()) {
                    wantGroups.add(group(e.getActionProfileGroup(), members));
                    for (ActionProfileGroup.Member m : e.getActionProfileGroup().getMembersList()) {
                        unused.remove(e.getActionProfileGroup().getActionProfileId() + "/" + m.getMemberId());
                    }
                } else if (e.hasPacketReplicationEngineEntry()) {
                    wantGroups.add("clone " + e.getPacketReplicationEngineEntry().getCloneSessionEntry().getSessionId() + " -> "
                            + e.getPacketReplicationEngineEntry().getCloneSessionEntry().getReplicas(0).getEgressPort());
                } else {
                    throw new AssertionError(device + ": unexpected entity " + e);
                }
            }
            assertEquals(java.util.Set.of(), unused, device + ": members no group uses would be lost under ONOS");
            List<String> got = new ArrayList<>();
            for (FlowRule r : flows.rules(d, app)) {
                got.add(rule(r));
            }
            List<String> gotGroups = new ArrayList<>();
            for (Group g : groups.getGroups(d, app)) {
                gotGroups.add(group(g));
            }
            Collections.sort(want);
            Collections.sort(got);
            Collections.sort(wantGroups);
            Collections.sort(gotGroups);
            assertEquals(want, got, device);
            assertEquals(wantGroups, gotGroups, device);
            assertEquals(want.size(), w.rulesAdded);
            assertTrue(want.size() > 10, device + " has its forwarding entries");
            switches++;
        }
        assertEquals(8, switches);
    }

    List<Entity> golden(String device) throws Exception {
        ReadResponse.Builder b = ReadResponse.newBuilder();
        TextFormat.merge(Files.readString(GOLDEN.resolve(device.replace(':', '_') + ".txt")), b);
        return b.getEntitiesList();
    }

    static BigInteger number(ByteString b) {
        return new BigInteger(1, b.toByteArray());
    }

    static BigInteger number(org.onlab.util.ImmutableByteSequence b) {
        return new BigInteger(1, b.asArray());
    }

    // ---- the embedded entity and the ONOS entity, each told in the same words ----

    String entry(TableEntry t) {
        P4InfoNames.Named table = names.table(t.getTableId());
        List<String> match = new ArrayList<>();
        for (FieldMatch m : t.getMatchList()) {
            String f = table.field(m.getFieldId()).name;
            switch (m.getFieldMatchTypeCase()) {
                case EXACT:
                    match.add(f + "=" + number(m.getExact().getValue()));
                    break;
                case LPM:
                    match.add(f + "=" + number(m.getLpm().getValue()) + "/" + m.getLpm().getPrefixLen());
                    break;
                case TERNARY:
                    match.add(f + "=" + number(m.getTernary().getValue()) + "&&&" + number(m.getTernary().getMask()));
                    break;
                default:
                    throw new AssertionError("match " + m);
            }
        }
        Collections.sort(match);
        String action = t.getAction().hasAction() ? action(t.getAction().getAction())
                : "group " + t.getAction().getActionProfileGroupId();
        return table.name + " " + match + " prio " + t.getPriority() + " -> " + action;
    }

    String action(Action a) {
        P4InfoNames.Named named = names.action(a.getActionId());
        List<String> params = new ArrayList<>();
        for (Action.Param p : a.getParamsList()) {
            params.add(named.field(p.getParamId()).name + "=" + number(p.getValue()));
        }
        Collections.sort(params);
        return named.name + params;
    }

    String group(ActionProfileGroup g, Map<String, String> members) {
        List<String> buckets = new ArrayList<>();
        for (ActionProfileGroup.Member m : g.getMembersList()) {
            buckets.add(members.get(g.getActionProfileId() + "/" + m.getMemberId()) + " x" + m.getWeight());
        }
        Collections.sort(buckets);
        P4InfoNames.Profile profile = names.actionProfile(g.getActionProfileId());
        return "select " + names.table(profile.tableId).name + " " + profile.name + " " + g.getGroupId() + " " + buckets;
    }

    static String rule(FlowRule r) {
        PiCriterion c = (PiCriterion) r.selector().getCriterion(Criterion.Type.PROTOCOL_INDEPENDENT);
        List<String> match = new ArrayList<>();
        for (PiFieldMatch m : c.fieldMatches()) {
            String f = m.fieldId().id();
            if (m instanceof PiExactFieldMatch) {
                match.add(f + "=" + number(((PiExactFieldMatch) m).value()));
            } else if (m instanceof PiLpmFieldMatch) {
                match.add(f + "=" + number(((PiLpmFieldMatch) m).value()) + "/" + ((PiLpmFieldMatch) m).prefixLength());
            } else if (m instanceof PiTernaryFieldMatch) {
                match.add(f + "=" + number(((PiTernaryFieldMatch) m).value()) + "&&&" + number(((PiTernaryFieldMatch) m).mask()));
            } else {
                throw new AssertionError("match " + m);
            }
        }
        Collections.sort(match);
        PiTableAction a = tableAction(r.treatment());
        String action = a instanceof PiActionProfileGroupId ? "group " + ((PiActionProfileGroupId) a).id() : action((PiAction) a);
        return r.table() + " " + match + " prio " + r.priority() + " -> " + action;
    }

    static PiTableAction tableAction(TrafficTreatment t) {
        assertEquals(1, t.allInstructions().size(), t.toString());
        return ((PiInstruction) t.allInstructions().get(0)).action();
    }

    static String action(PiAction a) {
        List<String> params = new ArrayList<>();
        for (PiActionParam p : a.parameters()) {
            params.add(p.id().id() + "=" + number(p.value()));
        }
        Collections.sort(params);
        return a.id().id() + params;
    }

    static String group(Group g) {
        if (g.type() == GroupDescription.Type.CLONE) {
            return "clone " + g.givenGroupId() + " -> " + g.buckets().buckets().get(0).treatment().allInstructions().get(0)
                    .toString().replaceAll("\\D", "");
        }
        PiGroupKey key = (PiGroupKey) g.appCookie();
        List<String> buckets = new ArrayList<>();
        for (GroupBucket b : g.buckets().buckets()) {
            buckets.add(action((PiAction) tableAction(b.treatment())) + " x" + b.weight());
        }
        Collections.sort(buckets);
        return "select " + key.tableId().id() + " " + key.actionProfileId().id() + " " + key.groupId() + " " + buckets;
    }
}
