package org.fairfabric.api.store;

/** A store that forgets everything on exit: for tests and for running without a data directory. */
public final class InMemoryFabricStore implements FabricStore {
    private StoredState state = StoredState.EMPTY;

    @Override
    public synchronized StoredState load() {
        return state;
    }

    @Override
    public synchronized void append(Mutation mutation) {
        state = mutation.applyTo(state);
    }

    @Override
    public void close() {
    }
}
