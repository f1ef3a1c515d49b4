package org.fairfabric.onos.platform;

import static org.fairfabric.onos.platform.P4Entities.EG;
import static org.fairfabric.onos.platform.P4Entities.IN;
import static org.fairfabric.onos.platform.P4Entities.bytes;
import static org.fairfabric.onos.platform.P4Entities.ipv4;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import org.fairfabric.onos.fabric.TestFabric;
import org.junit.jupiter.api.Test;
import org.onlab.util.ImmutableByteSequence;
import org.onosproject.core.ApplicationId;
import org.onosproject.core.CoreServiceAdapter;
import org.onosproject.core.DefaultApplicationId;
import org.onosproject.net.DeviceId;
import org.onosproject.net.PortNumber;
import org.onosproject.net.flow.DefaultFlowRule;
import org.onosproject.net.flow.DefaultTrafficSelector;
import org.onosproject.net.flow.DefaultTrafficTreatment;
import org.onosproject.net.flow.FlowRule;
import org.onosproject.net.flow.criteria.PiCriterion;
import org.onosproject.net.group.DefaultGroupBucket;
import org.onosproject.net.group.Group;
import org.onosproject.net.group.GroupBuckets;
import org.onosproject.net.group.GroupDescription;
import org.onosproject.net.pi.model.PiActionId;
import org.onosproject.net.pi.model.PiActionParamId;
import org.onosproject.net.pi.model.PiActionProfileId;
import org.onosproject.net.pi.model.PiMatchFieldId;
import org.onosproject.net.pi.model.PiTableId;
import org.onosproject.net.pi.runtime.PiAction;
import org.onosproject.net.pi.runtime.PiActionParam;
import org.onosproject.net.pi.runtime.PiActionProfileGroupId;
import org.onosproject.net.pi.runtime.PiGroupKey;
import org.onosproject.net.pi.runtime.PiTableAction;
import p4.v1.P4RuntimeOuterClass.Entity;

/** The PI flow rules and groups a slice becomes in ONOS, and how replacing it updates ONOS's stores. */
class OnosDeviceProgrammingTest {
    static final String LEAF1 = "device:leaf1";
    static final DeviceId D = DeviceId.deviceId(LEAF1);
    static final String PORT_KIND = IN + "port_kind.ingress_port_kind";
    static final String ROUTING_DOWN = IN + "downward_routing.routing_down";
    static final String MY_STATION = IN + "my_station.my_station";
    static final String UP_UTIL = IN + "upward_routing.up_util";
    static final String UP_UTIL_SELECTOR = IN + "upward_routing.up_util_selector";
    static final String SET_UTIL_PORT = IN + "upward_routing.set_low_util_port";

    final P4Entities p4 = new P4Entities();
    final TestFabric fabric = new TestFabric();
    final RecordingFlowRules flows = new RecordingFlowRules();
    final RecordingGroups groups = new RecordingGroups();
    final List<String> registered = new ArrayList<>();
    final OnosDeviceProgramming programming = new OnosDeviceProgramming(new CoreServiceAdapter() {
        @Override
        public ApplicationId registerApplication(String name) {
            registered.add(name);
            return new DefaultApplicationId(100 + registered.size(), name);
        }
    }, fabric.devices, flows, groups, new EntityTranslator(P4InfoNames.ofPipeconf()));

