package org.fairfabric.controller.p4rt;

import com.google.protobuf.Any;
import com.google.protobuf.ByteString;
import io.grpc.Status;
import io.grpc.protobuf.StatusProto;
import io.grpc.stub.StreamObserver;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;
import p4.config.v1.P4InfoOuterClass;
import p4.v1.P4RuntimeGrpc;
import p4.v1.P4RuntimeOuterClass.DigestList;
import p4.v1.P4RuntimeOuterClass.DigestListAck;
import p4.v1.P4RuntimeOuterClass.Entity;
import p4.v1.P4RuntimeOuterClass.Error;
import p4.v1.P4RuntimeOuterClass.ForwardingPipelineConfig;
import p4.v1.P4RuntimeOuterClass.GetForwardingPipelineConfigRequest;
import p4.v1.P4RuntimeOuterClass.GetForwardingPipelineConfigResponse;
import p4.v1.P4RuntimeOuterClass.MasterArbitrationUpdate;
import p4.v1.P4RuntimeOuterClass.PacketIn;
import p4.v1.P4RuntimeOuterClass.PacketOut;
import p4.v1.P4RuntimeOuterClass.ReadRequest;
import p4.v1.P4RuntimeOuterClass.ReadResponse;
import p4.v1.P4RuntimeOuterClass.SetForwardingPipelineConfigRequest;
import p4.v1.P4RuntimeOuterClass.SetForwardingPipelineConfigResponse;
import p4.v1.P4RuntimeOuterClass.StreamMessageRequest;
import p4.v1.P4RuntimeOuterClass.StreamMessageResponse;
import p4.v1.P4RuntimeOuterClass.Uint128;
import p4.v1.P4RuntimeOuterClass.Update;
import p4.v1.P4RuntimeOuterClass.WriteRequest;
import p4.v1.P4RuntimeOuterClass.WriteResponse;

/**
 * An in-process P4Runtime switch for unit tests, following the spec's rules that the controller
 * relies on: arbitration by highest election id, writes and pipeline pushes only from the primary,
 * INSERT/MODIFY/DELETE existence rules with one p4.v1.Error per update, unknown tables refused,
 * wildcard reads, a pipeline push that clears all entries, packet-in/out and digests.
 */
final class FakeP4RuntimeSwitch extends P4RuntimeGrpc.P4RuntimeImplBase {
    private final long deviceId;
    private final Map<ByteString, Entity> entities = new LinkedHashMap<>();
    private final Map<StreamObserver<StreamMessageResponse>, Uint128> clients = new LinkedHashMap<>();
    private StreamObserver<StreamMessageResponse> primary;
    private ForwardingPipelineConfig pipeline;
    final List<PacketOut> packetOuts = new CopyOnWriteArrayList<>();
    final List<DigestListAck> digestAcks = new CopyOnWriteArrayList<>();
    final List<WriteRequest> writes = new CopyOnWriteArrayList<>();
    volatile int pipelinePushes;

    FakeP4RuntimeSwitch(long deviceId) {
        this.deviceId = deviceId;
    }

    synchronized List<Entity> entities() {
        return new ArrayList<>(entities.values());
    }

    synchronized boolean hasPipeline() {
        return pipeline != null;
    }

    /** Installs a pipeline and entries as if a previous controller had written them. */
    synchronized void preload(ForwardingPipelineConfig config, List<Entity> held) {
        pipeline = config;
        entities.clear();
        held.forEach(e -> entities.put(EntityKey.of(e), e));
    }

    synchronized void sendPacketIn(byte[] payload) {
        sendPacketIn(payload, List.of());
    }

    synchronized void sendPacketIn(byte[] payload, List<p4.v1.P4RuntimeOuterClass.PacketMetadata> metadata) {
        if (primary != null) {
            primary.onNext(StreamMessageResponse.newBuilder().setPacket(PacketIn.newBuilder()
                    .setPayload(ByteString.copyFrom(payload)).addAllMetadata(metadata)).build());
        }
    }

    synchronized void sendDigest(int digestId, long listId, byte[] data) {
        if (primary != null) {
            primary.onNext(StreamMessageResponse.newBuilder().setDigest(DigestList.newBuilder().setDigestId(digestId).setListId(listId)
                    .addData(p4.v1.P4DataOuterClass.P4Data.newBuilder().setBitstring(ByteString.copyFrom(data)))).build());
        }
    }

