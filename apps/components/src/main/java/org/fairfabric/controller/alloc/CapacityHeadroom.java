package org.fairfabric.controller.alloc;

/**
 * The share of every link's capacity that allocations leave free (docs/controller.md, "Capacity
 * headroom"): the allocator and the admission of guarantees see {@code (1 − fraction) × capacity}.
 * What is left carries the traffic no allocation counts — TCP's ACKs in the other direction, ARP,
 * probes — so that a link whose allocations add up to its capacity does not hold a standing queue.
 * None by default: allocations then equal the weighted proportional-fair optimum of the configured
 * capacities.
 */
public final class CapacityHeadroom {
    public static final CapacityHeadroom NONE = new CapacityHeadroom(0);
    /** At most half of a link may be kept free; more is a mistake, not a margin. */
    public static final double MAX_FRACTION = 0.5;

    private final double fraction;

    private CapacityHeadroom(double fraction) {
        this.fraction = fraction;
    }

    /** {@code fraction} of every link kept free, 0 ≤ fraction ≤ {@link #MAX_FRACTION}. */
    public static CapacityHeadroom of(double fraction) {
        if (!(fraction >= 0 && fraction <= MAX_FRACTION)) {
            throw new IllegalArgumentException("the capacity headroom must be a fraction from 0 to " + MAX_FRACTION + ", got " + fraction);
        }
        return fraction == 0 ? NONE : new CapacityHeadroom(fraction);
    }

    /** Parses a command-line value such as {@code 0.03}; the message names {@code option}. */
    public static CapacityHeadroom parse(String option, String value) {
        try {
            return of(Double.parseDouble(value));
        } catch (IllegalArgumentException notAFraction) { // NumberFormatException too
            throw new IllegalArgumentException(option + " must be a fraction from 0 to " + MAX_FRACTION + " (e.g. 0.03), got '" + value + "'");
        }
    }

    public double fraction() {
        return fraction;
    }

    /** What allocations may use of a link of {@code capacityBps}. */
    public double usable(double capacityBps) {
        return capacityBps * (1 - fraction);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof CapacityHeadroom && ((CapacityHeadroom) o).fraction == fraction;
    }

    @Override
    public int hashCode() {
        return Double.hashCode(fraction);
    }

    @Override
    public String toString() {
        return Double.toString(fraction);
    }
}
