package org.fairfabric.controller.program;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import org.fairfabric.core.model.ConnectPoint;
import org.fairfabric.core.model.Host;
import org.fairfabric.core.model.Link;
import org.fairfabric.core.model.Topology;

/**
 * Downward rerouting around failed links. The upward routing groups match the whole DCN prefix,
 * so when a downward link fails (spine → leaf, core → aggregation, aggregation → edge) the
 * switches below would keep hashing traffic for the cut-off hosts onto uplinks whose upper switch
 * can no longer reach them (downward routes are single-path: a downward route always wins, and
 * the switch that holds it sends into the dead link).
 *
 * <p>For a switch and a destination switch that is not below it, an uplink is <em>dead-ended</em>
 * when the upper switch cannot deliver to the destination any more: its downward route to the
 * destination crosses a failed link, or (no downward route) none of its own usable uplinks leads to
 * a switch that can. A link is unusable when it is down in the topology or a port at either end
 * has been reported failed (vFab LINK_FAILURE). {@link FabricPlan} gives the destination's hosts
 * per-destination routing groups without the dead-ended uplinks; when every usable uplink is
 * dead-ended, nothing is gained and no exception is made.
 */
final class DownlinkDetours {
    private final Topology topo;
    private final Set<ConnectPoint> failedPorts;
    private final Map<String, Map<String, Integer>> downward = new HashMap<>();
    private final Map<String, Boolean> delivers = new HashMap<>();

    DownlinkDetours(Topology topo, Set<ConnectPoint> failedPorts) {
        this.topo = topo;
        this.failedPorts = Set.copyOf(failedPorts);
    }

    /** Destination switch → the uplink ports of {@code deviceId} that its hosts' traffic must avoid (only destinations with some). */
    SortedMap<String, SortedSet<Integer>> avoid(String deviceId) {
        SortedMap<String, SortedSet<Integer>> out = new TreeMap<>();
        if (failedPorts.isEmpty() && topo.links().stream().allMatch(Link::isUp)) {
            return out;
        }
        List<Link> ups = topo.upwardLinks(deviceId);
        Map<String, Integer> below = downward(deviceId);
        for (String dst : hostSwitches()) {
            if (dst.equals(deviceId) || below.containsKey(dst)) {
                continue; // reached downwards (or locally): upward groups are not used
            }
            SortedSet<Integer> deadEnded = new TreeSet<>();
            int usable = 0;
            for (Link l : ups) {
                if (!usable(l)) {
                    continue; // already out of every routing group
                }
                usable++;
                if (!delivers(l.dst().elementId(), dst)) {
                    deadEnded.add(l.src().port());
                }
            }
            if (!deadEnded.isEmpty() && deadEnded.size() < usable) {
                out.put(dst, deadEnded);
            }
        }
        return out;
    }

    /** The switches hosts are attached to: the only destinations traffic has. */
    private SortedSet<String> hostSwitches() {
        SortedSet<String> out = new TreeSet<>();
        for (Host h : topo.hosts().values()) {
            out.add(h.attachment().elementId());
        }
        return out;
    }

    /** Whether traffic for {@code dst} that arrives at {@code from} gets there (up first if need be, then down). */
    private boolean delivers(String from, String dst) {
        if (from.equals(dst)) {
            return true;
        }
        String key = from + "|" + dst;
        Boolean known = delivers.get(key);
        if (known != null) {
            return known;
        }
        boolean ok = false;
        Integer down = downward(from).get(dst);
        if (down != null) {
            Link l = topo.linkFrom(new ConnectPoint(from, down)).orElseThrow();
            ok = usable(l) && delivers(l.dst().elementId(), dst);
        } else {
            for (Link l : topo.upwardLinks(from)) {
                if (usable(l) && delivers(l.dst().elementId(), dst)) {
                    ok = true;
                    break;
                }
            }
        }
        delivers.put(key, ok);
        return ok;
    }

    private Map<String, Integer> downward(String deviceId) {
        return downward.computeIfAbsent(deviceId, d -> FabricPlan.downwardPorts(topo, d));
    }

    private boolean usable(Link l) {
        return l.isUp() && !failedPorts.contains(l.src()) && !failedPorts.contains(l.dst());
    }
}
