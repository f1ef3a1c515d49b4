package org.fairfabric.api.store;

/**
 * The system of record for {@link StoredState}. The embedded controller keeps it in a journal
 * file; ONOS would keep it in its distributed stores.
 */
public interface FabricStore extends AutoCloseable {
    /** The state as of the last acknowledged {@link #append}. */
    StoredState load();

    /**
     * Makes {@code mutation} durable. When this returns, the change survives a crash of the
     * process; when it throws, the stored state is as before.
     */
    void append(Mutation mutation);

    @Override
    void close();
}