    /** A leaf's forwarding slice as the embedded controller writes it (controller/program/FabricEntities). */
    List<Entity> leafSlice(int upPort1, int upPort2) {
        return List.of(
                p4.cloneSession(511, 255),
                p4.entry(PORT_KIND, List.of(p4.exact(PORT_KIND, "standard_metadata.ingress_port", bytes(1))), 0,
                        p4.action(IN + "port_kind.set_ingress_port_kind", "kind", bytes(1))),
                p4.entry(MY_STATION, List.of(p4.exact(MY_STATION, "hdr.ethernet.dst_addr", bytes(0x02aa00000001L))), 0,
                        p4.action("NoAction")),
                p4.entry(ROUTING_DOWN, List.of(p4.lpm(ROUTING_DOWN, "hdr.ipv4.dst_addr", ipv4(10, 0, 1, 0), 24)), 0,
                        p4.action(IN + "downward_routing.route_down", "port", bytes(2))),
                p4.member(UP_UTIL_SELECTOR, upPort1, p4.action(SET_UTIL_PORT, "port", bytes(upPort1))),
                p4.member(UP_UTIL_SELECTOR, upPort2, p4.action(SET_UTIL_PORT, "port", bytes(upPort2))),
                p4.group(UP_UTIL_SELECTOR, 1, upPort1, upPort2),
                p4.groupEntry(UP_UTIL, List.of(p4.ternary(UP_UTIL, "hdr.ipv4.dst_addr", ipv4(10, 0, 0, 0), ipv4(255, 0, 0, 0))),
                        10, 1));
    }

    static ImmutableByteSequence fit(long v, int bits) throws Exception {
        return ImmutableByteSequence.copyFrom(v).fit(bits);
    }

    static FlowRule rule(ApplicationId app, String table, PiCriterion match, int priority, PiTableAction action) {
        return DefaultFlowRule.builder().forDevice(D).forTable(PiTableId.of(table))
                .withSelector(DefaultTrafficSelector.builder().matchPi(match).build())
                .withTreatment(DefaultTrafficTreatment.builder().piTableAction(action).build())
                .withPriority(priority).fromApp(app).makePermanent().build();
    }

    static PiAction utilPort(int port) throws Exception {
        return PiAction.builder().withId(PiActionId.of(SET_UTIL_PORT))
                .withParameter(new PiActionParam(PiActionParamId.of("port"), fit(port, 9))).build();
    }

    static void assertSameRules(List<FlowRule> expected, List<FlowRule> actual) {
        assertEquals(expected.size(), actual.size(), "rules: " + actual);
        for (FlowRule e : expected) {
            assertTrue(actual.stream().anyMatch(a -> a.exactMatch(e) && a.isPermanent() && a.appId() == e.appId()),
                    "missing " + e + " in " + actual);
        }
    }

    @Test
    void aSliceBecomesPiFlowRulesAndGroupsWithTheEmbeddedEntitiesValues() throws Exception {
        SliceWrite w = programming.setSlice("forwarding", LEAF1, leafSlice(3, 4)).toCompletableFuture().get();
        ApplicationId app = programming.sliceApp("forwarding");
        assertEquals(List.of("org.fairfabric.slice.forwarding"), registered);
        assertEquals("forwarding@device:leaf1: rules +4 ~0 -0, groups +2 ~0 -0", w.toString());

        assertSameRules(List.of(
                rule(app, PORT_KIND, PiCriterion.builder()
                        .matchExact(PiMatchFieldId.of("standard_metadata.ingress_port"), fit(1, 9).asArray()).build(), 0,
                        PiAction.builder().withId(PiActionId.of(IN + "port_kind.set_ingress_port_kind"))
                                .withParameter(new PiActionParam(PiActionParamId.of("kind"), fit(1, 2))).build()),
                rule(app, MY_STATION, PiCriterion.builder()
                        .matchExact(PiMatchFieldId.of("hdr.ethernet.dst_addr"), fit(0x02aa00000001L, 48).asArray()).build(), 0,
                        PiAction.builder().withId(PiActionId.of("NoAction")).build()),
                rule(app, ROUTING_DOWN, PiCriterion.builder()
                        .matchLpm(PiMatchFieldId.of("hdr.ipv4.dst_addr"), fit(0x0a000100L, 32).asArray(), 24).build(), 0,
                        PiAction.builder().withId(PiActionId.of(IN + "downward_routing.route_down"))
                                .withParameter(new PiActionParam(PiActionParamId.of("port"), fit(2, 9))).build()),
                rule(app, UP_UTIL, PiCriterion.builder()
                        .matchTernary(PiMatchFieldId.of("hdr.ipv4.dst_addr"), fit(0x0a000000L, 32).asArray(),
                                fit(0xff000000L, 32).asArray()).build(), 10,
                        PiActionProfileGroupId.of(1))),
                flows.rules(D, app));

        Group select = groups.getGroup(D, new PiGroupKey(PiTableId.of(UP_UTIL), PiActionProfileId.of(UP_UTIL_SELECTOR), 1));
        assertEquals(GroupDescription.Type.SELECT, select.type());
        assertEquals(Integer.valueOf(1), select.givenGroupId());
        assertEquals(new GroupBuckets(List.of(
                DefaultGroupBucket.createSelectGroupBucket(DefaultTrafficTreatment.builder().piTableAction(utilPort(3)).build(), (short) 1),
                DefaultGroupBucket.createSelectGroupBucket(DefaultTrafficTreatment.builder().piTableAction(utilPort(4)).build(), (short) 1))),
                select.buckets());
        Group clone = groups.getGroup(D, EntityTranslator.cloneSessionKey(511));
        assertEquals(GroupDescription.Type.CLONE, clone.type());
        assertEquals(Integer.valueOf(511), clone.givenGroupId());
        assertEquals(new GroupBuckets(List.of(DefaultGroupBucket.createCloneGroupBucket(
                DefaultTrafficTreatment.builder().setOutput(PortNumber.portNumber(255)).build()))), clone.buckets());
        assertEquals(List.of("add 511", "add 1"), groups.calls, "groups before the rules that point at them");
    }

