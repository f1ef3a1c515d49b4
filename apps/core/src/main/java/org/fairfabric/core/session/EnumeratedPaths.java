package org.fairfabric.core.session;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.fairfabric.core.model.Path;
import org.fairfabric.core.model.PathEnumerator;
import org.fairfabric.core.model.SessionKey;
import org.fairfabric.core.model.Topology;

/** A {@link PathLookup} over the candidate paths of a topology, enumerated once per host pair. */
public final class EnumeratedPaths implements PathLookup {
    private final Topology topology;
    private final PathEnumerator enumerator;
    private final Map<SessionKey, List<Path>> cache = new HashMap<>();

    public EnumeratedPaths(Topology topology) {
        this.topology = topology;
        this.enumerator = new PathEnumerator(topology);
    }

    /**
     * Promenade's P_i: the session's candidate paths whose links are all up in {@code current}
     * (a later snapshot of the same wiring, e.g. after a link failure). Ids stay those of the wiring.
     */
    public List<Path> upPaths(SessionKey session, Topology current) {
        List<Path> out = new java.util.ArrayList<>();
        for (Path p : cache.computeIfAbsent(session, key -> enumerator.paths(key.srcHost(), key.dstHost()))) {
            if (p.isUpIn(current)) {
                out.add(p);
            }
        }
        return out;
    }

    @Override
    public Optional<Path> find(SessionPath sp) {
        SessionKey k = sp.session();
        if (!topology.hosts().containsKey(k.srcHost()) || !topology.hosts().containsKey(k.dstHost())) {
            return Optional.empty();
        }
        List<Path> paths = cache.computeIfAbsent(k, key -> enumerator.paths(key.srcHost(), key.dstHost()));
        for (Path p : paths) {
            if (p.id() == sp.pathId()) {
                return Optional.of(p);
            }
        }
        return Optional.empty();
    }
}
