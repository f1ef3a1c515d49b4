package org.fairfabric.core.model;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * An immutable snapshot of the fabric: switches, hosts and directed links. Hosts are nodes too
 * (tier -1), so host links carry capacities and loads like any other link.
 */
public final class Topology {
    private final Map<String, Device> devices;
    private final Map<String, Host> hosts;
    private final List<Link> links;
    private final Map<ConnectPoint, Link> linkBySrc;
    private final Map<String, List<Link>> linksBySrcElement;
    private final Map<String, Link> linkById;

    private Topology(Map<String, Device> devices, Map<String, Host> hosts, List<Link> links) {
        this.devices = Collections.unmodifiableMap(new LinkedHashMap<>(devices));
        this.hosts = Collections.unmodifiableMap(new LinkedHashMap<>(hosts));
        this.links = Collections.unmodifiableList(new ArrayList<>(links));
        Map<ConnectPoint, Link> bySrc = new LinkedHashMap<>();
        for (Link l : links) {
            checkEndpoint(l.src());
            checkEndpoint(l.dst());
            if (bySrc.put(l.src(), l) != null) {
                throw new IllegalArgumentException("two links leave " + l.src());
            }
        }
        this.linkBySrc = bySrc;
        Map<String, List<Link>> byElement = new LinkedHashMap<>();
        Map<String, Link> byId = new LinkedHashMap<>();
        for (Link l : links) {
            byElement.computeIfAbsent(l.src().elementId(), k -> new ArrayList<>()).add(l);
            byId.put(l.id(), l);
        }
        for (List<Link> out : byElement.values()) {
            out.sort(Comparator.comparingInt(l -> l.src().port()));
        }
        this.linksBySrcElement = byElement;
        this.linkById = byId;
        for (Host h : hosts.values()) {
            if (devices.containsKey(h.id())) {
                throw new IllegalArgumentException("id " + h.id() + " is both a host and a device");
            }
            if (h.server().isPresent() && (!hosts.containsKey(h.server().get())
                    || !hosts.get(h.server().get()).attachment().equals(h.attachment()))) {
                throw new IllegalArgumentException("VM " + h.id() + " runs on " + h.server().get()
                        + ", which is not a host at " + h.attachment());
            }
            if (!devices.containsKey(h.attachment().elementId())) {
                throw new IllegalArgumentException("host " + h.id() + " attaches to unknown device "
                        + h.attachment().elementId());
            }
        }
    }

    private void checkEndpoint(ConnectPoint p) {
        if (!devices.containsKey(p.elementId()) && !hosts.containsKey(p.elementId())) {
            throw new IllegalArgumentException("link endpoint " + p + " is neither a device nor a host");
        }
    }

    public static Builder builder() {
        return new Builder();
    }

    public Map<String, Device> devices() {
        return devices;
    }

    public Map<String, Host> hosts() {
        return hosts;
    }

    public List<Link> links() {
        return links;
    }

    public Device device(String id) {
        Device d = devices.get(id);
        if (d == null) {
            throw new IllegalArgumentException("unknown device " + id);
        }
        return d;
    }

    public Host host(String id) {
        Host h = hosts.get(id);
        if (h == null) {
            throw new IllegalArgumentException("unknown host " + id);
        }
        return h;
    }

    /** Tier of a node: -1 for hosts, the role's tier for switches. */
    public int tier(String elementId) {
        if (hosts.containsKey(elementId)) {
            return -1;
        }
        return device(elementId).role().tier();
    }

    public Optional<Link> linkFrom(ConnectPoint src) {
        return Optional.ofNullable(linkBySrc.get(src));
    }

    public Optional<Link> link(String linkId) {
        return Optional.ofNullable(linkById.get(linkId));
    }

    /** Links leaving a node, ordered by source port number. */
    public List<Link> linksFrom(String elementId) {
        List<Link> out = linksBySrcElement.get(elementId);
        return out == null ? List.of() : Collections.unmodifiableList(out);
    }

    /** Links from a switch to switches of a higher tier (in any state), ordered by port number. */
    public List<Link> upwardLinks(String deviceId) {
        int tier = device(deviceId).role().tier();
        List<Link> out = new ArrayList<>();
        for (Link l : linksFrom(deviceId)) {
            if (tier(l.dst().elementId()) > tier) {
                out.add(l);
            }
        }
        return out;
    }

    /** The ports of a switch, derived from the links that leave it. */
    public List<Port> ports(String deviceId) {
        Device d = device(deviceId);
        List<Port> out = new ArrayList<>();
        for (Link l : linksFrom(deviceId)) {
            out.add(new Port(l.src(), l.capacityBps(), tier(l.dst().elementId()) > d.role().tier()));
        }
        return out;
    }

    /** A copy with the given link (by id) in a new state; unknown ids are an error. */
    public Topology withLinkState(String linkId, LinkState state) {
        List<Link> copy = new ArrayList<>(links.size());
        boolean found = false;
        for (Link l : links) {
            if (l.id().equals(linkId)) {
                copy.add(l.withState(state));
                found = true;
            } else {
                copy.add(l);
            }
        }
        if (!found) {
            throw new IllegalArgumentException("unknown link " + linkId);
        }
        return new Topology(devices, hosts, copy);
    }

    /** Collects nodes and links; {@link #build()} validates the whole graph. */
    public static final class Builder {
        private final Map<String, Device> devices = new LinkedHashMap<>();
        private final Map<String, Host> hosts = new LinkedHashMap<>();
        private final List<Link> links = new ArrayList<>();

        public Builder device(Device d) {
            if (devices.put(d.id(), d) != null) {
                throw new IllegalArgumentException("duplicate device " + d.id());
            }
            return this;
        }

        public Builder host(Host h) {
            if (hosts.put(h.id(), h) != null) {
                throw new IllegalArgumentException("duplicate host " + h.id());
            }
            return this;
        }

        public Builder link(Link l) {
            links.add(l);
            return this;
        }

        /** A cable: two directed links of the same capacity, both up. */
        public Builder cable(ConnectPoint a, ConnectPoint b, long capacityBps) {
            links.add(new Link(a, b, capacityBps, LinkState.UP));
            links.add(new Link(b, a, capacityBps, LinkState.UP));
            return this;
        }

        public Topology build() {
            return new Topology(devices, hosts, links);
        }
    }
}
