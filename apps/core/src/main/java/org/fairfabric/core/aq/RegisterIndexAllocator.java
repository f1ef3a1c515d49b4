package org.fairfabric.core.aq;

import java.util.BitSet;
import java.util.HashMap;
import java.util.Map;
import java.util.OptionalInt;

/**
 * Dense register indices for AQ state (gap, last_time) in one register array. The controller cannot
 * reset registers over P4Runtime, so a released index is quarantined for longer than any AQ needs
 * to drain (limit / R) before it is handed out again; a fresh AQ then starts from a drained gap.
 * Lowest free index first. Times in milliseconds.
 */
public final class RegisterIndexAllocator {
    private final int size;
    private final long quarantineMillis;
    private final BitSet inUse = new BitSet();
    private final Map<Integer, Long> quarantinedUntil = new HashMap<>();

    public RegisterIndexAllocator(int size, long quarantineMillis) {
        if (size < 1) {
            throw new IllegalArgumentException("register array size must be positive, got " + size);
        }
        if (quarantineMillis < 0) {
            throw new IllegalArgumentException("quarantine must not be negative");
        }
        this.size = size;
        this.quarantineMillis = quarantineMillis;
    }

    /** The lowest index neither in use nor in quarantine at {@code nowMillis}; empty if none. */
    public OptionalInt allocate(long nowMillis) {
        for (int i = inUse.nextClearBit(0); i < size; i = inUse.nextClearBit(i + 1)) {
            Long until = quarantinedUntil.get(i);
            if (until == null || nowMillis >= until) {
                quarantinedUntil.remove(i);
                inUse.set(i);
                return OptionalInt.of(i);
            }
        }
        return OptionalInt.empty();
    }

    public void release(int index, long nowMillis) {
        if (index < 0 || index >= size || !inUse.get(index)) {
            throw new IllegalArgumentException("register index " + index + " is not in use");
        }
        inUse.clear(index);
        quarantinedUntil.put(index, nowMillis + quarantineMillis);
    }

    public boolean inUse(int index) {
        return index >= 0 && index < size && inUse.get(index);
    }
}
