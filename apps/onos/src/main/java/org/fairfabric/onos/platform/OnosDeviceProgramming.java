package org.fairfabric.onos.platform;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.fairfabric.core.platform.DeviceProgramming;
import org.onosproject.core.ApplicationId;
import org.onosproject.core.CoreService;
import org.onosproject.net.DeviceId;
import org.onosproject.net.device.DeviceService;
import org.onosproject.net.flow.FlowEntry;
import org.onosproject.net.flow.FlowRule;
import org.onosproject.net.flow.FlowRuleOperations;
import org.onosproject.net.flow.FlowRuleOperationsContext;
import org.onosproject.net.flow.FlowRuleService;
import org.onosproject.net.flow.TrafficSelector;
import org.onosproject.net.flow.TableId;
import org.onosproject.net.group.Group;
import org.onosproject.net.group.GroupDescription;
import org.onosproject.net.group.GroupKey;
import org.onosproject.net.group.GroupService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import p4.v1.P4RuntimeOuterClass.Entity;

/**
 * {@link DeviceProgramming} over ONOS: every slice is an application id of its own
 * ({@value #SLICE_APP_PREFIX}NAME), so ONOS's stores say which flow rules and groups a slice owns
 * on every cluster node. Replacing a slice compares the wanted PI entities with what ONOS holds for
 * that slice on that switch (not with what this node wrote last), so entries a former leader or a
 * previous run left behind are removed too. Groups are written before the rules that point at
 * them and removed after the rules that pointed at them are gone.
 *
 * <p>ONOS applies a batch of flow rule operations asynchronously: its store holds the batch's
 * rules only once the batch has been processed. A replacement that read the store while an
 * earlier one of the same slice on the same switch was still in flight would miss that earlier
 * one's rules and leave them standing for good (a burst of topology events when a node becomes
 * leader does exactly that). So the replacements of one slice on one switch run one after the
 * other: each reads ONOS's stores only when the previous one has completed (or failed, or has not
 * completed within {@link #previousWaitMs}).
 */
public final class OnosDeviceProgramming implements DeviceProgramming<Entity, SliceWrite> {
    public static final String SLICE_APP_PREFIX = "org.fairfabric.slice.";
    private static final Logger LOG = LoggerFactory.getLogger(OnosDeviceProgramming.class);

    private final CoreService core;
    private final DeviceService devices;
    private final FlowRuleService flows;
    private final GroupService groups;
    private final EntityTranslator translator;
    private final Map<String, ApplicationId> sliceApps = new ConcurrentHashMap<>();
    /**
     * How long a replacement waits for the previous one of its slice on its switch: a batch ONOS
     * never completes (a switch gone mid-write) must not hold the slice there for good.
     */
    long previousWaitMs = 10_000;
    /** The last replacement of each slice on each switch ("slice@device"), until it completes; guarded by this. */
    private final Map<String, CompletableFuture<SliceWrite>> inFlight = new HashMap<>();

    public OnosDeviceProgramming(CoreService core, DeviceService devices, FlowRuleService flows, GroupService groups,
                                 EntityTranslator translator) {
        this.core = core;
        this.devices = devices;
        this.flows = flows;
        this.groups = groups;
        this.translator = translator;
    }

    /** The application id that owns slice {@code slice}'s flow rules and groups. */
    public ApplicationId sliceApp(String slice) {
        if (slice == null || !slice.matches("[a-z][a-z0-9-]*")) {
            throw new IllegalArgumentException("slice name '" + slice + "': expected lower-case letters, digits and '-'");
        }
        return sliceApps.computeIfAbsent(slice, s -> core.registerApplication(SLICE_APP_PREFIX + s));
    }

    /**
     * Completes with what changed, or with null when ONOS does not know the switch (nothing was
     * written); fails at once, writing nothing, when an entity cannot be expressed in ONOS.
     */
    @Override
    public synchronized CompletionStage<SliceWrite> setSlice(String slice, String deviceId, List<Entity> entities) {
        DeviceId device = DeviceId.deviceId(deviceId);
        ApplicationId app = sliceApp(slice);
        PiEntities want = translator.translate(device, app, entities);
        String key = slice + "@" + deviceId;
        CompletableFuture<SliceWrite> previous = inFlight.get(key);
        CompletableFuture<SliceWrite> next = previous == null
                ? replace(slice, deviceId, device, app, want)
                : previous.handle((w, err) -> (Void) null).completeOnTimeout(null, previousWaitMs, TimeUnit.MILLISECONDS)
                        .thenCompose(v -> replace(slice, deviceId, device, app, want));
        if (!next.isDone()) {
            inFlight.put(key, next);
            next.whenComplete((w, err) -> forget(key, next));
        }
        return next;
    }

