package org.fairfabric.core.ports;

import java.util.Objects;
import org.fairfabric.core.model.Checks;
import org.fairfabric.core.session.SessionPath;

/** An allocated rate for one path of one session, in bit/s: what host shims enforce. */
public final class PathRate {
    private final SessionPath sessionPath;
    private final double rateBps;

    public PathRate(SessionPath sessionPath, double rateBps) {
        this.sessionPath = Checks.notNull(sessionPath, "session path");
        this.rateBps = Checks.nonNegative(rateBps, "rate (bit/s)");
    }

    public SessionPath sessionPath() {
        return sessionPath;
    }

    public double rateBps() {
        return rateBps;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof PathRate)) {
            return false;
        }
        PathRate r = (PathRate) o;
        return rateBps == r.rateBps && sessionPath.equals(r.sessionPath);
    }

    @Override
    public int hashCode() {
        return Objects.hash(sessionPath, rateBps);
    }

    @Override
    public String toString() {
        return sessionPath + "=" + rateBps;
    }
}
