package org.fairfabric.core.guarantee;

/**
 * The sender's token decision for one pair: {@code advertised} is phi_S, what the pair announces
 * to the network and the receiver; {@code local} is what the sender still admits for the pair this
 * epoch. They differ only for demand-bounded pairs (Algorithm 1 line 7: "bounded by demand but
 * sender still admits phi-bar"), which advertise their demand but keep their fair share locally.
 */
public final class TokenShare {
    private final double advertised;
    private final double local;

    public TokenShare(double advertised, double local) {
        this.advertised = advertised;
        this.local = local;
    }

    public double advertised() {
        return advertised;
    }

    public double local() {
        return local;
    }

    @Override
    public String toString() {
        return "TokenShare(advertised=" + advertised + ", local=" + local + ")";
    }
}
