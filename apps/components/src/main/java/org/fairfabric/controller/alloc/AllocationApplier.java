package org.fairfabric.controller.alloc;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.fairfabric.api.dto.AllocationDto;
import org.fairfabric.api.dto.PathRateDto;
import org.fairfabric.api.service.EventLog;
import org.fairfabric.api.service.NetworkView;
import org.fairfabric.controller.component.DeviceSlices;
import p4.v1.P4RuntimeOuterClass.Entity;

/**
 * Puts each allocation in force: the REST view and {@code allocation.updated} events (REST
 * {@code /events}, Kafka {@code ff.ctl.allocations.v1}), the allocation's slice of the switches
 * (path classifiers and tag keeping), the shims' rates tables, and then tells the other
 * components ({@code allocated}). A round whose guarantees cannot be met becomes an
 * {@code allocation.infeasible} event naming the bottleneck links.
 */
public final class AllocationApplier implements AllocationListener {
    private final NetworkView network;
    private final EventLog events;
    private final AllocationDataPlane dataPlane;
    private final DeviceSlices<Entity> slice;
    private final RatesPublisher rates;
    private final Consumer<AllocationResult> allocated;

    /**
     * @param dataPlane null when the pipeline has no allocation tables (then {@code slice} is unused)
     * @param rates     null without Kafka
     */
    public AllocationApplier(NetworkView network, EventLog events, AllocationDataPlane dataPlane, DeviceSlices<Entity> slice,
                             RatesPublisher rates, Consumer<AllocationResult> allocated) {
        this.network = network;
        this.events = events;
        this.dataPlane = dataPlane;
        this.slice = slice;
        this.rates = rates;
        this.allocated = allocated;
    }

    @Override
    public void allocated(AllocationResult r) {
        network.publishAllocations(dtos(r));
        if (dataPlane != null) {
            slice.replace(dataPlane.pathEntities(r));
        }
        if (rates != null) {
            rates.publish(r);
        }
        allocated.accept(r);
    }

    @Override
    public void infeasible(long round, String message, List<String> bottlenecks) {
        Map<String, Object> detail = new LinkedHashMap<>();
        detail.put("round", round);
        detail.put("bottleneckLinks", List.copyOf(bottlenecks));
        detail.put("message", message);
        events.emit(AllocationEvents.INFEASIBLE, AllocationEvents.SUBJECT, detail);
    }

    static List<AllocationDto> dtos(AllocationResult r) {
        List<AllocationDto> out = new ArrayList<>();
        for (SessionAllocation s : r.sessions()) {
            List<PathRateDto> paths = new ArrayList<>();
            s.paths().forEach(p -> paths.add(new PathRateDto(p.pathId(), p.devices(), p.rateBps())));
            out.add(new AllocationDto(s.session().id, s.session().tenantId, s.totalBps(), paths, r.computedAt(), !r.interim()));
        }
        return out;
    }
}
