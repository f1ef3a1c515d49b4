package org.fairfabric.core.guarantee;

import org.fairfabric.core.model.PathIds;

/** One path of a multipath pair with the traffic it carried (its demand), for Algorithm 2. */
public final class PathDemand {
    private final int pathId;
    private final double txBps;

    public PathDemand(int pathId, double txBps) {
        this.pathId = PathIds.check(pathId);
        if (!(txBps >= 0)) {
            throw new IllegalArgumentException("path " + pathId + ": tx must be >= 0 (infinity = unlimited)");
        }
        this.txBps = txBps;
    }

    public int pathId() {
        return pathId;
    }

    public double txBps() {
        return txBps;
    }
}
