package org.fairfabric.controller.fack;

import java.util.Set;
import java.util.TreeSet;

/**
 * Whether the controller programs P4TE's FACK rate control (off by default), and for which traffic
 * classes (DSCP values): {@code --fack-dscp 0,10} enables it, {@code --fack-min-bytes N} sets the
 * sequence space between two FACKs of one flow (default {@value #DEFAULT_MIN_BYTES}, the P4TE
 * authors' B).
 */
public final class FackSettings {
    public static final long DEFAULT_MIN_BYTES = 5000;
    public static final FackSettings OFF = new FackSettings(Set.of(), DEFAULT_MIN_BYTES);

    private final Set<Integer> dscps;
    private final long minBytesBetween;

    private FackSettings(Set<Integer> dscps, long minBytesBetween) {
        this.dscps = Set.copyOf(new TreeSet<>(dscps));
        this.minBytesBetween = minBytesBetween;
    }

    public boolean enabled() {
        return !dscps.isEmpty();
    }

    /** The classes FACK is on for, ascending. */
    public Set<Integer> dscps() {
        return new TreeSet<>(dscps);
    }

    public long minBytesBetween() {
        return minBytesBetween;
    }

    /**
     * From the command line's values ({@code null}: not given). A DSCP list without values, a DSCP
     * outside 0..63 or a byte count outside 1..2^31 is an IllegalArgumentException naming the flag.
     */
    public static FackSettings parse(String dscpList, String minBytes) {
        if (dscpList == null) {
            if (minBytes != null) {
                throw new IllegalArgumentException("--fack-min-bytes needs --fack-dscp (FACK is off without classes)");
            }
            return OFF;
        }
        Set<Integer> dscps = new TreeSet<>();
        for (String part : dscpList.split(",", -1)) {
            int d;
            try {
                d = Integer.parseInt(part.strip());
            } catch (NumberFormatException e) {
                d = -1;
            }
            if (d < 0 || d > 63) {
                throw new IllegalArgumentException("--fack-dscp takes DSCP values 0-63 separated by commas, got '" + dscpList + "'");
            }
            dscps.add(d);
        }
        long b = DEFAULT_MIN_BYTES;
        if (minBytes != null) {
            try {
                b = Long.parseLong(minBytes.strip());
            } catch (NumberFormatException e) {
                b = -1;
            }
            if (b < 1 || b > Integer.MAX_VALUE) {
                throw new IllegalArgumentException("--fack-min-bytes must be 1-" + Integer.MAX_VALUE + ", got '" + minBytes + "'");
            }
        }
        return new FackSettings(dscps, b);
    }

    @Override
    public String toString() {
        return enabled() ? "FACK on for DSCP " + dscps() + ", at most one per " + minBytesBetween + " bytes" : "FACK off";
    }
}
