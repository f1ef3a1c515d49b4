package org.fairfabric.core.model;

import java.util.Objects;

/** Identity of a session: the ordered pair (sending host, receiving host). */
public final class SessionKey implements Comparable<SessionKey> {
    private final String srcHost;
    private final String dstHost;

    public SessionKey(String srcHost, String dstHost) {
        this.srcHost = Checks.nonEmpty(srcHost, "session source host");
        this.dstHost = Checks.nonEmpty(dstHost, "session destination host");
        if (srcHost.equals(dstHost)) {
            throw new IllegalArgumentException("session source and destination are both " + srcHost);
        }
    }

    public String srcHost() {
        return srcHost;
    }

    public String dstHost() {
        return dstHost;
    }

    @Override
    public int compareTo(SessionKey o) {
        int c = srcHost.compareTo(o.srcHost);
        return c != 0 ? c : dstHost.compareTo(o.dstHost);
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof SessionKey)) {
            return false;
        }
        SessionKey k = (SessionKey) o;
        return srcHost.equals(k.srcHost) && dstHost.equals(k.dstHost);
    }

    @Override
    public int hashCode() {
        return Objects.hash(srcHost, dstHost);
    }

    @Override
    public String toString() {
        return srcHost + "->" + dstHost;
    }
}