    @Test
    void theSameSliceAgainWritesNothing() throws Exception {
        programming.setSlice("forwarding", LEAF1, leafSlice(3, 4)).toCompletableFuture().get();
        int batches = flows.batches.size();
        SliceWrite w = programming.setSlice("forwarding", LEAF1, leafSlice(3, 4)).toCompletableFuture().get();
        assertTrue(w.unchanged(), w.toString());
        assertEquals(batches, flows.batches.size());
        assertEquals(List.of("add 511", "add 1"), groups.calls);
    }

    @Test
    void replacingASliceModifiesChangedEntriesAndRemovesStaleOnesGroupsLast() throws Exception {
        programming.setSlice("forwarding", LEAF1, leafSlice(3, 4)).toCompletableFuture().get();
        ApplicationId app = programming.sliceApp("forwarding");
        List<Entity> next = new ArrayList<>(leafSlice(3, 4).subList(0, 3)); // no route, no routing group
        next.add(p4.entry(ROUTING_DOWN, List.of(p4.lpm(ROUTING_DOWN, "hdr.ipv4.dst_addr", ipv4(10, 0, 2, 0), 24)), 0,
                p4.action(IN + "downward_routing.route_down", "port", bytes(1))));
        next.set(1, p4.entry(PORT_KIND, List.of(p4.exact(PORT_KIND, "standard_metadata.ingress_port", bytes(1))), 0,
                p4.action(IN + "port_kind.set_ingress_port_kind", "kind", bytes(2))));

        SliceWrite w = programming.setSlice("forwarding", LEAF1, next).toCompletableFuture().get();

        assertEquals("forwarding@device:leaf1: rules +1 ~1 -2, groups +0 ~0 -1", w.toString());
        assertEquals(3, flows.rules(D, app).size());
        assertTrue(flows.rules(D, app).stream().noneMatch(r -> r.table().equals(PiTableId.of(UP_UTIL))));
        assertEquals(List.of("add 511", "add 1", "remove 1"), groups.calls);
    }

