package org.fairfabric.controller.p4rt;

import com.google.protobuf.ByteString;
import io.grpc.ManagedChannel;
import io.grpc.StatusRuntimeException;
import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import p4.config.v1.P4InfoOuterClass.P4Info;
import p4.v1.P4RuntimeOuterClass.ActionProfileGroup;
import p4.v1.P4RuntimeOuterClass.ActionProfileMember;
import p4.v1.P4RuntimeOuterClass.DigestList;
import p4.v1.P4RuntimeOuterClass.Entity;
import p4.v1.P4RuntimeOuterClass.ForwardingPipelineConfig;
import p4.v1.P4RuntimeOuterClass.MulticastGroupEntry;
import p4.v1.P4RuntimeOuterClass.PacketIn;
import p4.v1.P4RuntimeOuterClass.PacketOut;
import p4.v1.P4RuntimeOuterClass.PacketReplicationEngineEntry;
import p4.v1.P4RuntimeOuterClass.TableEntry;
import p4.v1.P4RuntimeOuterClass.Uint128;
import p4.v1.P4RuntimeOuterClass.Update;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The controller's agent for one switch. It keeps the intended state (pipeline and entities), owns
 * the device's ordered write queue (one thread: writes, reads, pipeline pushes and reconnections
 * run one at a time, in submission order), and keeps a P4Runtime session up: when the stream
 * breaks (the switch restarted or went away) it reconnects with backoff, arbitrates as primary,
 * and reconciles — pushes the pipeline when the switch's cookie differs, reads what the switch
 * holds and writes the difference — before it reports the device ready again.
 *
 * <p>Writes are checked against the intended state first (INSERT of a held entity, MODIFY or
 * DELETE of an unknown one fail locally). While the device is not ready they only change the
 * intended state and report {@code deferred}; the reconciliation delivers them.
 */
public final class DeviceAgent implements AutoCloseable {
    public static final int DEFAULT_MAX_BATCH = 500;
    private static final long MIN_BACKOFF_MS = 100;
    private static final long MAX_BACKOFF_MS = 2000;
    private static final Logger LOG = LoggerFactory.getLogger(DeviceAgent.class);

    private final String name;
    private final ManagedChannel channel;
    private final long deviceId;
    private final Uint128 electionId;
    private final DeviceListener listener;
    private final int maxBatch;
    private final ScheduledExecutorService queue;
    private final IntendedState intended = new IntendedState();
    /**
     * The keys of the entities the last converge wanted, by identity: callers that hand the same
     * entity objects again (everything but what changed) do not pay for their keys again.
     */
    private java.util.IdentityHashMap<Entity, ByteString> wantedKeys = new java.util.IdentityHashMap<>();
    private volatile P4RuntimeSession session;
    private long generation;
    private long backoffMs = MIN_BACKOFF_MS;
    private volatile boolean ready;
    private volatile boolean closed;
    private volatile long reconciliations;