    private synchronized void forget(String key, CompletableFuture<SliceWrite> write) {
        inFlight.remove(key, write);
    }

    /** One replacement, against what ONOS's stores hold now. */
    private synchronized CompletableFuture<SliceWrite> replace(String slice, String deviceId, DeviceId device, ApplicationId app,
                                                              PiEntities want) {
        if (devices.getDevice(device) == null) {
            return CompletableFuture.completedFuture(null);
        }

        Map<GroupKey, Group> staleGroups = new LinkedHashMap<>();
        for (Group g : groups.getGroups(device, app)) {
            staleGroups.put(g.appCookie(), g);
        }
        int groupsAdded = 0;
        int groupsModified = 0;
        for (GroupDescription g : want.groups()) {
            Group have = staleGroups.remove(g.appCookie());
            if (have == null) {
                groups.addGroup(g);
                groupsAdded++;
            } else if (!have.buckets().equals(g.buckets()) || !Objects.equals(have.givenGroupId(), g.givenGroupId())) {
                groups.setBucketsForGroup(device, g.appCookie(), g.buckets(), g.appCookie(), app);
                groupsModified++;
            }
        }

        Map<RuleKey, FlowEntry> staleRules = new LinkedHashMap<>();
        for (FlowEntry e : flows.getFlowEntriesById(app)) {
            if (e.deviceId().equals(device)) {
                staleRules.put(new RuleKey(e), e);
            }
        }
        FlowRuleOperations.Builder ops = FlowRuleOperations.builder();
        int added = 0;
        int modified = 0;
        for (FlowRule r : want.rules()) {
            FlowEntry have = staleRules.remove(new RuleKey(r));
            if (have == null) {
                ops.add(r);
                added++;
            } else if (!have.treatment().equals(r.treatment())) {
                ops.modify(r);
                modified++;
            }
        }
        for (FlowEntry e : staleRules.values()) {
            ops.remove(e);
        }
        List<Group> groupsToRemove = new ArrayList<>(staleGroups.values());
        SliceWrite result = new SliceWrite(slice, deviceId, added, modified, staleRules.size(),
                groupsAdded, groupsModified, groupsToRemove.size());
        CompletableFuture<SliceWrite> done = new CompletableFuture<>();
        if (added + modified + staleRules.size() == 0) {
            removeGroups(device, app, groupsToRemove);
            done.complete(result);
            return done;
        }
        flows.apply(ops.build(new FlowRuleOperationsContext() {
            @Override
            public void onSuccess(FlowRuleOperations applied) {
                removeGroups(device, app, groupsToRemove);
                LOG.debug("{}", result);
                done.complete(result);
            }

            @Override
            public void onError(FlowRuleOperations failed) {
                LOG.warn("{}: ONOS failed to apply slice {}: {}", deviceId, slice, failed);
                done.completeExceptionally(new IllegalStateException(
                        deviceId + ": ONOS failed to apply slice " + slice + ": " + failed));
            }
        }));
        return done;
    }

    private void removeGroups(DeviceId device, ApplicationId app, List<Group> stale) {
        for (Group g : stale) {
            groups.removeGroup(device, g.appCookie(), app);
        }
    }

    /** What identifies a table entry: its table, match and priority (the action may change in place). */
    private static final class RuleKey {
        private final TableId table;
        private final TrafficSelector selector;
        private final int priority;

        RuleKey(FlowRule r) {
            table = r.table();
            selector = r.selector();
            priority = r.priority();
        }

        @Override
        public boolean equals(Object o) {
            if (!(o instanceof RuleKey)) {
                return false;
            }
            RuleKey k = (RuleKey) o;
            return priority == k.priority && table.equals(k.table) && selector.equals(k.selector);
        }

        @Override
        public int hashCode() {
            return Objects.hash(table, selector, priority);
        }
    }
}
