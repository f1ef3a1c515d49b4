package org.fairfabric.core.model;

/**
 * Path ids are carried in packets as the 802.1Q VLAN id of a pinned sub-flow, so they are 1..4094
 * (0 means "priority tag only" and 4095 is reserved by 802.1Q).
 *
 * <p>Numbering (see docs/algorithms.md): a path is the sequence of upward choices it makes, hop h
 * taking the u_h-th upward port (in port-number order) of the switch at tier h. With r_h the
 * largest number of upward ports at tier h, id = 1 + u_0 + u_1*r_0 + u_2*r_0*r_1 + ... A switch at
 * tier h recovers its upward port index as ((id - 1) / (r_0 * ... * r_{h-1})) mod r_h; downward
 * forwarding is by destination address. Ids depend only on the wiring, so they are stable across
 * runs and link failures.
 */
public final class PathIds {
    public static final int MIN = 1;
    public static final int MAX = 4094;

    private PathIds() {
    }

    public static int check(int id) {
        if (id < MIN || id > MAX) {
            throw new IllegalArgumentException("path id " + id + " is outside " + MIN + ".." + MAX
                    + " (it travels as an 802.1Q VLAN id)");
        }
        return id;
    }

    /** The path id of a sequence of upward choices, given the per-tier radices. */
    public static int encode(int[] upChoices, int[] radices) {
        long id = 0;
        long scale = 1;
        for (int h = 0; h < upChoices.length; h++) {
            if (h >= radices.length || upChoices[h] < 0 || upChoices[h] >= radices[h]) {
                throw new IllegalArgumentException("upward choice " + upChoices[h] + " at hop " + h
                        + " is outside the radix");
            }
            id += upChoices[h] * scale;
            scale *= radices[h];
        }
        if (id + 1 > MAX) {
            throw new IllegalArgumentException("fabric has more paths than fit in a VLAN id (" + (id + 1) + ")");
        }
        return (int) id + 1;
    }

    /** The upward port index a switch at the given hop (= tier) takes for this path id. */
    public static int upChoice(int pathId, int hop, int[] radices) {
        check(pathId);
        long scale = 1;
        for (int h = 0; h < hop; h++) {
            scale *= radices[h];
        }
        return (int) (((pathId - 1) / scale) % radices[hop]);
    }
}
