package org.fairfabric.core.model;

import java.util.Objects;

/**
 * A directed link with a capacity in bit/s. A physical cable is two links, one each way; loads,
 * prices and capacities are per direction (Promenade's E is a set of directed edges).
 */
public final class Link {
    private final ConnectPoint src;
    private final ConnectPoint dst;
    private final long capacityBps;
    private final LinkState state;
    /** {@link #id()}, built on first use: the allocation rounds ask every path's links for it. */
    private String id;

    public Link(ConnectPoint src, ConnectPoint dst, long capacityBps, LinkState state) {
        this.src = Checks.notNull(src, "link source");
        this.dst = Checks.notNull(dst, "link destination");
        if (src.elementId().equals(dst.elementId())) {
            throw new IllegalArgumentException("link " + src + " -> " + dst + " is a self loop");
        }
        this.capacityBps = Checks.positive(capacityBps, "link capacity (bit/s)");
        this.state = Checks.notNull(state, "link state");
    }

    public ConnectPoint src() {
        return src;
    }

    public ConnectPoint dst() {
        return dst;
    }

    public long capacityBps() {
        return capacityBps;
    }

    public LinkState state() {
        return state;
    }

    public boolean isUp() {
        return state == LinkState.UP;
    }

    /** Identity of the link regardless of its state and capacity: "src/port->dst/port". */
    public String id() {
        if (id == null) {
            id = src + "->" + dst;
        }
        return id;
    }

    public Link withState(LinkState newState) {
        return new Link(src, dst, capacityBps, newState);
    }

    public Link withCapacity(long newCapacityBps) {
        return new Link(src, dst, newCapacityBps, state);
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof Link)) {
            return false;
        }
        Link l = (Link) o;
        return src.equals(l.src) && dst.equals(l.dst) && capacityBps == l.capacityBps && state == l.state;
    }

    @Override
    public int hashCode() {
        return Objects.hash(src, dst, capacityBps, state);
    }

    @Override
    public String toString() {
        return id() + "[" + capacityBps + "bps," + state + "]";
    }
}