    @Test
    void changedGroupMembersReplaceTheBuckets() throws Exception {
        programming.setSlice("routing-groups", LEAF1, leafSlice(3, 4)).toCompletableFuture().get();
        SliceWrite w = programming.setSlice("routing-groups", LEAF1, leafSlice(3, 2)).toCompletableFuture().get();
        assertEquals("routing-groups@device:leaf1: rules +0 ~0 -0, groups +0 ~1 -0", w.toString());
        Group select = groups.getGroup(D, new PiGroupKey(PiTableId.of(UP_UTIL), PiActionProfileId.of(UP_UTIL_SELECTOR), 1));
        assertEquals(new GroupBuckets(List.of(
                DefaultGroupBucket.createSelectGroupBucket(DefaultTrafficTreatment.builder().piTableAction(utilPort(3)).build(), (short) 1),
                DefaultGroupBucket.createSelectGroupBucket(DefaultTrafficTreatment.builder().piTableAction(utilPort(2)).build(), (short) 1))),
                select.buckets());
    }

    @Test
    void slicesOwnTheirEntriesSeparately() throws Exception {
        programming.setSlice("forwarding", LEAF1, leafSlice(3, 4)).toCompletableFuture().get();
        programming.setSlice("aq", LEAF1, List.of()).toCompletableFuture().get();
        assertEquals(4, flows.rules(D, programming.sliceApp("forwarding")).size());
        programming.setSlice("forwarding", LEAF1, List.of()).toCompletableFuture().get();
        assertEquals(0, flows.entries.size());
        assertEquals(0, groups.groups.size());
    }

    @Test
    void entriesAFormerLeaderLeftInOnosAreRemoved() throws Exception {
        ApplicationId app = programming.sliceApp("forwarding");
        FlowRule leftover = rule(app, ROUTING_DOWN, PiCriterion.builder()
                .matchLpm(PiMatchFieldId.of("hdr.ipv4.dst_addr"), fit(0x0a000900L, 32).asArray(), 24).build(), 0,
                PiAction.builder().withId(PiActionId.of(IN + "downward_routing.route_down"))
                        .withParameter(new PiActionParam(PiActionParamId.of("port"), fit(4, 9))).build());
        flows.applyFlowRules(leftover);
        SliceWrite w = programming.setSlice("forwarding", LEAF1, leafSlice(3, 4)).toCompletableFuture().get();
        assertEquals(1, w.rulesRemoved);
        assertTrue(flows.rules(D, app).stream().noneMatch(r -> r.exactMatch(leftover)));
    }

    /**
     * ONOS applies batches later, on its own threads. Three replacements of one slice in a burst
     * (a new leader hearing devices, links and hosts arrive) end with exactly the last one's
     * entries: each replacement reads the store only after the previous one was applied.
     */
    @Test
    void replacementsInABurstWhileONOSStillAppliesLeaveOnlyTheLastOnesEntries() throws Exception {
        ApplicationId app = programming.sliceApp("forwarding");
        flows.deferred = true;
        var first = programming.setSlice("forwarding", LEAF1, List.of(route(1, 1))).toCompletableFuture();
        var second = programming.setSlice("forwarding", LEAF1, List.of(route(2, 2))).toCompletableFuture();
        var third = programming.setSlice("forwarding", LEAF1, List.of(route(3, 3), route(2, 2))).toCompletableFuture();
        var other = programming.setSlice("forwarding", "device:leaf2", List.of(route(9, 1))).toCompletableFuture();
        assertEquals(2, flows.batches.size(), "one batch per switch in flight; the others wait for theirs");
        int rounds = 0;
        while (flows.applyHeld() > 0) {
            rounds++;
        }
        assertEquals(3, rounds);
        assertEquals("forwarding@device:leaf1: rules +1 ~0 -0, groups +0 ~0 -0", first.get().toString());
        assertEquals("forwarding@device:leaf1: rules +1 ~0 -1, groups +0 ~0 -0", second.get().toString());
        assertEquals("forwarding@device:leaf1: rules +1 ~0 -0, groups +0 ~0 -0", third.get().toString());
        assertTrue(other.get().toString().startsWith("forwarding@device:leaf2: rules +1"), other.get().toString());
        List<FlowRule> now = flows.rules(D, app);
        List<FlowRule> want = new EntityTranslator(P4InfoNames.ofPipeconf()).translate(D, app, List.of(route(3, 3), route(2, 2))).rules();
        assertEquals(2, now.size(), now.toString());
        for (FlowRule r : want) {
            assertTrue(now.stream().anyMatch(n -> n.exactMatch(r)), "lacks " + r);
        }
    }

