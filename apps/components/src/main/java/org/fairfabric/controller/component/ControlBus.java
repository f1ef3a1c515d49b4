package org.fairfabric.controller.component;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** Delivers each {@link ControlEvent} to every registered component that hears it, on that component's thread. */
public final class ControlBus implements AutoCloseable {
    private final List<Component> components = new CopyOnWriteArrayList<>();

    public <C extends Component> C register(C component) {
        components.add(component);
        return component;
    }

    /** Never blocks: each component queues what it hears. */
    public void post(ControlEvent e) {
        for (Component c : components) {
            c.deliver(e);
        }
    }

    /**
     * Waits until every component has handled what was posted so far, including the events that
     * handling posted in turn (components post at most one step further).
     */
    public void sync() {
        for (int round = 0; round < 3; round++) {
            for (Component c : components) {
                c.sync();
            }
        }
    }

    public List<Component> components() {
        return List.copyOf(components);
    }

    /** Closes the components, last registered first. */
    @Override
    public void close() {
        for (int i = components.size() - 1; i >= 0; i--) {
            components.get(i).close();
        }
        components.clear();
    }
}