    @Override
    public StreamObserver<StreamMessageRequest> streamChannel(StreamObserver<StreamMessageResponse> out) {
        return new StreamObserver<>() {
            @Override
            public void onNext(StreamMessageRequest m) {
                switch (m.getUpdateCase()) {
                    case ARBITRATION:
                        arbitrate(out, m.getArbitration());
                        break;
                    case PACKET:
                        packetOuts.add(m.getPacket());
                        break;
                    case DIGEST_ACK:
                        digestAcks.add(m.getDigestAck());
                        break;
                    default:
                        break;
                }
            }

            @Override
            public void onError(Throwable t) {
                leave(out);
            }

            @Override
            public void onCompleted() {
                leave(out);
                try {
                    out.onCompleted();
                } catch (RuntimeException ignored) {
                    // already closed
                }
            }
        };
    }

    private synchronized void arbitrate(StreamObserver<StreamMessageResponse> out, MasterArbitrationUpdate a) {
        if (a.getDeviceId() != deviceId) {
            out.onError(Status.NOT_FOUND.withDescription("no device " + a.getDeviceId()).asRuntimeException());
            return;
        }
        clients.put(out, a.getElectionId());
        elect();
    }

    private synchronized void leave(StreamObserver<StreamMessageResponse> out) {
        clients.remove(out);
        if (out == primary) {
            primary = null;
            elect();
        }
    }

    private void elect() {
        StreamObserver<StreamMessageResponse> best = null;
        for (Map.Entry<StreamObserver<StreamMessageResponse>, Uint128> c : clients.entrySet()) {
            if (best == null || greater(c.getValue(), clients.get(best))) {
                best = c.getKey();
            }
        }
        primary = best;
        if (best == null) {
            return;
        }
        Uint128 primaryId = clients.get(best);
        for (Map.Entry<StreamObserver<StreamMessageResponse>, Uint128> c : clients.entrySet()) {
            int code = c.getKey() == best ? 0 : Status.Code.ALREADY_EXISTS.value();
            c.getKey().onNext(StreamMessageResponse.newBuilder().setArbitration(MasterArbitrationUpdate.newBuilder()
                    .setDeviceId(deviceId).setElectionId(primaryId).setStatus(com.google.rpc.Status.newBuilder().setCode(code))).build());
        }
    }

    private static boolean greater(Uint128 a, Uint128 b) {
        return Long.compareUnsigned(a.getHigh(), b.getHigh()) > 0
                || (a.getHigh() == b.getHigh() && Long.compareUnsigned(a.getLow(), b.getLow()) > 0);
    }

    private boolean isPrimary(Uint128 election) {
        return primary != null && clients.get(primary).equals(election);
    }

    @Override
    public synchronized void setForwardingPipelineConfig(SetForwardingPipelineConfigRequest r, StreamObserver<SetForwardingPipelineConfigResponse> out) {
        if (!isPrimary(r.getElectionId())) {
            out.onError(Status.PERMISSION_DENIED.withDescription("not primary").asRuntimeException());
            return;
        }
        pipeline = r.getConfig();
        entities.clear();
        pipelinePushes++;
        out.onNext(SetForwardingPipelineConfigResponse.getDefaultInstance());
        out.onCompleted();
    }

    @Override
    public synchronized void getForwardingPipelineConfig(GetForwardingPipelineConfigRequest r, StreamObserver<GetForwardingPipelineConfigResponse> out) {
        GetForwardingPipelineConfigResponse.Builder b = GetForwardingPipelineConfigResponse.newBuilder();
        if (pipeline != null) {
            b.setConfig(ForwardingPipelineConfig.newBuilder().setCookie(pipeline.getCookie()));
        }
        out.onNext(b.build());
        out.onCompleted();
    }

