package org.fairfabric.controller.component;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/** Components hear only what they ask for, in the order it was posted, on their own thread. */
class ControlBusTest {
    static final class Recorder extends Component {
        final List<String> heard = new CopyOnWriteArrayList<>();
        final List<String> threads = new CopyOnWriteArrayList<>();
        final ControlBus bus;

        Recorder(String name, ControlBus bus) {
            super(name);
            this.bus = bus;
        }

        @Override
        protected boolean hears(ControlEvent e) {
            return e instanceof ControlEvent.ProvisioningChanged || e instanceof ControlEvent.PortStateReported;
        }

        @Override
        protected void handle(ControlEvent e) {
            threads.add(Thread.currentThread().getName());
            if (e instanceof ControlEvent.PortStateReported p) {
                heard.add("port " + p.port());
                bus.post(new ControlEvent.ProvisioningChanged("follow-up of " + p.port()));
            } else {
                heard.add(((ControlEvent.ProvisioningChanged) e).why());
            }
        }
    }

    @Test
    void eventsArriveInOrderOnTheComponentsThreadAndSyncWaitsForFollowUps() {
        try (ControlBus bus = new ControlBus()) {
            Recorder a = bus.register(new Recorder("a", bus));
            bus.post(new ControlEvent.ProvisioningChanged("one"));
            bus.post(new ControlEvent.LinkStateChanged("d", 1, true)); // not heard
            bus.post(new ControlEvent.PortStateReported("d", 7, true));
            bus.post(new ControlEvent.ProvisioningChanged("two"));
            bus.sync();
            // The follow-up is posted from a's thread, so it may land before or after "two".
            assertEquals(List.of("one", "port 7", "two"), a.heard.stream().filter(h -> !h.startsWith("follow-up")).toList());
            assertEquals(4, a.heard.size());
            assertTrue(a.heard.indexOf("follow-up of 7") > a.heard.indexOf("port 7"));
            assertEquals(List.of("ff-a"), a.threads.stream().distinct().toList());
            assertNotEquals("ff-a", Thread.currentThread().getName());
        }
    }

    /** The allocation component asks for the highest priority (AllocationComponent.LOOP_PRIORITY); the others keep the normal one. */
    @Test
    void aComponentsThreadRunsAtThePriorityItAsksFor() {
        try (ControlBus bus = new ControlBus()) {
            List<Integer> priorities = new CopyOnWriteArrayList<>();
            for (int priority : new int[] {Thread.NORM_PRIORITY, org.fairfabric.controller.alloc.AllocationComponent.LOOP_PRIORITY}) {
                bus.register(new Component("p" + priority, priority) {
                    @Override
                    protected boolean hears(ControlEvent e) {
                        return true;
                    }

                    @Override
                    protected void handle(ControlEvent e) {
                        priorities.add(Thread.currentThread().getPriority());
                    }
                });
            }
            bus.post(new ControlEvent.ProvisioningChanged("one"));
            bus.sync();
            assertEquals(List.of(Thread.NORM_PRIORITY, Thread.MAX_PRIORITY), priorities.stream().sorted().toList());
        }
    }

    @Test
    void aFailingHandlerDoesNotStopTheComponent() {
        try (ControlBus bus = new ControlBus()) {
            List<String> heard = new CopyOnWriteArrayList<>();
            bus.register(new Component("flaky") {
                @Override
                protected boolean hears(ControlEvent e) {
                    return true;
                }

                @Override
                protected void handle(ControlEvent e) {
                    String why = ((ControlEvent.ProvisioningChanged) e).why();
                    if (why.equals("bad")) {
                        throw new IllegalStateException("refused");
                    }
                    heard.add(why);
                }
            });
            bus.post(new ControlEvent.ProvisioningChanged("bad"));
            bus.post(new ControlEvent.ProvisioningChanged("good"));
            bus.sync();
            assertEquals(List.of("good"), heard);
        }
    }
}
