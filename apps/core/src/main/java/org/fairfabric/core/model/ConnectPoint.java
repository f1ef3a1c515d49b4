package org.fairfabric.core.model;

import java.util.Objects;

/** A port of a device, or the network interface of a host (hosts use port 0). */
public final class ConnectPoint implements Comparable<ConnectPoint> {
    private final String elementId;
    private final int port;

    public ConnectPoint(String elementId, int port) {
        this.elementId = Checks.nonEmpty(elementId, "element id");
        if (port < 0) {
            throw new IllegalArgumentException("port must not be negative, got " + port);
        }
        this.port = port;
    }

    public String elementId() {
        return elementId;
    }

    public int port() {
        return port;
    }

    @Override
    public int compareTo(ConnectPoint o) {
        int c = elementId.compareTo(o.elementId);
        return c != 0 ? c : Integer.compare(port, o.port);
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof ConnectPoint)) {
            return false;
        }
        ConnectPoint c = (ConnectPoint) o;
        return port == c.port && elementId.equals(c.elementId);
    }

    @Override
    public int hashCode() {
        return Objects.hash(elementId, port);
    }

    @Override
    public String toString() {
        return elementId + "/" + port;
    }
}
