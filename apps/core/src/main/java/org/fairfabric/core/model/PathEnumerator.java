package org.fairfabric.core.model;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Enumerates the shortest up-down (valley-free) paths between two hosts of a tiered fabric: k-ary
 * fat-trees (edge, aggregation, core) and leaf-spine fabrics. Every path goes up from the source's
 * switch to the lowest tier that reaches the destination's switch, then down along the unique
 * downward route. Paths are numbered by {@link PathIds}; links in any state are included (callers
 * filter with {@link Path#isUpIn}), so the numbering does not move when a link fails.
 */
public final class PathEnumerator {
    private final Topology topology;
    private final int[] radices;

    public PathEnumerator(Topology topology) {
        this.topology = Checks.notNull(topology, "topology");
        int maxTier = 0;
        for (Device d : topology.devices().values()) {
            maxTier = Math.max(maxTier, d.role().tier());
        }
        radices = new int[maxTier + 1];
        for (Device d : topology.devices().values()) {
            int tier = d.role().tier();
            radices[tier] = Math.max(radices[tier], topology.upwardLinks(d.id()).size());
        }
        for (int t = 0; t < maxTier; t++) {
            if (radices[t] == 0) {
                radices[t] = 1;
            }
        }
    }

    /** The per-tier radices r_h used by the path-id numbering. */
    public int[] radices() {
        return radices.clone();
    }

    /** How many path ids the fabric uses: the product of the radices of every tier that has uplinks. */
    public int pathIdCount() {
        long n = 1;
        for (int t = 0; t < radices.length - 1; t++) {
            n *= radices[t];
        }
        return (int) Math.min(n, PathIds.MAX);
    }

    /**
     * The pinned-path forwarding table of one switch: for every path id, the upward port it leaves
     * by. Top-tier switches have no uplinks and get an empty table; downward forwarding is by
     * destination and needs no path id.
     */
    public Map<Integer, Integer> pinnedUpPorts(String deviceId) {
        Device d = topology.device(deviceId);
        int tier = d.role().tier();
        List<Link> ups = topology.upwardLinks(deviceId);
        Map<Integer, Integer> out = new TreeMap<>();
        if (ups.isEmpty()) {
            return out;
        }
        for (int id = PathIds.MIN; id <= pathIdCount(); id++) {
            int u = PathIds.upChoice(id, tier, radices);
            if (u < ups.size()) {
                out.put(id, ups.get(u).src().port());
            }
        }
        return out;
    }

    /** All candidate paths from one host to another, ordered by path id. */
    public List<Path> paths(String srcHost, String dstHost) {
        Host s = topology.host(srcHost);
        Host d = topology.host(dstHost);
        if (s.id().equals(d.id())) {
            throw new IllegalArgumentException("no paths from host " + srcHost + " to itself");
        }
        Link first = hostLink(s);
        Link last = topology.linkFrom(d.attachment()).orElseThrow(() ->
                new IllegalArgumentException("no link from " + d.attachment() + " to host " + dstHost));
        String srcSwitch = first.dst().elementId();
        String dstSwitch = d.attachment().elementId();
        if (topology.tier(srcSwitch) != 0 || topology.tier(dstSwitch) != 0) {
            throw new IllegalArgumentException("hosts must attach to leaf/edge switches");
        }
        List<Path> out = new ArrayList<>();
        if (srcSwitch.equals(dstSwitch)) {
            out.add(new Path(PathIds.MIN, srcHost, dstHost, s.cableOwner(), d.cableOwner(), List.of(first, last)));
            return out;
        }
        for (int height = 1; height < radices.length && out.isEmpty(); height++) {
            List<Link> up = new ArrayList<>();
            up.add(first);
            climb(srcSwitch, height, new int[height], 0, up, dstSwitch, last, out, srcHost, dstHost);
        }
        if (out.isEmpty()) {
            throw new IllegalArgumentException("no up-down path from " + srcHost + " to " + dstHost);
        }
        out.sort((a, b) -> Integer.compare(a.id(), b.id()));
        return out;
    }

    private Link hostLink(Host h) {
        for (Link l : topology.linksFrom(h.cableOwner())) {
            if (l.dst().equals(h.attachment())) {
                return l;
            }
        }
        throw new IllegalArgumentException("no link from host " + h.id() + " to " + h.attachment());
    }

    private void climb(String at, int height, int[] choices, int hop, List<Link> up, String dstSwitch,
                       Link last, List<Path> out, String srcHost, String dstHost) {
        if (hop == height) {
            List<List<Link>> downs = new ArrayList<>();
            descend(at, dstSwitch, new ArrayList<>(), downs);
            if (downs.isEmpty()) {
                return;
            }
            if (downs.size() > 1) {
                throw new IllegalArgumentException("downward route from " + at + " to " + dstSwitch
                        + " is not unique; path ids only encode upward choices");
            }
            List<Link> links = new ArrayList<>(up);
            links.addAll(downs.get(0));
            links.add(last);
            out.add(new Path(PathIds.encode(choices, radices), srcHost, dstHost, links.get(0).src().elementId(), last.dst().elementId(), links));
            return;
        }
        List<Link> ups = topology.upwardLinks(at);
        for (int u = 0; u < ups.size(); u++) {
            Link l = ups.get(u);
            if (topology.tier(l.dst().elementId()) != hop + 1) {
                continue;
            }
            choices[hop] = u;
            up.add(l);
            climb(l.dst().elementId(), height, choices, hop + 1, up, dstSwitch, last, out, srcHost, dstHost);
            up.remove(up.size() - 1);
        }
    }

    private void descend(String at, String dstSwitch, List<Link> sofar, List<List<Link>> found) {
        int tier = topology.tier(at);
        if (tier == 0) {
            if (at.equals(dstSwitch)) {
                found.add(Collections.unmodifiableList(new ArrayList<>(sofar)));
            }
            return;
        }
        for (Link l : topology.linksFrom(at)) {
            String next = l.dst().elementId();
            if (topology.tier(next) == tier - 1) {
                sofar.add(l);
                descend(next, dstSwitch, sofar, found);
                sofar.remove(sofar.size() - 1);
            }
        }
    }
}
