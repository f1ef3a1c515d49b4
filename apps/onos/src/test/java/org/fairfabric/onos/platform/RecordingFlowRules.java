package org.fairfabric.onos.platform;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.onosproject.core.ApplicationId;
import org.onosproject.net.DeviceId;
import org.onosproject.net.flow.DefaultFlowEntry;
import org.onosproject.net.flow.FlowEntry;
import org.onosproject.net.flow.FlowId;
import org.onosproject.net.flow.FlowRule;
import org.onosproject.net.flow.FlowRuleOperation;
import org.onosproject.net.flow.FlowRuleOperations;
import org.onosproject.net.flow.FlowRuleServiceAdapter;

/** ONOS's flow rule store as the tests need it: operations applied in order, entries by flow id, every batch recorded. */
final class RecordingFlowRules extends FlowRuleServiceAdapter {
    final Map<FlowId, FlowEntry> entries = new LinkedHashMap<>();
    final List<FlowRuleOperations> batches = new ArrayList<>();
    /** When set, the next batch fails (ONOS's onError) and changes nothing. */
    boolean failNext;
    /**
     * When set, batches are held until {@link #applyHeld} (as ONOS applies them later, on a thread
     * of its own): until then the store does not show them.
     */
    boolean deferred;
    private final List<FlowRuleOperations> held = new ArrayList<>();

    @Override
    public void apply(FlowRuleOperations ops) {
        synchronized (this) {
            batches.add(ops);
            if (deferred) {
                held.add(ops);
                return;
            }
        }
        process(ops);
    }

    /** Applies the held batches in order (callbacks outside the lock, as ONOS calls them); how many there were. */
    int applyHeld() {
        List<FlowRuleOperations> now;
        synchronized (this) {
            now = new ArrayList<>(held);
            held.clear();
        }
        now.forEach(this::process);
        return now.size();
    }

    private void process(FlowRuleOperations ops) {
        boolean failed;
        synchronized (this) {
            failed = failNext;
            failNext = false;
            if (!failed) {
                store(ops);
            }
        }
        if (failed) {
            ops.callback().onError(ops);
        } else {
            ops.callback().onSuccess(ops);
        }
    }

    private void store(FlowRuleOperations ops) {
        for (Set<FlowRuleOperation> stage : ops.stages()) {
            for (FlowRuleOperation op : stage) {
                if (op.type() == FlowRuleOperation.Type.REMOVE) {
                    entries.remove(op.rule().id());
                } else {
                    entries.put(op.rule().id(), new DefaultFlowEntry(op.rule(), FlowEntry.FlowEntryState.ADDED));
                }
            }
        }
    }

    @Override
    public synchronized void applyFlowRules(FlowRule... rules) {
        for (FlowRule r : rules) {
            entries.put(r.id(), new DefaultFlowEntry(r, FlowEntry.FlowEntryState.ADDED));
        }
    }

    @Override
    public synchronized Iterable<FlowEntry> getFlowEntriesById(ApplicationId app) {
        List<FlowEntry> out = new ArrayList<>();
        for (FlowEntry e : entries.values()) {
            if (e.appId() == app.id()) {
                out.add(e);
            }
        }
        return out;
    }

    @Override
    public synchronized Iterable<FlowEntry> getFlowEntries(DeviceId device) {
        List<FlowEntry> out = new ArrayList<>();
        for (FlowEntry e : entries.values()) {
            if (e.deviceId().equals(device)) {
                out.add(e);
            }
        }
        return out;
    }

    synchronized List<FlowRule> rules(DeviceId device, ApplicationId app) {
        List<FlowRule> out = new ArrayList<>();
        for (FlowEntry e : entries.values()) {
            if (e.deviceId().equals(device) && e.appId() == app.id()) {
                out.add(e);
            }
        }
        return out;
    }
}
