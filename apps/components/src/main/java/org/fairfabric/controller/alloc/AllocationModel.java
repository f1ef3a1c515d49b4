package org.fairfabric.controller.alloc;

import java.util.List;
import java.util.Set;
import org.fairfabric.api.dto.SessionDto;
import org.fairfabric.core.allocator.AllocationProblem;
import org.fairfabric.core.model.Path;
import org.fairfabric.core.model.Topology;

/**
 * The allocator's problem built from the controller's model, with what is needed to read its
 * answer back: session i of the problem is {@code sessions.get(i)}, and its problem paths are
 * {@code paths.get(i)} in order (path ids from {@link org.fairfabric.core.model.PathEnumerator}).
 * Sessions without a usable path are not in the problem; they are listed in {@code unroutable}.
 *
 * @param problem    null when no session is routable
 * @param shimHosts  ids of the topology's hosts that run the fairfabric host shim
 * @param guaranteedTenants ids of the tenants with a minimum bandwidth
 */
public record AllocationModel(AllocationProblem problem, List<SessionDto> sessions, List<List<Path>> paths,
                              List<SessionDto> unroutable, Topology topology, Set<String> shimHosts,
                              Set<String> guaranteedTenants) {
}
