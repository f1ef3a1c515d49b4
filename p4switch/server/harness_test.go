package server

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"testing"
	"time"

	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	"github.com/fairfabric/fairfabric/p4switch/netio"
	"github.com/fairfabric/fairfabric/p4switch/server/internal/fakepipe"
	sw "github.com/fairfabric/fairfabric/p4switch/switch"
	"github.com/fairfabric/fairfabric/p4switch/target"
	"github.com/fairfabric/fairfabric/p4switch/tm"
)

const (
	testDevice = 7
	testCPU    = 255
)

// harness is a running switch with three in-memory ports, its P4Runtime
// server on a loopback TCP port, and a client connection.
type harness struct {
	t      testing.TB
	sw     *sw.Switch
	srv    *Server
	client p4v1.P4RuntimeClient
	conn   *grpc.ClientConn
	hosts  map[uint32]*netio.MemPort // the far end of each switch port
	frames map[uint32]chan []byte    // frames arriving at each host
}

func newHarness(t testing.TB, loader target.Loader) *harness {
	t.Helper()
	h := &harness{t: t, hosts: map[uint32]*netio.MemPort{}, frames: map[uint32]chan []byte{}}
	ports := map[uint32]netio.Port{}
	for _, n := range []uint32{1, 2, 3} {
		swEnd, hostEnd := netio.Pipe("sw", "host", 256)
		ports[n], h.hosts[n] = swEnd, hostEnd
		ch := make(chan []byte, 256)
		h.frames[n] = ch
		go func() {
			bufs, lens := [][]byte{make([]byte, netio.MaxFrame)}, []int{0}
			for {
				k, err := hostEnd.ReadBatch(bufs, lens)
				if err != nil {
					return
				}
				if k == 1 {
					ch <- append([]byte(nil), bufs[0][:lens[0]]...)
				}
			}
		}()
	}
	s, err := sw.New(sw.Config{Ports: ports, CPUPort: testCPU, Queues: map[uint32]tm.PortConfig{}})
	if err != nil {
		t.Fatal(err)
	}
	s.Start()
	h.sw = s
	h.srv = New(Options{DeviceID: testDevice, Loader: loader, Switch: s, MaxBatch: 5000, Log: slog.New(slog.NewTextHandler(io.Discard, nil))})
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	g := grpc.NewServer(grpc.MaxRecvMsgSize(64<<20), grpc.UnaryInterceptor(h.srv.TimeWrites))
	h.srv.Register(g)
	go g.Serve(lis)
	conn, err := grpc.Dial(lis.Addr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithDefaultCallOptions(grpc.MaxCallSendMsgSize(64<<20)))
	if err != nil {
		t.Fatal(err)
	}
	h.client, h.conn = p4v1.NewP4RuntimeClient(conn), conn
	t.Cleanup(func() {
		conn.Close()
		g.Stop()
		h.srv.Close()
		s.Stop()
		for _, p := range h.hosts {
			p.Close()
		}
	})
	return h
}

// stream is one arbitrated StreamChannel.
type stream struct {
	t      testing.TB
	s      p4v1.P4Runtime_StreamChannelClient
	msgs   chan *p4v1.StreamMessageResponse
	err    chan error
	cancel context.CancelFunc
}

func (h *harness) open(electionID uint64) *stream {
	h.t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	s, err := h.client.StreamChannel(ctx)
	if err != nil {
		h.t.Fatal(err)
	}
	st := &stream{t: h.t, s: s, msgs: make(chan *p4v1.StreamMessageResponse, 100), err: make(chan error, 1), cancel: cancel}
	h.t.Cleanup(cancel)
	go func() {
		for {
			m, err := s.Recv()
			if err != nil {
				st.err <- err
				return
			}
			st.msgs <- m
		}
	}()
	st.arbitrate(electionID)
	return st
}

func (st *stream) arbitrate(electionID uint64) {
	st.t.Helper()
	err := st.s.Send(&p4v1.StreamMessageRequest{Update: &p4v1.StreamMessageRequest_Arbitration{Arbitration: &p4v1.MasterArbitrationUpdate{
		DeviceId: testDevice, ElectionId: &p4v1.Uint128{Low: electionID}}}})
	if err != nil {
		st.t.Fatal(err)
	}
}