    public DeviceAgent(String name, ManagedChannel channel, long deviceId, Uint128 electionId, DeviceListener listener, int maxBatch) {
        this.name = name;
        this.channel = channel;
        this.deviceId = deviceId;
        this.electionId = electionId;
        this.listener = listener;
        this.maxBatch = maxBatch;
        java.util.concurrent.ScheduledThreadPoolExecutor q = new java.util.concurrent.ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, "p4rt-" + name);
            t.setDaemon(true);
            return t;
        });
        q.setExecuteExistingDelayedTasksAfterShutdownPolicy(false); // pending reconnections die with the agent
        this.queue = q;
    }

    /** An election id that grows with wall-clock time, so a restarted controller outranks the one it replaces. */
    public static Uint128 electionIdNow() {
        return Uint128.newBuilder().setHigh(0).setLow(System.currentTimeMillis()).build();
    }

    public void start() {
        queue.execute(this::connect);
    }

    public boolean ready() {
        return ready;
    }

    /** How many times the switch has been brought to the intended state (first connection included). */
    public long reconciliations() {
        return reconciliations;
    }

    /** Sets the pipeline (P4Info and the target's device config); pushed now when connected, else on connection. */
    public CompletableFuture<Void> setPipeline(P4Info p4info, byte[] deviceConfig) {
        ForwardingPipelineConfig cfg = ForwardingPipelineConfig.newBuilder().setP4Info(p4info)
                .setP4DeviceConfig(ByteString.copyFrom(deviceConfig))
                .setCookie(ForwardingPipelineConfig.Cookie.newBuilder().setCookie(cookie(p4info, deviceConfig))).build();
        return onQueue(() -> {
            intended.setPipeline(cfg);
            if (ready) {
                reconcileOrReconnect();
            }
            return null;
        });
    }

    /** Writes a batch in order; each update gets its own result. */
    public CompletableFuture<WriteResult> write(List<Update> updates) {
        List<Update> copy = List.copyOf(updates);
        return onQueue(() -> doWrite(System.nanoTime(), copy));
    }

    /**
     * Makes the intended state exactly {@code desired} (same pipeline): writes what is new or
     * changed, then deletes what is no longer wanted. Upserts go first (members, groups, table
     * entries) and deletes last (table entries, groups, members), so a table entry never points to
     * a group that is missing or empty: a new level's group exists before its entry, an emptied
     * level's entry goes before its group.
     * Not connected: the intended state changes and the reconciliation delivers it.
     */
    public CompletableFuture<WriteResult> converge(java.util.Collection<Entity> desired) {
        List<Entity> copy = List.copyOf(desired);
        return converge(() -> copy);
    }

    /**
     * As {@link #converge(java.util.Collection)}, with the desired state taken when the write's
     * turn comes: callers that change their mind while writes queue up get one write of their
     * latest state instead of every intermediate one.
     */
    public CompletableFuture<WriteResult> converge(java.util.function.Supplier<? extends java.util.Collection<Entity>> desired) {
        return onQueue(() -> {
            long started = System.nanoTime();
            List<Entity> want = List.copyOf(desired.get());
            java.util.IdentityHashMap<Entity, ByteString> keys = new java.util.IdentityHashMap<>(want.size() * 2);
            List<Update> delta = Reconciler.converge(want, intended.byKey(), e -> keys.computeIfAbsent(e, k -> {
                ByteString known = wantedKeys.get(k);
                return known != null ? known : EntityKey.of(k);
            }));
            wantedKeys = keys;
            return doWrite(started, delta);
        });
    }

    /** Reads from the switch (not from the intended state); fails when the device is not ready. */
    public CompletableFuture<List<Entity>> read(List<Entity> queries) {
        List<Entity> copy = List.copyOf(queries);
        return onQueue(() -> {
            if (!ready) {
                throw new IllegalStateException(name + " is not connected");
            }
            return session.read(copy);
        });
    }

    /** The entities the controller intends this switch to hold. */
    public CompletableFuture<List<Entity>> intendedEntities() {
        return onQueue(() -> new ArrayList<>(intended.entities()));
    }

    /** Sends a packet out through the stream; false when the device is not ready (the packet is dropped). */
    public boolean packetOut(PacketOut packet) {
        P4RuntimeSession s = session;
        if (!ready || s == null) {
            return false;
        }
        s.packetOut(packet);
        return true;
    }

    private <T> CompletableFuture<T> onQueue(java.util.concurrent.Callable<T> work) {
        CompletableFuture<T> f = new CompletableFuture<>();
        try {
            queue.execute(() -> {
                try {
                    f.complete(work.call());
                } catch (Throwable t) {
                    f.completeExceptionally(t);
                }
            });
        } catch (java.util.concurrent.RejectedExecutionException e) {
            f.completeExceptionally(new IllegalStateException(name + " agent is closed"));
        }
        return f;
    }

    private WriteResult doWrite(long started, List<Update> updates) {
        UpdateResult[] results = new UpdateResult[updates.size()];
        IntendedState.Undo[] undos = new IntendedState.Undo[updates.size()];
        List<Integer> toSend = new ArrayList<>();
        for (int i = 0; i < updates.size(); i++) {
            Update u = updates.get(i);
            if (EntityKey.tracked(u.getEntity())) {
                UpdateResult local = intended.check(u);
                if (local != null) {
                    results[i] = local;
                    continue;
                }
                undos[i] = intended.apply(u);
            }
            toSend.add(i);
        }
        if (!ready) {
            for (int i : toSend) {
                results[i] = undos[i] != null ? UpdateResult.OK
                        : new UpdateResult(io.grpc.Status.Code.UNAVAILABLE, name + " is not connected");
            }
            long now = System.nanoTime();
            return new WriteResult(List.of(results), true, new WriteTiming(started, now, now));
        }
        long sent = System.nanoTime();
        try {
            for (int from = 0; from < toSend.size(); from += maxBatch) {
                List<Integer> chunk = toSend.subList(from, Math.min(toSend.size(), from + maxBatch));
                List<Update> batch = new ArrayList<>(chunk.size());
                chunk.forEach(i -> batch.add(updates.get(i)));
                List<UpdateResult> got = session.write(batch);
                for (int j = 0; j < chunk.size(); j++) {
                    results[chunk.get(j)] = got.get(j);
                }
            }
        } catch (StatusRuntimeException e) {
            // The switch went away mid-write: what it applied is unknown; the reconciliation after
            // reconnecting makes it match the intended state, which keeps these updates.
            LOG.warn("{}: write interrupted ({}); delivering on reconnection", name, e.getStatus());
            for (int i : toSend) {
                if (results[i] == null) {
                    results[i] = UpdateResult.OK;
                }
            }
            return new WriteResult(List.of(results), true, new WriteTiming(started, sent, System.nanoTime()));
        }
        long answered = System.nanoTime();
        for (int i = updates.size() - 1; i >= 0; i--) {
            if (!results[i].ok() && undos[i] != null) {
                intended.undo(undos[i]);
            }
        }
        return new WriteResult(List.of(results), false, new WriteTiming(started, sent, answered));
    }

    // ---- connection and reconciliation, all on the queue thread

    private void connect() {
        if (closed) {
            return;
        }
        long gen = ++generation;
        channel.resetConnectBackoff();
        P4RuntimeSession s = new P4RuntimeSession(channel, deviceId, electionId, new StreamHandler() {
            @Override
            public void onPacketIn(PacketIn packet, long receivedNanos) {
                listener.onPacketIn(packet, receivedNanos);
            }

            @Override
            public void onDigest(DigestList digest) {
                listener.onDigest(digest);
                P4RuntimeSession cur = session;
                if (cur != null) {
                    cur.ackDigest(digest.getDigestId(), digest.getListId());
                }
            }

            @Override
            public void onPrimaryChanged(boolean primary) {
                if (!primary) {
                    queue.execute(() -> lost(gen, "another controller became primary"));
                }
            }

            @Override
            public void onClosed(Throwable cause) {
                if (!closed) {
                    queue.execute(() -> lost(gen, cause.toString()));
                }
            }
        });
        session = s;
        try {
            boolean primary = s.open().get(P4RuntimeSession.CALL_SECONDS, TimeUnit.SECONDS);
            if (!primary) {
                throw new IllegalStateException("not primary (another client has a higher election id)");
            }
            reconcile();
            backoffMs = MIN_BACKOFF_MS;
            ready = true;
            reconciliations++;
            LOG.info("{}: connected as primary and reconciled ({} entities)", name, intended.size());
            listener.onReady(true);
        } catch (Exception e) {
            if (generation == gen) {
                generation++; // callbacks of the abandoned session are ignored
                s.close();
                retry("connection failed: " + rootMessage(e));
            }
        }
    }

    private void lost(long gen, String why) {
        if (gen != generation || closed) {
            return; // a session we already replaced
        }
        generation++;
        session.close();
        if (ready) {
            ready = false;
            listener.onReady(false);
        }
        retry("session lost: " + why);
    }

    private void retry(String why) {
        if (closed) {
            return;
        }
        if (backoffMs == MIN_BACKOFF_MS) {
            LOG.info("{}: {}; reconnecting (every {} ms at most)", name, why, MAX_BACKOFF_MS);
        } else {
            LOG.debug("{}: {}; reconnecting in {} ms", name, why, backoffMs);
        }
        queue.schedule(this::connect, backoffMs, TimeUnit.MILLISECONDS);
        backoffMs = Math.min(MAX_BACKOFF_MS, backoffMs * 2);
    }

    private void reconcileOrReconnect() {
        try {
            reconcile();
        } catch (RuntimeException e) {
            lost(generation, "reconciliation failed: " + rootMessage(e));
        }
    }

    /** Brings the switch to the intended state. */
    private void reconcile() {
        ForwardingPipelineConfig pipeline = intended.pipeline();
        if (pipeline == null) {
            return; // nothing intended yet
        }
        OptionalLong cookie = session.pipelineCookie();
        if (cookie.isEmpty() || cookie.getAsLong() != pipeline.getCookie().getCookie()) {
            LOG.info("{}: pushing pipeline (switch cookie {})", name, cookie.isPresent() ? Long.toHexString(cookie.getAsLong()) : "none");
            session.setPipeline(pipeline);
        }
        List<Update> delta = Reconciler.diff(intended.entities(), session.read(wildcards()));
        long failed = 0;
        for (int from = 0; from < delta.size(); from += maxBatch) {
            List<Update> chunk = delta.subList(from, Math.min(delta.size(), from + maxBatch));
            failed += session.write(chunk).stream().filter(r -> !r.ok()).count();
        }
        if (failed > 0) {
            LOG.warn("{}: {} of {} reconciliation updates were refused by the switch", name, failed, delta.size());
        }
    }

    /** Reads of everything the intended state may hold on this switch. */
    private List<Entity> wildcards() {
        List<Entity> q = new ArrayList<>();
        q.add(Entity.newBuilder().setTableEntry(TableEntry.getDefaultInstance()).build());
        boolean members = false;
        boolean groups = false;
        boolean multicast = false;
        boolean clones = false;
        for (Entity e : intended.entities()) {
            clones |= e.hasPacketReplicationEngineEntry() && e.getPacketReplicationEngineEntry().hasCloneSessionEntry();
            members |= e.hasActionProfileMember();
            groups |= e.hasActionProfileGroup();
            multicast |= e.hasPacketReplicationEngineEntry() && e.getPacketReplicationEngineEntry().hasMulticastGroupEntry();
        }
        if (members) {
            q.add(Entity.newBuilder().setActionProfileMember(ActionProfileMember.getDefaultInstance()).build());
        }
        if (groups) {
            q.add(Entity.newBuilder().setActionProfileGroup(ActionProfileGroup.getDefaultInstance()).build());
        }
        if (multicast) {
            q.add(Entity.newBuilder().setPacketReplicationEngineEntry(PacketReplicationEngineEntry.newBuilder()
                    .setMulticastGroupEntry(MulticastGroupEntry.getDefaultInstance())).build());
        }
        if (clones) {
            q.add(Entity.newBuilder().setPacketReplicationEngineEntry(PacketReplicationEngineEntry.newBuilder()
                    .setCloneSessionEntry(p4.v1.P4RuntimeOuterClass.CloneSessionEntry.getDefaultInstance())).build());
        }
        return q;
    }

    static long cookie(P4Info p4info, byte[] deviceConfig) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            sha.update(p4info.toByteArray());
            sha.update(deviceConfig);
            return ByteBuffer.wrap(sha.digest()).getLong();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String rootMessage(Throwable t) {
        while (t.getCause() != null) {
            t = t.getCause();
        }
        return t.toString();
    }

    @Override
    public void close() {
        closed = true;
        queue.execute(() -> {
            ready = false;
            if (session != null) {
                session.close();
            }
        });
        queue.shutdown();
        try {
            queue.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
