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