// next waits for the next message of the wanted kind, skipping others.
func next[T any](st *stream, pick func(*p4v1.StreamMessageResponse) (T, bool)) T {
	st.t.Helper()
	deadline := time.After(5 * time.Second)
	for {
		select {
		case m := <-st.msgs:
			if v, ok := pick(m); ok {
				return v
			}
		case err := <-st.err:
			st.t.Fatalf("stream ended: %v", err)
		case <-deadline:
			st.t.Fatal("timed out waiting for a stream message")
		}
	}
}

func (st *stream) arbitration() *p4v1.MasterArbitrationUpdate {
	st.t.Helper()
	return next(st, func(m *p4v1.StreamMessageResponse) (*p4v1.MasterArbitrationUpdate, bool) {
		return m.GetArbitration(), m.GetArbitration() != nil
	})
}

// primary opens a stream that becomes primary with the given election id.
func (h *harness) primary(electionID uint64) *stream {
	h.t.Helper()
	st := h.open(electionID)
	if a := st.arbitration(); a.Status.GetCode() != 0 {
		h.t.Fatalf("client %d is not primary: %v", electionID, a.Status)
	}
	return st
}

// forwardingToB makes client 1 primary, commits the fake pipeline and forwards macB to port 2.
func (h *harness) forwardingToB() *stream {
	h.t.Helper()
	st := h.primary(1)
	if err := h.setPipeline(1, p4v1.SetForwardingPipelineConfigRequest_VERIFY_AND_COMMIT, fakeConfig); err != nil {
		h.t.Fatal(err)
	}
	if err := h.write(1, dmac(p4v1.Update_INSERT, macB, []byte{2})); err != nil {
		h.t.Fatal(err)
	}
	return st
}

func (h *harness) setPipeline(electionID uint64, action p4v1.SetForwardingPipelineConfigRequest_Action, config []byte) error {
	_, err := h.client.SetForwardingPipelineConfig(context.Background(), &p4v1.SetForwardingPipelineConfigRequest{
		DeviceId: testDevice, ElectionId: &p4v1.Uint128{Low: electionID}, Action: action,
		Config: &p4v1.ForwardingPipelineConfig{P4DeviceConfig: config, Cookie: &p4v1.ForwardingPipelineConfig_Cookie{Cookie: 42}}})
	return err
}

func (h *harness) write(electionID uint64, updates ...*p4v1.Update) error {
	_, err := h.client.Write(context.Background(), &p4v1.WriteRequest{DeviceId: testDevice,
		ElectionId: &p4v1.Uint128{Low: electionID}, Updates: updates})
	return err
}

func (h *harness) read(entities ...*p4v1.Entity) ([]*p4v1.Entity, error) {
	rs, err := h.client.Read(context.Background(), &p4v1.ReadRequest{DeviceId: testDevice, Entities: entities})
	if err != nil {
		return nil, err
	}
	var out []*p4v1.Entity
	for {
		r, err := rs.Recv()
		if err != nil {
			if errors.Is(err, io.EOF) {
				return out, nil
			}
			return out, err
		}
		out = append(out, r.Entities...)
	}
}

// dmac builds an update of the fake program's dmac table.
func dmac(t p4v1.Update_Type, mac []byte, port []byte) *p4v1.Update {
	e := &p4v1.TableEntry{TableId: fakepipe.TableDmac,
		Match: []*p4v1.FieldMatch{{FieldId: 1, FieldMatchType: &p4v1.FieldMatch_Exact_{Exact: &p4v1.FieldMatch_Exact{Value: mac}}}}}
	if port != nil {
		e.Action = &p4v1.TableAction{Type: &p4v1.TableAction_Action{Action: &p4v1.Action{ActionId: fakepipe.ActionForward,
			Params: []*p4v1.Action_Param{{ParamId: 1, Value: port}}}}}
	}
	return &p4v1.Update{Type: t, Entity: &p4v1.Entity{Entity: &p4v1.Entity_TableEntry{TableEntry: e}}}
}

// receive waits for a frame on a host port.
func (h *harness) receive(port uint32, within time.Duration) ([]byte, bool) {
	select {
	case f := <-h.frames[port]:
		return f, true
	case <-time.After(within):
		return nil, false
	}
}

// send puts a frame on the wire towards switch port `port`.
func (h *harness) send(port uint32, frame []byte) {
	h.t.Helper()
	if err := h.hosts[port].WriteBatch([][]byte{frame}); err != nil {
		h.t.Fatal(err)
	}
}
