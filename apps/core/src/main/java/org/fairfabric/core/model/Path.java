package org.fairfabric.core.model;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * One candidate path of a host pair: a contiguous chain of directed links from the source host to
 * the destination host, with its path id (see {@link PathIds}). A VM's path starts or ends on its
 * server's cable ({@link Host#cableOwner}): the chain's ends are the cables' owners.
 */
public final class Path {
    private final int id;
    private final String srcHost;
    private final String dstHost;
    private final List<Link> links;

    public Path(int id, String srcHost, String dstHost, List<Link> links) {
        this(id, srcHost, dstHost, srcHost, dstHost, links);
    }

    /** A path between VMs: the chain runs from {@code srcCable}'s node to {@code dstCable}'s. */
    public Path(int id, String srcHost, String dstHost, String srcCable, String dstCable, List<Link> links) {
        this.id = PathIds.check(id);
        this.srcHost = Checks.nonEmpty(srcHost, "path source host");
        this.dstHost = Checks.nonEmpty(dstHost, "path destination host");
        if (links == null || links.isEmpty()) {
            throw new IllegalArgumentException("path " + id + " has no links");
        }
        if (!links.get(0).src().elementId().equals(srcCable)
                || !links.get(links.size() - 1).dst().elementId().equals(dstCable)) {
            throw new IllegalArgumentException("path " + id + " does not run from " + srcHost + " to " + dstHost);
        }
        for (int i = 1; i < links.size(); i++) {
            if (!links.get(i - 1).dst().elementId().equals(links.get(i).src().elementId())) {
                throw new IllegalArgumentException("path " + id + " is broken between " + links.get(i - 1)
                        + " and " + links.get(i));
            }
        }
        this.links = Collections.unmodifiableList(new ArrayList<>(links));
    }

    public int id() {
        return id;
    }

    public String srcHost() {
        return srcHost;
    }

    public String dstHost() {
        return dstHost;
    }

    public List<Link> links() {
        return links;
    }

    /** The switches on the path, in order. */
    public List<String> devices() {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < links.size() - 1; i++) {
            out.add(links.get(i).dst().elementId());
        }
        return out;
    }

    public boolean traverses(String linkId) {
        for (Link l : links) {
            if (l.id().equals(linkId)) {
                return true;
            }
        }
        return false;
    }

    /** True when every link of the path is up in the given topology. */
    public boolean isUpIn(Topology topology) {
        for (Link l : links) {
            Link current = topology.linkFrom(l.src()).orElse(null);
            if (current == null || !current.isUp()) {
                return false;
            }
        }
        return true;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof Path)) {
            return false;
        }
        Path p = (Path) o;
        return id == p.id && srcHost.equals(p.srcHost) && dstHost.equals(p.dstHost) && links.equals(p.links);
    }

    @Override
    public int hashCode() {
        return Objects.hash(id, srcHost, dstHost, links);
    }

    @Override
    public String toString() {
        return "Path#" + id + srcHost + "->" + devices() + "->" + dstHost;
    }
}
