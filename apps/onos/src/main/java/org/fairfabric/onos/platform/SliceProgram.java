package org.fairfabric.onos.platform;

import java.util.List;
import java.util.Map;
import org.fairfabric.core.model.Topology;
import org.fairfabric.core.platform.FabricTopology;
import p4.v1.P4RuntimeOuterClass.Entity;

/**
 * What one slice wants on every switch for a topology, as P4Runtime entities (the controller's
 * components build these). Registered as an OSGi service, it is programmed by
 * {@link FabricPlatformComponent} on the leader whenever the fabric changes; a switch missing from
 * the answer gets an empty slice (its stale entries are removed).
 */
public interface SliceProgram {
    /** The slice's name (lower-case letters, digits, '-'): the owner of its entries. */
    String slice();

    /** Switch id -> the slice's entities there. Must not block for long: it runs on the programming thread. */
    Map<String, List<Entity>> entities(Topology topology, FabricTopology fabric);
}
