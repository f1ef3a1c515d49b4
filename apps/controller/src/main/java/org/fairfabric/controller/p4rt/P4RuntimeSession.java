package org.fairfabric.controller.p4rt;

import io.grpc.ManagedChannel;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.StreamObserver;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import p4.v1.P4RuntimeGrpc;
import p4.v1.P4RuntimeOuterClass.DigestListAck;
import p4.v1.P4RuntimeOuterClass.Entity;
import p4.v1.P4RuntimeOuterClass.ForwardingPipelineConfig;
import p4.v1.P4RuntimeOuterClass.GetForwardingPipelineConfigRequest;
import p4.v1.P4RuntimeOuterClass.GetForwardingPipelineConfigResponse;
import p4.v1.P4RuntimeOuterClass.MasterArbitrationUpdate;
import p4.v1.P4RuntimeOuterClass.PacketOut;
import p4.v1.P4RuntimeOuterClass.ReadRequest;
import p4.v1.P4RuntimeOuterClass.ReadResponse;
import p4.v1.P4RuntimeOuterClass.SetForwardingPipelineConfigRequest;
import p4.v1.P4RuntimeOuterClass.StreamMessageRequest;
import p4.v1.P4RuntimeOuterClass.StreamMessageResponse;
import p4.v1.P4RuntimeOuterClass.Uint128;
import p4.v1.P4RuntimeOuterClass.Update;
import p4.v1.P4RuntimeOuterClass.WriteRequest;

/**
 * One P4Runtime session with one switch: the bidirectional stream (arbitration, packet-in/out,
 * digests) and the unary calls, all as the same client (device id, election id, default role).
 * Blocking calls; its owner ({@link DeviceAgent}) serialises them.
 */
final class P4RuntimeSession {
    static final long CALL_SECONDS = 20;

    private final P4RuntimeGrpc.P4RuntimeBlockingStub blocking;
    private final P4RuntimeGrpc.P4RuntimeStub async;
    private final long deviceId;
    private final Uint128 electionId;
    private final StreamHandler handler;
    private final CompletableFuture<Boolean> firstArbitration = new CompletableFuture<>();
    private StreamObserver<StreamMessageRequest> requests;
    private volatile boolean primary;

    P4RuntimeSession(ManagedChannel channel, long deviceId, Uint128 electionId, StreamHandler handler) {
        this.blocking = P4RuntimeGrpc.newBlockingStub(channel);
        this.async = P4RuntimeGrpc.newStub(channel);
        this.deviceId = deviceId;
        this.electionId = electionId;
        this.handler = handler;
    }

    /** Opens the stream and arbitrates; the future tells whether this client is primary. */
    CompletableFuture<Boolean> open() {
        requests = async.streamChannel(new StreamObserver<>() {
            @Override
            public void onNext(StreamMessageResponse m) {
                long received = System.nanoTime();
                switch (m.getUpdateCase()) {
                    case ARBITRATION:
                        MasterArbitrationUpdate a = m.getArbitration();
                        boolean isPrimary = a.getStatus().getCode() == 0 && a.getElectionId().equals(electionId);
                        boolean changed = isPrimary != primary;
                        primary = isPrimary;
                        if (!firstArbitration.complete(isPrimary) && changed) {
                            handler.onPrimaryChanged(isPrimary);
                        }
                        break;
                    case PACKET:
                        handler.onPacketIn(m.getPacket(), received);
                        break;
                    case DIGEST:
                        handler.onDigest(m.getDigest());
                        break;
                    default:
                        break; // idle timeouts and stream errors are not used by fairfabric
                }
            }

            @Override
            public void onError(Throwable t) {
                primary = false;
                firstArbitration.completeExceptionally(t);
                handler.onClosed(t);
            }

            @Override
            public void onCompleted() {
                primary = false;
                IllegalStateException t = new IllegalStateException("the switch closed the stream");
                firstArbitration.completeExceptionally(t);
                handler.onClosed(t);
            }
        });
        send(StreamMessageRequest.newBuilder().setArbitration(MasterArbitrationUpdate.newBuilder()
                .setDeviceId(deviceId).setElectionId(electionId)).build());
        return firstArbitration;
    }

    boolean primary() {
        return primary;
    }

    private synchronized void send(StreamMessageRequest m) {
        requests.onNext(m);
    }

    /** The cookie of the pipeline the switch runs, empty when it runs none. */
    OptionalLong pipelineCookie() {
        try {
            GetForwardingPipelineConfigResponse r = blocking.withDeadlineAfter(CALL_SECONDS, TimeUnit.SECONDS)
                    .getForwardingPipelineConfig(GetForwardingPipelineConfigRequest.newBuilder().setDeviceId(deviceId)
                            .setResponseType(GetForwardingPipelineConfigRequest.ResponseType.COOKIE_ONLY).build());
            return r.hasConfig() && r.getConfig().hasCookie() ? OptionalLong.of(r.getConfig().getCookie().getCookie()) : OptionalLong.empty();
        } catch (StatusRuntimeException e) {
            if (e.getStatus().getCode() == io.grpc.Status.Code.FAILED_PRECONDITION || e.getStatus().getCode() == io.grpc.Status.Code.NOT_FOUND) {
                return OptionalLong.empty();
            }
            throw e;
        }
    }

    void setPipeline(ForwardingPipelineConfig config) {
        blocking.withDeadlineAfter(CALL_SECONDS * 3, TimeUnit.SECONDS).setForwardingPipelineConfig(
                SetForwardingPipelineConfigRequest.newBuilder().setDeviceId(deviceId).setElectionId(electionId)
                        .setAction(SetForwardingPipelineConfigRequest.Action.VERIFY_AND_COMMIT).setConfig(config).build());
    }

    /** Writes one batch (CONTINUE_ON_ERROR); one result per update, in order. */
    List<UpdateResult> write(List<Update> updates) {
        try {
            blocking.withDeadlineAfter(CALL_SECONDS, TimeUnit.SECONDS).write(WriteRequest.newBuilder()
                    .setDeviceId(deviceId).setElectionId(electionId).addAllUpdates(updates).build());
            return java.util.Collections.nCopies(updates.size(), UpdateResult.OK);
        } catch (StatusRuntimeException e) {
            if (e.getStatus().getCode() == io.grpc.Status.Code.UNAVAILABLE) {
                throw e; // the switch is gone: nothing is known about this batch
            }
            return WriteErrors.perUpdate(e, updates.size());
        }
    }

    List<Entity> read(List<Entity> queries) {
        List<Entity> out = new ArrayList<>();
        Iterator<ReadResponse> it = blocking.withDeadlineAfter(CALL_SECONDS, TimeUnit.SECONDS)
                .read(ReadRequest.newBuilder().setDeviceId(deviceId).addAllEntities(queries).build());
        while (it.hasNext()) {
            out.addAll(it.next().getEntitiesList());
        }
        return out;
    }

    void packetOut(PacketOut packet) {
        send(StreamMessageRequest.newBuilder().setPacket(packet).build());
    }

    void ackDigest(int digestId, long listId) {
        send(StreamMessageRequest.newBuilder().setDigestAck(DigestListAck.newBuilder().setDigestId(digestId).setListId(listId)).build());
    }

    void close() {
        try {
            if (requests != null) {
                synchronized (this) {
                    requests.onCompleted();
                }
            }
        } catch (RuntimeException ignored) {
            // the stream is already broken
        }
    }
}
