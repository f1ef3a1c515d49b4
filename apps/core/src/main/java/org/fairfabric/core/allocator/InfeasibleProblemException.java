package org.fairfabric.core.allocator;

/**
 * The minimum rates cannot all be met. Carries a Farkas certificate: link prices for which
 * the guaranteed traffic, routed on its cheapest paths, would cost more than the capacity
 * is worth (Σ_i g_i·l_i^min(μ) > Σ_e μ_e·C(e)), so no feasible allocation exists.
 */
public final class InfeasibleProblemException extends Exception {
    private static final long serialVersionUID = 1L;

    public InfeasibleProblemException(String message) {
        super(message);
    }
}