    /** A batch ONOS never completes holds the next replacement of its slice only for a while. */
    @Test
    void aBatchOnosNeverCompletesHoldsTheNextReplacementOnlyUntilTheWaitIsOver() throws Exception {
        programming.previousWaitMs = 200;
        flows.deferred = true;
        programming.setSlice("forwarding", LEAF1, List.of(route(1, 1)));
        var next = programming.setSlice("forwarding", LEAF1, List.of(route(2, 2))).toCompletableFuture();
        assertEquals(1, flows.batches.size(), "the second waits");
        for (int i = 0; i < 250 && flows.batches.size() < 2; i++) {
            Thread.sleep(20);
        }
        assertEquals(2, flows.batches.size(), "the second went ahead without the first's completion");
        flows.deferred = false;
        flows.applyHeld();
        assertEquals(1, next.get(10, java.util.concurrent.TimeUnit.SECONDS).rulesAdded);
    }

    /** The route to 10.0.{@code subnet}.0/24 out of {@code port}. */
    Entity route(int subnet, int port) {
        return p4.entry(ROUTING_DOWN, List.of(p4.lpm(ROUTING_DOWN, "hdr.ipv4.dst_addr", ipv4(10, 0, subnet, 0), 24)), 0,
                p4.action(IN + "downward_routing.route_down", "port", bytes(port)));
    }

    @Test
    void aSwitchOnosDoesNotKnowGetsNothing() throws Exception {
        assertNull(programming.setSlice("forwarding", "device:nowhere", leafSlice(3, 4)).toCompletableFuture().get());
        assertEquals(0, flows.batches.size());
        assertEquals(List.of(), groups.calls);
    }

    @Test
    void entitiesOnosCannotExpressAreRefusedAndNothingIsWritten() throws Exception {
        List<Entity> missingMember = new ArrayList<>(leafSlice(3, 4));
        missingMember.add(p4.group(UP_UTIL_SELECTOR, 2, 7));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> programming.setSlice("forwarding", LEAF1, missingMember));
        assertEquals(UP_UTIL_SELECTOR + ": group 2 names member 7, which the slice does not define", e.getMessage());

        List<Entity> tooWide = List.of(p4.entry(PORT_KIND,
                List.of(p4.exact(PORT_KIND, "standard_metadata.ingress_port", bytes(512))), 0,
                p4.action(IN + "port_kind.set_ingress_port_kind", "kind", bytes(1))));
        e = assertThrows(IllegalArgumentException.class, () -> programming.setSlice("forwarding", LEAF1, tooWide));
        assertEquals(PORT_KIND + ": value of standard_metadata.ingress_port does not fit in 9 bits", e.getMessage());

        e = assertThrows(IllegalArgumentException.class, () -> programming.setSlice("Bad Name", LEAF1, List.of()));
        assertTrue(e.getMessage().startsWith("slice name 'Bad Name'"), e.getMessage());
        assertEquals(0, flows.batches.size());
        assertEquals(List.of(), groups.calls);
    }

    @Test
    void aBatchOnosRefusesFailsTheSliceAndKeepsItsGroups() throws Exception {
        programming.setSlice("forwarding", LEAF1, leafSlice(3, 4)).toCompletableFuture().get();
        flows.failNext = true;
        ExecutionException e = assertThrows(ExecutionException.class,
                () -> programming.setSlice("forwarding", LEAF1, List.of()).toCompletableFuture().get());
        assertTrue(e.getCause().getMessage().startsWith("device:leaf1: ONOS failed to apply slice forwarding"), e.getMessage());
        assertEquals(List.of("add 511", "add 1"), groups.calls, "groups the rules still point at stay");
    }
}
