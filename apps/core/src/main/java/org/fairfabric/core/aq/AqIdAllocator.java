package org.fairfabric.core.aq;

import java.util.HashSet;
import java.util.Set;

/**
 * AQ ids: unique among live AQs, never 0 (the header's "no AQ" value), at most 32 bits. Ids are
 * handed out in increasing order and wrap after 2^32 - 1, skipping ids still in use, so a released
 * id is not reused until the whole space has gone round.
 */
public final class AqIdAllocator {
    public static final long MAX_ID = 0xFFFF_FFFFL;

    private final Set<Long> live = new HashSet<>();
    private long next;

    public AqIdAllocator() {
        this(1);
    }

    public AqIdAllocator(long firstId) {
        if (firstId < 1 || firstId > MAX_ID) {
            throw new IllegalArgumentException("first AQ id must be in 1.." + MAX_ID + ", got " + firstId);
        }
        this.next = firstId;
    }

    public long allocate() {
        if (live.size() >= MAX_ID) {
            throw new IllegalStateException("every AQ id is in use");
        }
        while (live.contains(next)) {
            advance();
        }
        long id = next;
        live.add(id);
        advance();
        return id;
    }

    public void release(long id) {
        if (!live.remove(id)) {
            throw new IllegalArgumentException("AQ id " + id + " is not in use");
        }
    }

    private void advance() {
        next = next == MAX_ID ? 1 : next + 1;
    }
}
