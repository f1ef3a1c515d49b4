package org.fairfabric.core.session;

import java.util.Optional;
import org.fairfabric.core.model.Path;

/** Finds the path behind a (session, path id), so bytes can be charged to its links. */
public interface PathLookup {
    Optional<Path> find(SessionPath sessionPath);
}