    @Override
    public synchronized void write(WriteRequest r, StreamObserver<WriteResponse> out) {
        if (!isPrimary(r.getElectionId())) {
            out.onError(Status.PERMISSION_DENIED.withDescription("not primary").asRuntimeException());
            return;
        }
        if (pipeline == null) {
            out.onError(Status.FAILED_PRECONDITION.withDescription("no pipeline").asRuntimeException());
            return;
        }
        writes.add(r);
        Set<Integer> tables = pipeline.getP4Info().getTablesList().stream().map(t -> t.getPreamble().getId()).collect(Collectors.toSet());
        List<Error> errors = new ArrayList<>();
        boolean failed = false;
        for (Update u : r.getUpdatesList()) {
            Status.Code code = apply(u, tables);
            failed |= code != Status.Code.OK;
            errors.add(Error.newBuilder().setCanonicalCode(code.value()).setMessage(code == Status.Code.OK ? "" : "refused: " + code).build());
        }
        if (!failed) {
            out.onNext(WriteResponse.getDefaultInstance());
            out.onCompleted();
            return;
        }
        com.google.rpc.Status.Builder st = com.google.rpc.Status.newBuilder().setCode(Status.Code.UNKNOWN.value()).setMessage("some updates failed");
        errors.forEach(e -> st.addDetails(Any.pack(e)));
        out.onError(StatusProto.toStatusRuntimeException(st.build()));
    }

    private Status.Code apply(Update u, Set<Integer> tables) {
        Entity e = u.getEntity();
        if (e.hasTableEntry() && !tables.contains(e.getTableEntry().getTableId())) {
            return Status.Code.NOT_FOUND;
        }
        ByteString key = EntityKey.of(e);
        boolean present = entities.containsKey(key);
        switch (u.getType()) {
            case INSERT:
                if (present) {
                    return Status.Code.ALREADY_EXISTS;
                }
                entities.put(key, e);
                return Status.Code.OK;
            case MODIFY:
                if (!present && !EntityKey.modifyOnly(e)) {
                    return Status.Code.NOT_FOUND;
                }
                entities.put(key, e);
                return Status.Code.OK;
            case DELETE:
                return entities.remove(key) == null ? Status.Code.NOT_FOUND : Status.Code.OK;
            default:
                return Status.Code.INVALID_ARGUMENT;
        }
    }

    @Override
    public synchronized void read(ReadRequest r, StreamObserver<ReadResponse> out) {
        if (pipeline == null) {
            out.onError(Status.FAILED_PRECONDITION.withDescription("no pipeline").asRuntimeException());
            return;
        }
        ReadResponse.Builder b = ReadResponse.newBuilder();
        for (Entity q : r.getEntitiesList()) {
            for (Entity e : entities.values()) {
                if (e.getEntityCase() == q.getEntityCase() && !EntityKey.modifyOnly(e)
                        && (!q.hasTableEntry() || q.getTableEntry().getTableId() == 0 || q.getTableEntry().getTableId() == e.getTableEntry().getTableId())) {
                    b.addEntities(e);
                }
            }
        }
        out.onNext(b.build());
        out.onCompleted();
    }

    /** A P4Info with these tables and the fabric pipeline's controller headers (packet_in: ingress_port 1, reason 2; packet_out: egress_port 1, do_forward 2). */
    static P4InfoOuterClass.P4Info p4info(int... tableIds) {
        P4InfoOuterClass.P4Info.Builder b = P4InfoOuterClass.P4Info.newBuilder();
        b.addControllerPacketMetadata(P4InfoOuterClass.ControllerPacketMetadata.newBuilder()
                .setPreamble(P4InfoOuterClass.Preamble.newBuilder().setId(1).setName("packet_in"))
                .addMetadata(P4InfoOuterClass.ControllerPacketMetadata.Metadata.newBuilder().setId(1).setName("ingress_port").setBitwidth(9))
                .addMetadata(P4InfoOuterClass.ControllerPacketMetadata.Metadata.newBuilder().setId(2).setName("reason").setBitwidth(8)));
        b.addControllerPacketMetadata(P4InfoOuterClass.ControllerPacketMetadata.newBuilder()
                .setPreamble(P4InfoOuterClass.Preamble.newBuilder().setId(2).setName("packet_out"))
                .addMetadata(P4InfoOuterClass.ControllerPacketMetadata.Metadata.newBuilder().setId(1).setName("egress_port").setBitwidth(9))
                .addMetadata(P4InfoOuterClass.ControllerPacketMetadata.Metadata.newBuilder().setId(2).setName("do_forward").setBitwidth(1)));
        for (int id : tableIds) {
            b.addTables(P4InfoOuterClass.Table.newBuilder().setPreamble(P4InfoOuterClass.Preamble.newBuilder().setId(id).setName("t" + id)));
        }
        return b.build();
    }
}
