package org.fairfabric.controller.program;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.fairfabric.controller.p4rt.WriteTiming;

/**
 * Where the time of the P4TE loop goes in the controller, per event that caused routing-group
 * writes: from the event's packet-in arriving on the stream to the switch's answer to the writes
 * that carry its group changes. The stages follow one another, so they add up to the total.
 * All times are {@link System#nanoTime} values.
 */
public final class P4teLoopStages {
    /** One stage of the loop, in order. */
    public enum Stage {
        /** Packet-in delivered by the stream to the programming thread taking the event (thread hop, backlog). */
        QUEUED("packet-in received -> event taken"),
        /** Algorithm 4 (RoutingGroupService) on the events taken together. */
        ALGORITHM("routing-group algorithm"),
        /** The switch's new entities computed and handed to its device agent. */
        PLAN("entities computed, write enqueued"),
        /** The write waiting in the device's ordered queue. */
        WRITE_QUEUE("write enqueued -> its turn"),
        /** The difference to the intended state and the local checks. */
        DIFF("diff against intended state"),
        /** Write RPC: request out to answer in (network, gRPC, the switch applying it). */
        RPC("write sent -> answer received"),
        /** The whole loop. */
        TOTAL("total: packet-in received -> answer");

        public final String label;

        Stage(String label) {
            this.label = label;
        }
    }

    private final Map<Stage, LatencyRecorder> stages = new EnumMap<>(Stage.class);

    public P4teLoopStages() {
        for (Stage s : Stage.values()) {
            stages.put(s, new LatencyRecorder());
        }
    }

    /**
     * Records one event: when its packet-in arrived, when the programming thread took it, when the
     * algorithm was done, when its switch's write was handed to the agent, and that write's timing.
     */
    public void record(long received, long taken, long decided, long enqueued, WriteTiming write) {
        long[] at = {received, taken, decided, enqueued, write.startedNanos, write.sentNanos, write.answeredNanos};
        for (int i = 1; i < at.length; i++) {
            // An event that joins a write waiting in the queue may be handed over a moment after
            // that write's turn came (it still carries the event: it takes the latest state
            // after its turn came): such overlaps count as zero.
            at[i] = Math.max(at[i], at[i - 1]);
        }
        for (int i = 1; i < at.length; i++) {
            stages.get(Stage.values()[i - 1]).record(at[i] - at[i - 1]);
        }
        stages.get(Stage.TOTAL).record(at[at.length - 1] - received);
    }

    /** Forgets everything recorded so far (a benchmark's warm-up). */
    public void clear() {
        stages.values().forEach(LatencyRecorder::clear);
    }

    public LatencyRecorder stage(Stage s) {
        return stages.get(s);
    }

    /** One line per stage: label, n, p50, p99, max. */
    public List<String> lines() {
        List<String> out = new ArrayList<>();
        for (Stage s : Stage.values()) {
            LatencyRecorder r = stages.get(s);
            out.add(String.format(Locale.ROOT, "%-36s %s", s.label, r.summary()));
        }
        return out;
    }
}
