package server

import (
	"context"
	"math/rand/v2"
	"testing"
	"time"

	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/protobuf/proto"

	"github.com/fairfabric/fairfabric/p4switch/server/internal/fakepipe"
	"github.com/fairfabric/fairfabric/p4switch/target"
)

// mutate returns a copy of a valid update with random damage: random ids,
// oversized values, missing parts or random bytes reinterpreted.
func mutate(r *rand.Rand, base *p4v1.Update) *p4v1.Update {
	u := proto.Clone(base).(*p4v1.Update)
	te := u.GetEntity().GetTableEntry()
	switch r.IntN(8) {
	case 0:
		te.TableId = r.Uint32()
	case 1:
		big := make([]byte, r.IntN(5000))
		for i := range big {
			big[i] = byte(r.Uint32())
		}
		te.Match[0].GetExact().Value = big
	case 2:
		te.Match = nil
	case 3:
		te.Action = nil
	case 4:
		u.Type = p4v1.Update_Type(r.Int32N(10))
	case 5:
		te.GetAction().GetAction().ActionId = r.Uint32()
	case 6:
		te.GetAction().GetAction().Params = append(te.GetAction().GetAction().Params, &p4v1.Action_Param{ParamId: r.Uint32(), Value: []byte{1}})
	case 7:
		raw := make([]byte, r.IntN(200))
		for i := range raw {
			raw[i] = byte(r.Uint32())
		}
		n := &p4v1.Update{}
		if proto.Unmarshal(raw, n) == nil {
			return n
		}
	}
	return u
}

// TestMalformedRequestsNeverWedge throws damaged writes, reads, stream
// messages and an oversized batch at the server; each gets an error or a
// success, and the switch still forwards and answers afterwards.
func TestMalformedRequestsNeverWedge(t *testing.T) {
	h := newHarness(t, fakepipe.Loader)
	st := h.primary(1)
	if err := h.setPipeline(1, p4v1.SetForwardingPipelineConfigRequest_VERIFY_AND_COMMIT, fakeConfig); err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(1, 2))
	base := dmac(p4v1.Update_INSERT, macB, []byte{2})
	for i := 0; i < 300; i++ {
		batch := make([]*p4v1.Update, 1+r.IntN(4))
		for j := range batch {
			batch[j] = mutate(r, base)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		_, err := h.client.Write(ctx, &p4v1.WriteRequest{DeviceId: testDevice, ElectionId: &p4v1.Uint128{Low: 1}, Updates: batch})
		cancel()
		if code(err) == codes.DeadlineExceeded || code(err) == codes.Unavailable {
			t.Fatalf("write %d wedged the server: %v", i, err)
		}
		ent := &p4v1.Entity{}
		raw := make([]byte, r.IntN(100))
		for k := range raw {
			raw[k] = byte(r.Uint32())
		}
		if proto.Unmarshal(raw, ent) == nil {
			if _, err := h.read(ent); code(err) == codes.DeadlineExceeded || code(err) == codes.Unavailable {
				t.Fatalf("read %d wedged the server: %v", i, err)
			}
		}
		msg := &p4v1.StreamMessageRequest{}
		if proto.Unmarshal(raw, msg) == nil && msg.GetArbitration() == nil {
			st.s.Send(msg)
		}
	}
	// Raw bytes that are not protobuf at all, on every unary method.
	for i := 0; i < 60; i++ {
		raw := make([]byte, 1+r.IntN(300))
		for k := range raw {
			raw[k] = byte(r.Uint32())
		}
		method := []string{"Write", "SetForwardingPipelineConfig", "GetForwardingPipelineConfig", "Capabilities"}[i%4]
		var out rawMessage
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		err := h.conn.Invoke(ctx, "/p4.v1.P4Runtime/"+method, rawMessage(raw), &out, grpc.ForceCodec(rawCodec{}))
		cancel()
		if code(err) == codes.DeadlineExceeded || code(err) == codes.Unavailable {
			t.Fatalf("raw bytes to %s wedged the server: %v", method, err)
		}
	}
	// A batch above the limit is refused as a whole.
	huge := make([]*p4v1.Update, 5001)
	for i := range huge {
		huge[i] = base
	}
	if err := h.write(1, huge...); code(err) != codes.ResourceExhausted {
		t.Fatalf("huge batch: %v, want RESOURCE_EXHAUSTED", err)
	}
	// Still alive: a clean table, a valid insert, and forwarding.
	h.write(1, dmac(p4v1.Update_DELETE, macB, nil))
	if err := h.write(1, base); err != nil {
		t.Fatalf("valid write after the storm: %v", err)
	}
	f := ethFrame(macB, macA, "after")
	h.send(1, f)
	if _, ok := h.receive(2, 5*time.Second); !ok {
		t.Fatal("switch stopped forwarding after malformed requests")
	}
}

// FuzzWriteUpdate feeds arbitrary bytes, decoded as an Update, to a
// running server. `go test` runs the seeds; `go test -fuzz` explores.
func FuzzWriteUpdate(f *testing.F) {
	seed, _ := proto.Marshal(dmac(p4v1.Update_INSERT, macB, []byte{2}))
	f.Add(seed)
	f.Add([]byte{0x0a, 0x02, 0x08, 0x01})
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, raw []byte) {
		u := &p4v1.Update{}
		if proto.Unmarshal(raw, u) != nil {
			return
		}
		srv := New(Options{DeviceID: testDevice, Loader: fakepipe.Loader, Switch: nopSwitch{}})
		if err := srv.LoadAndCommit(fakeConfig); err != nil {
			t.Fatal(err)
		}
		l := srv.cur.Load()
		_ = srv.writeOne(l, u) // must not panic
		_ = readOne(l, u.GetEntity(), func(*p4v1.Entity) error { return nil })
	})
}

// nopSwitch is a data plane that drops everything.
type nopSwitch struct{}

func (nopSwitch) SetPipeline(target.Pipeline) error  { return nil }
func (nopSwitch) InjectFromCPU([]byte) error         { return nil }
func (nopSwitch) OnPacketIn(func([]byte, time.Time)) {}
func (nopSwitch) OnDigest(func([]target.Digest))     {}
func (nopSwitch) CPUPort() uint32                    { return testCPU }

// rawMessage and rawCodec send bytes to a gRPC method unencoded.
type rawMessage []byte

type rawCodec struct{}

func (rawCodec) Marshal(v any) ([]byte, error) { return v.(rawMessage), nil }
func (rawCodec) Unmarshal(data []byte, v any) error {
	*v.(*rawMessage) = append([]byte(nil), data...)
	return nil
}
func (rawCodec) Name() string { return "proto" }
