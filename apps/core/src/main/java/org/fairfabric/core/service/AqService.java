package org.fairfabric.core.service;

import java.util.List;
import java.util.function.LongSupplier;
import org.fairfabric.core.aq.AqAdmission;
import org.fairfabric.core.aq.AqDecision;
import org.fairfabric.core.aq.AqGrant;
import org.fairfabric.core.aq.AqRequest;
import org.fairfabric.core.model.Checks;
import org.fairfabric.core.ports.DataPlaneException;
import org.fairfabric.core.ports.DataPlaneProgrammer;
import org.fairfabric.core.ports.EventSink;
import org.fairfabric.core.ports.FabricEvent;
import org.fairfabric.core.ports.FabricEventType;

/**
 * AQ requests end to end: admission, then the data-plane writes (install the new AQ first, then
 * re-rate its weighted peers), then the events. If installing the new AQ fails, the grant is undone
 * before the error propagates, so a failed request changes nothing.
 */
public final class AqService {
    private final AqAdmission admission;
    private final DataPlaneProgrammer dataPlane;
    private final EventSink events;
    private final LongSupplier clockMillis;

    public AqService(AqAdmission admission, DataPlaneProgrammer dataPlane, EventSink events, LongSupplier clockMillis) {
        this.admission = Checks.notNull(admission, "AQ admission");
        this.dataPlane = Checks.notNull(dataPlane, "data-plane programmer");
        this.events = Checks.notNull(events, "event sink");
        this.clockMillis = Checks.notNull(clockMillis, "clock");
    }

    public synchronized AqDecision request(AqRequest request) {
        long now = clockMillis.getAsLong();
        AqDecision d = admission.request(request, now);
        if (!d.isGranted()) {
            events.emit(new FabricEvent(now, FabricEventType.AQ_DECLINED,
                    request.tenantId() + "/" + request.entity(), d.declineReason().get()));
            return d;
        }
        AqGrant g = d.grant().get();
        try {
            dataPlane.installAq(g);
        } catch (DataPlaneException e) {
            admission.release(g.aqId(), now);
            throw e;
        }
        events.emit(new FabricEvent(now, FabricEventType.AQ_GRANTED, "aq-" + g.aqId(), g.toString()));
        rerate(d.rerated(), now);
        return d;
    }

    public synchronized void release(long aqId) {
        long now = clockMillis.getAsLong();
        AqGrant g = admission.get(aqId).orElseThrow(() -> new IllegalArgumentException("no AQ with id " + aqId));
        dataPlane.removeAq(g);
        List<AqGrant> rerated = admission.release(aqId, now);
        events.emit(new FabricEvent(now, FabricEventType.AQ_RELEASED, "aq-" + aqId, g.toString()));
        rerate(rerated, now);
    }

    public synchronized List<AqGrant> grants() {
        return admission.all();
    }

    private void rerate(List<AqGrant> rerated, long now) {
        for (AqGrant peer : rerated) {
            dataPlane.updateAq(peer);
            events.emit(new FabricEvent(now, FabricEventType.AQ_RERATED, "aq-" + peer.aqId(), peer.toString()));
        }
    }
}
