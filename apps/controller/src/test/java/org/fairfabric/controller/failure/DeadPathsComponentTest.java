package org.fairfabric.controller.failure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.fairfabric.api.dto.LinkDto;
import org.fairfabric.api.dto.LocationDto;
import org.fairfabric.api.json.Json;
import org.fairfabric.api.service.EventLog;
import org.fairfabric.api.service.NetworkView;
import org.fairfabric.controller.alloc.AllocationResult;
import org.fairfabric.controller.component.ControlBus;
import org.fairfabric.controller.component.ControlEvent;
import org.fairfabric.core.model.Link;
import org.fairfabric.core.model.Topology;
import org.junit.jupiter.api.Test;

/** When the controller tells a shim host about dead paths (ff.ctl.deadpaths.v1), and what. */
class DeadPathsComponentTest {
    record Sent(String host, JsonNode record) {
    }

    @Test
    void aLinkDownIsPublishedAtOnceAndItsRecoveryClearsTheList() throws Exception {
        AllocationResult before = DeadPathsTest.allocate(Set.of());
        Topology topo = before.model().topology();
        NetworkView network = new NetworkView(new EventLog(Clock.systemUTC(), 100));
        List<LinkDto> links = new ArrayList<>();
        for (Link l : topo.links()) {
            if (topo.devices().containsKey(l.src().elementId()) && topo.devices().containsKey(l.dst().elementId())) {
                links.add(new LinkDto(new LocationDto(l.src().elementId(), l.src().port()), new LocationDto(l.dst().elementId(), l.dst().port()),
                        l.capacityBps(), 0, true));
            }
        }
        network.resetTopology(List.of(), links);
        List<Sent> sent = new ArrayList<>();
        AtomicLong clock = new AtomicLong(1000);
        try (ControlBus bus = new ControlBus()) {
            DeadPathsComponent c = bus.register(new DeadPathsComponent(network, (host, json) -> sent.add(new Sent(host, Json.parse(json))),
                    clock::get));
            bus.post(new ControlEvent.LinkStateChanged("device:x", 1, false));
            bus.sync();
            assertEquals(List.of(), sent, "nothing before the first allocation (no sessions known)");

            bus.post(new ControlEvent.Allocated(before));
            bus.sync();
            assertEquals(1, sent.size(), "every shim host once after the start: " + sent);
            assertEquals("h1", sent.get(0).host());
            assertEquals(0, sent.get(0).record().path("sessions").size());

            String leaf1 = topo.host("h1").attachment().elementId();
            Link up = topo.upwardLinks(leaf1).get(0);
            network.setPortUp(up.src().elementId(), up.src().port(), false);
            bus.post(new ControlEvent.LinkStateChanged(up.src().elementId(), up.src().port(), false));
            bus.sync();
            assertEquals(2, sent.size(), "published on the link-state change, before any re-allocation: " + sent);
            JsonNode r = sent.get(1).record();
            assertEquals("s13", r.path("sessions").get(0).path("id").asText(), r.toString());
            assertEquals(1, r.path("sessions").get(0).path("dead").size(), r.toString());
            assertEquals(1, r.path("sessions").get(0).path("alive").size(), "the other spine's path: " + r);
            assertTrue(r.path("links").toString().contains(up.id()), r.toString());
            assertTrue(r.path("version").asLong() > sent.get(0).record().path("version").asLong());

            bus.post(new ControlEvent.LinkStateChanged(up.src().elementId(), up.src().port(), false));
            bus.post(new ControlEvent.Allocated(DeadPathsTest.allocate(Set.of(up.id()))));
            bus.sync();
            assertEquals(2, sent.size(), "a repeated state and the re-allocation without the link change nothing: " + sent);

            network.setPortUp(up.src().elementId(), up.src().port(), true);
            bus.post(new ControlEvent.LinkStateChanged(up.src().elementId(), up.src().port(), true));
            bus.sync();
            assertEquals(3, sent.size(), sent.toString());
            assertEquals(0, sent.get(2).record().path("sessions").size(), "recovered: nothing dead");
            assertTrue(sent.get(2).record().path("version").asLong() > r.path("version").asLong(), "versions increase even with a still clock");
            assertEquals(3, c.published());
        }
    }
}
