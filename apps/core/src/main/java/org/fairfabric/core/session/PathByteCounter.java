package org.fairfabric.core.session;

import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;
import org.fairfabric.core.model.SessionKey;

/**
 * Receiver-side byte counting (Promenade Eq. 5): PathBytes[session][path] += packet size, read and
 * reset once per period T (Algorithm 3 resets the table every period).
 */
public final class PathByteCounter {
    private Map<SessionPath, Long> bytes = new TreeMap<>();

    public void onPacket(SessionKey session, int pathId, int sizeBytes) {
        if (sizeBytes <= 0) {
            throw new IllegalArgumentException("packet size must be positive, got " + sizeBytes);
        }
        bytes.merge(new SessionPath(session, pathId), (long) sizeBytes, Long::sum);
    }

    /** The bytes counted since the last call, and a fresh zeroed table. */
    public Map<SessionPath, Long> drain() {
        Map<SessionPath, Long> out = bytes;
        bytes = new TreeMap<>();
        return Collections.unmodifiableMap(out);
    }
}
