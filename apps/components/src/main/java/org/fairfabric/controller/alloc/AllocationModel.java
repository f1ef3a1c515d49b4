package org.fairfabric.controller.alloc;

import java.util.List;
import java.util.Set;
import org.fairfabric.api.dto.SessionDto;
import org.fairfabric.core.allocator.AllocationProblem;
import org.fairfabric.core.model.Path;
import org.fairfabric.core.model.PathEnumerator;
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
public final class AllocationModel {
    private final AllocationProblem problem;
    private final List<SessionDto> sessions;
    private final List<List<Path>> paths;
    private final List<SessionDto> unroutable;
    private final Topology topology;
    private final Set<String> shimHosts;
    private final Set<String> guaranteedTenants;
    /** The topology's path enumerator, for the next build on the same topology; not part of the model's equality. */
    private final PathEnumerator enumerator;
    /**
     * When this model is {@link #appendedTo()}'s with sessions appended (and its other sessions'
     * parameters rescaled), that model; null otherwise. Not part of the model's equality. Cleared
     * when a model is appended to this one, so that models do not keep a chain of their predecessors.
     */
    AllocationModel appendedTo;
    /** The {@link AppendIndex} this model owns, if any (taken over by a model appended to this one); loop thread only. */
    AppendIndex appendIndex;

    public AllocationModel(AllocationProblem problem, List<SessionDto> sessions, List<List<Path>> paths, List<SessionDto> unroutable, Topology topology, Set<String> shimHosts, Set<String> guaranteedTenants) {
        this(problem, sessions, paths, unroutable, topology, shimHosts, guaranteedTenants, null);
    }

    AllocationModel(AllocationProblem problem, List<SessionDto> sessions, List<List<Path>> paths, List<SessionDto> unroutable, Topology topology,
                    Set<String> shimHosts, Set<String> guaranteedTenants, PathEnumerator enumerator) {
        this(problem, sessions, paths, unroutable, topology, shimHosts, guaranteedTenants, enumerator, null);
    }

    AllocationModel(AllocationProblem problem, List<SessionDto> sessions, List<List<Path>> paths, List<SessionDto> unroutable, Topology topology,
                    Set<String> shimHosts, Set<String> guaranteedTenants, PathEnumerator enumerator, AllocationModel appendedTo) {
        this.appendedTo = appendedTo;
        this.enumerator = enumerator;
        this.problem = problem;
        this.sessions = sessions;
        this.paths = paths;
        this.unroutable = unroutable;
        this.topology = topology;
        this.shimHosts = shimHosts;
        this.guaranteedTenants = guaranteedTenants;
    }

    public AllocationProblem problem() {
        return problem;
    }

    public List<SessionDto> sessions() {
        return sessions;
    }

    public List<List<Path>> paths() {
        return paths;
    }

    public List<SessionDto> unroutable() {
        return unroutable;
    }

    public Topology topology() {
        return topology;
    }

    public Set<String> shimHosts() {
        return shimHosts;
    }

    public Set<String> guaranteedTenants() {
        return guaranteedTenants;
    }

    /** Null when the model was not built by {@link ProblemAdapter}. */
    PathEnumerator enumerator() {
        return enumerator;
    }

    /**
     * The model this one extends by appending sessions (its sessions, paths, links and unroutable
     * sessions come first here, in the same order), or null.
     */
    AllocationModel appendedTo() {
        return appendedTo;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof AllocationModel)) {
            return false;
        }
        AllocationModel other = (AllocationModel) o;
        return java.util.Objects.equals(problem, other.problem)
                && java.util.Objects.equals(sessions, other.sessions)
                && java.util.Objects.equals(paths, other.paths)
                && java.util.Objects.equals(unroutable, other.unroutable)
                && java.util.Objects.equals(topology, other.topology)
                && java.util.Objects.equals(shimHosts, other.shimHosts)
                && java.util.Objects.equals(guaranteedTenants, other.guaranteedTenants);
    }

    @Override
    public int hashCode() {
        return java.util.Objects.hash(problem, sessions, paths, unroutable, topology, shimHosts, guaranteedTenants);
    }

    @Override
    public String toString() {
        return "AllocationModel[problem=" + problem + ", sessions=" + sessions + ", paths=" + paths + ", unroutable=" + unroutable + ", topology=" + topology + ", shimHosts=" + shimHosts + ", guaranteedTenants=" + guaranteedTenants + "]";
    }
}
