package org.fairfabric.core.guarantee;

import org.fairfabric.core.model.Checks;

/**
 * One VM pair as its sender sees it in a token epoch: measured transmit rate (demand) and the
 * tokens the receiver admitted last time, phi_D ({@link TokenAdmission#UNBOUND} if unbounded or
 * not yet known).
 */
public final class SenderPair {
    private final String pairId;
    private final double txBps;
    private final double receiverTokens;

    public SenderPair(String pairId, double txBps, double receiverTokens) {
        this.pairId = Checks.nonEmpty(pairId, "pair id");
        if (!(txBps >= 0)) {
            throw new IllegalArgumentException("pair " + pairId + ": tx must be >= 0 (infinity = unlimited), got " + txBps);
        }
        this.txBps = txBps;
        if (!(receiverTokens >= 0)) {
            throw new IllegalArgumentException("pair " + pairId + ": receiver tokens must be >= 0, got " + receiverTokens);
        }
        this.receiverTokens = receiverTokens;
    }

    public String pairId() {
        return pairId;
    }

    public double txBps() {
        return txBps;
    }

    public double receiverTokens() {
        return receiverTokens;
    }
}
