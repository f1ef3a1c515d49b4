package org.fairfabric.controller.guarantee;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import org.fairfabric.api.dto.TenantDto;
import org.fairfabric.api.error.ConflictException;
import org.fairfabric.api.service.GuaranteeAdmission;
import org.fairfabric.controller.alloc.AllocationInputs;
import org.fairfabric.controller.alloc.AllocationModel;
import org.fairfabric.controller.alloc.CapacityHeadroom;
import org.fairfabric.controller.alloc.ProblemAdapter;
import org.fairfabric.controller.core.CoreTopology;
import org.fairfabric.controller.netcfg.NetworkConfig;
import org.fairfabric.core.allocator.ExactAllocator;
import org.fairfabric.core.allocator.InfeasibleProblemException;
import org.fairfabric.core.model.ConnectPoint;
import org.fairfabric.core.model.Host;
import org.fairfabric.core.model.Link;
import org.fairfabric.core.model.Topology;

/**
 * Two-stage admission of guarantees (docs/guarantees.md "Admission"). A tenant's guarantee G is a
 * hose: any one of its hosts may send or receive all of it.
 * <ol>
 * <li><b>Edge</b>: on every host cable (a server's cable, shared by its VMs), the guarantees of the
 *     tenants with a host there must add up to at most the cable's capacity (less the
 *     {@link CapacityHeadroom}, as the allocator sees it);</li>
 * <li><b>Fabric</b>: with the declared sessions, each session's minimum rate (G shared equally by
 *     its tenant's routable sessions, as the allocation gives it) must be carried by the sessions'
 *     up paths without any link over its capacity — the allocator's own feasibility test, so that
 *     nothing admitted here ends as an {@code allocation.infeasible} round.</li>
 * </ol>
 * A refusal is a {@link ConflictException} (409) naming the request field and the reason.
 */
public final class TwoStageAdmission implements GuaranteeAdmission {
    private final Supplier<NetworkConfig> config;
    private final Supplier<Set<String>> downLinks;
    private final CapacityHeadroom headroom;

    /**
     * @param config    the network configuration in force (null: none yet, everything is admitted)
     * @param downLinks core link ids ({@code device/port->device/port}) that are down now
     * @param headroom  the share of every link the allocator leaves free: guarantees fit in the rest
     */
    public TwoStageAdmission(Supplier<NetworkConfig> config, Supplier<Set<String>> downLinks, CapacityHeadroom headroom) {
        this.config = config;
        this.downLinks = downLinks;
        this.headroom = headroom;
    }

    @Override
    public void check(Proposal p) {
        NetworkConfig cfg = config.get();
        if (cfg == null) {
            return;
        }
        AllocationInputs in = new AllocationInputs(cfg, p.tenants, p.hosts, p.sessions, downLinks.get()).withHeadroom(headroom);
        edge(in).ifPresent(reason -> {
            throw new ConflictException(p.field, reason);
        });
        fabric(in).ifPresent(reason -> {
            throw new ConflictException(p.field, reason);
        });
    }

    /** Stage 1: the reason the hose guarantees do not fit some host cable, if they do not. */
    static Optional<String> edge(AllocationInputs in) {
        Map<String, TenantDto> guaranteed = new LinkedHashMap<>();
        for (TenantDto t : in.tenants()) {
            if (t.minBandwidthBps != null) {
                guaranteed.put(t.id, t);
            }
        }
        if (guaranteed.isEmpty()) {
            return Optional.empty();
        }
        Topology topo = CoreTopology.build(in.config(), in.hosts());
        Map<String, Set<String>> tenantsOnCable = new LinkedHashMap<>();
        for (Host h : topo.hosts().values()) {
            String tenant = h.tenantId().orElse(null);
            if (tenant != null && guaranteed.containsKey(tenant)) {
                tenantsOnCable.computeIfAbsent(h.cableOwner(), k -> new LinkedHashSet<>()).add(tenant);
            }
        }
        for (Map.Entry<String, Set<String>> e : tenantsOnCable.entrySet()) {
            Optional<Link> cable = topo.linkFrom(new ConnectPoint(e.getKey(), 0));
            if (cable.isEmpty()) {
                continue; // a host on a switch without fabric links: no cable the allocator knows
            }
            long capacity = (long) Math.floor(in.headroom().usable(cable.get().capacityBps()));
            long sum = 0;
            List<String> parts = new ArrayList<>();
            for (String t : e.getValue()) {
                long g = guaranteed.get(t).minBandwidthBps;
                sum += g;
                parts.add("'" + t + "' " + mbps(g));
            }
            if (sum > capacity) {
                return Optional.of("stage 1 (edge): the host link of " + e.getKey() + " (" + cable.get().dst()
                        + ", " + mbps(capacity) + headroomNote(in.headroom()) + ") cannot carry the guarantees of the tenants with a host there: "
                        + String.join(" + ", parts) + " = " + mbps(sum));
            }
        }
        return Optional.empty();
    }

    /** Stage 2: the reason the sessions' minimum rates cannot be routed, if they cannot. */
    static Optional<String> fabric(AllocationInputs in) {
        AllocationModel model = ProblemAdapter.build(in);
        if (model.problem() == null || model.guaranteedTenants().isEmpty()) {
            return Optional.empty();
        }
        try {
            new ExactAllocator().solve(model.problem());
            return Optional.empty();
        } catch (InfeasibleProblemException e) {
            return Optional.of("stage 2 (fabric): with the declared sessions, " + e.getMessage());
        }
    }

    /** The core ids of the links the network view has down now. */
    public static Set<String> downLinks(org.fairfabric.api.service.NetworkView network) {
        Set<String> down = new java.util.HashSet<>();
        for (org.fairfabric.api.dto.LinkDto l : network.topology(List.of()).links) {
            if (!l.up) {
                down.add(l.src + "->" + l.dst);
            }
        }
        return down;
    }

    private static String headroomNote(CapacityHeadroom h) {
        return h.fraction() == 0 ? "" : String.format(java.util.Locale.ROOT, " after the headroom of %.1f %%", 100 * h.fraction());
    }

    static String mbps(long bps) {
        return bps % 1_000_000 == 0 ? (bps / 1_000_000) + " Mbit/s" : String.format(java.util.Locale.ROOT, "%.3f Mbit/s", bps / 1e6);
    }
}
