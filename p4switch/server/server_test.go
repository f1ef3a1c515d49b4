package server

import (
	"bytes"
	"context"
	"testing"
	"time"

	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	"github.com/fairfabric/fairfabric/p4switch/server/internal/fakepipe"
)

var fakeConfig = []byte("fake-l2")

var (
	macA = []byte{0x02, 0, 0, 0, 0, 0x0a}
	macB = []byte{0x02, 0, 0, 0, 0, 0x0b}
)

func ethFrame(dst, src []byte, payload string) []byte {
	f := append(append(append([]byte(nil), dst...), src...), 0x88, 0xb5)
	return append(f, payload...)
}

func code(err error) codes.Code { return status.Code(err) }

func TestCapabilities(t *testing.T) {
	h := newHarness(t, fakepipe.Loader)
	r, err := h.client.Capabilities(context.Background(), &p4v1.CapabilitiesRequest{})
	if err != nil || r.P4RuntimeApiVersion != APIVersion {
		t.Fatalf("Capabilities = %v, %v", r, err)
	}
}

func TestArbitration(t *testing.T) {
	h := newHarness(t, fakepipe.Loader)
	a := h.primary(1)
	b := h.open(2)
	if got := b.arbitration(); got.Status.GetCode() != int32(codes.OK) || got.ElectionId.GetLow() != 2 {
		t.Fatalf("higher election id: %v", got)
	}
	if got := a.arbitration(); got.Status.GetCode() != int32(codes.AlreadyExists) || got.ElectionId.GetLow() != 2 {
		t.Fatalf("old primary was told %v, want ALREADY_EXISTS with id 2", got)
	}
	if err := h.setPipeline(1, p4v1.SetForwardingPipelineConfigRequest_VERIFY_AND_COMMIT, fakeConfig); code(err) != codes.PermissionDenied {
		t.Fatalf("backup pipeline push: %v, want PERMISSION_DENIED", err)
	}
	if err := h.setPipeline(2, p4v1.SetForwardingPipelineConfigRequest_VERIFY_AND_COMMIT, fakeConfig); err != nil {
		t.Fatal(err)
	}
	if err := h.write(1, dmac(p4v1.Update_INSERT, macA, []byte{1})); code(err) != codes.PermissionDenied {
		t.Fatalf("backup write: %v, want PERMISSION_DENIED", err)
	}
	if err := h.write(2, dmac(p4v1.Update_INSERT, macA, []byte{1})); err != nil {
		t.Fatalf("primary write: %v", err)
	}
	// The primary leaves: everyone left hears there is no primary.
	b.cancel()
	if got := a.arbitration(); got.Status.GetCode() != int32(codes.NotFound) {
		t.Fatalf("after the primary left: %v, want NOT_FOUND", got)
	}
	if err := h.write(2, dmac(p4v1.Update_INSERT, macB, []byte{1})); code(err) != codes.PermissionDenied {
		t.Fatalf("write with the departed primary's id: %v", err)
	}
	// Re-arbitrating with the highest id seen makes a client primary again.
	a.arbitrate(2)
	if got := a.arbitration(); got.Status.GetCode() != int32(codes.OK) {
		t.Fatalf("re-arbitration: %v", got)
	}
}

func TestArbitrationRejectsDuplicateIDAndWrongDevice(t *testing.T) {
	h := newHarness(t, fakepipe.Loader)
	h.primary(5)
	dup := h.open(5)
	select {
	case err := <-dup.err:
		if code(err) != codes.InvalidArgument {
			t.Fatalf("duplicate election id: %v, want INVALID_ARGUMENT", err)
		}
	case m := <-dup.msgs:
		t.Fatalf("duplicate election id got %v", m)
	case <-time.After(5 * time.Second):
		t.Fatal("no answer to a duplicate election id")
	}
	s, _ := h.client.StreamChannel(context.Background())
	s.Send(&p4v1.StreamMessageRequest{Update: &p4v1.StreamMessageRequest_Arbitration{Arbitration: &p4v1.MasterArbitrationUpdate{DeviceId: 99}}})
	if _, err := s.Recv(); code(err) != codes.NotFound {
		t.Fatalf("wrong device id: %v, want NOT_FOUND", err)
	}
}

func TestPipelineConfigActions(t *testing.T) {
	h := newHarness(t, fakepipe.Loader)
	h.primary(1)
	if err := h.write(1, dmac(p4v1.Update_INSERT, macA, []byte{1})); code(err) != codes.FailedPrecondition {
		t.Fatalf("write before a pipeline: %v", err)
	}
	steps := []struct {
		name   string
		action p4v1.SetForwardingPipelineConfigRequest_Action
		config []byte
		want   codes.Code
	}{
		{"verify garbage", p4v1.SetForwardingPipelineConfigRequest_VERIFY, []byte("garbage"), codes.InvalidArgument},
		{"verify empty", p4v1.SetForwardingPipelineConfigRequest_VERIFY, nil, codes.InvalidArgument},
		{"commit without save", p4v1.SetForwardingPipelineConfigRequest_COMMIT, nil, codes.FailedPrecondition},
		{"verify", p4v1.SetForwardingPipelineConfigRequest_VERIFY, fakeConfig, codes.OK},
		{"save", p4v1.SetForwardingPipelineConfigRequest_VERIFY_AND_SAVE, fakeConfig, codes.OK},
		{"commit saved", p4v1.SetForwardingPipelineConfigRequest_COMMIT, nil, codes.OK},
		{"unspecified", p4v1.SetForwardingPipelineConfigRequest_UNSPECIFIED, fakeConfig, codes.InvalidArgument},
	}
	for _, s := range steps {
		if err := h.setPipeline(1, s.action, s.config); code(err) != s.want {
			t.Fatalf("%s: %v, want %v", s.name, err, s.want)
		}
	}
	// The request's P4Info must agree with the program's ids.
	info := fakepipe.Info()
	info.Tables[0].Preamble.Name = "MyIngress.other"
	_, err := h.client.SetForwardingPipelineConfig(context.Background(), &p4v1.SetForwardingPipelineConfigRequest{
		DeviceId: testDevice, ElectionId: &p4v1.Uint128{Low: 1}, Action: p4v1.SetForwardingPipelineConfigRequest_VERIFY,
		Config: &p4v1.ForwardingPipelineConfig{P4DeviceConfig: fakeConfig, P4Info: info}})
	if code(err) != codes.InvalidArgument {
		t.Fatalf("mismatched p4info: %v", err)
	}

	if err := h.write(1, dmac(p4v1.Update_INSERT, macA, []byte{1})); err != nil {
		t.Fatal(err)
	}
	// RECONCILE_AND_COMMIT keeps the entries; VERIFY_AND_COMMIT starts afresh.
	for _, c := range []struct {
		action p4v1.SetForwardingPipelineConfigRequest_Action
		want   int
	}{{p4v1.SetForwardingPipelineConfigRequest_RECONCILE_AND_COMMIT, 1}, {p4v1.SetForwardingPipelineConfigRequest_VERIFY_AND_COMMIT, 0}} {
		if err := h.setPipeline(1, c.action, fakeConfig); err != nil {
			t.Fatal(err)
		}
		got, err := h.read(&p4v1.Entity{Entity: &p4v1.Entity_TableEntry{TableEntry: &p4v1.TableEntry{}}})
		if err != nil || len(got) != c.want {
			t.Fatalf("after %v: %d entries (%v), want %d", c.action, len(got), err, c.want)
		}
	}

	types := []struct {
		rt                   p4v1.GetForwardingPipelineConfigRequest_ResponseType
		info, config, cookie bool
	}{
		{p4v1.GetForwardingPipelineConfigRequest_ALL, true, true, true},
		{p4v1.GetForwardingPipelineConfigRequest_COOKIE_ONLY, false, false, true},
		{p4v1.GetForwardingPipelineConfigRequest_P4INFO_AND_COOKIE, true, false, true},
		{p4v1.GetForwardingPipelineConfigRequest_DEVICE_CONFIG_AND_COOKIE, false, true, true},
	}
	for _, tc := range types {
		r, err := h.client.GetForwardingPipelineConfig(context.Background(), &p4v1.GetForwardingPipelineConfigRequest{DeviceId: testDevice, ResponseType: tc.rt})
		if err != nil {
			t.Fatal(err)
		}
		c := r.Config
		if (c.P4Info != nil) != tc.info || (c.P4DeviceConfig != nil) != tc.config || (c.Cookie.GetCookie() == 42) != tc.cookie {
			t.Fatalf("%v: got %v", tc.rt, c)
		}
		if tc.config && !bytes.Equal(c.P4DeviceConfig, fakeConfig) {
			t.Fatalf("device config %q", c.P4DeviceConfig)
		}
	}
}

// errorDetails returns the canonical codes of a batch error's p4.v1.Errors.
func errorDetails(t *testing.T, err error) []codes.Code {
	t.Helper()
	st := status.Convert(err)
	if st.Code() != codes.Unknown {
		t.Fatalf("batch error code %v, want UNKNOWN (%v)", st.Code(), err)
	}
	var out []codes.Code
	for _, d := range st.Proto().Details {
		e := &p4v1.Error{}
		if err := d.UnmarshalTo(e); err != nil {
			t.Fatalf("detail is not a p4.v1.Error: %v", err)
		}
		if e.CanonicalCode != 0 && e.Message == "" {
			t.Fatalf("error without a message: %v", e)
		}
		out = append(out, codes.Code(e.CanonicalCode))
	}
	return out
}

func TestWriteErrorsPerUpdate(t *testing.T) {
	h := newHarness(t, fakepipe.Loader)
	h.primary(1)
	if err := h.setPipeline(1, p4v1.SetForwardingPipelineConfigRequest_VERIFY_AND_COMMIT, fakeConfig); err != nil {
		t.Fatal(err)
	}
	unknownTable := dmac(p4v1.Update_INSERT, macB, []byte{1})
	unknownTable.Entity.GetTableEntry().TableId = 0x02999999
	unknownAction := dmac(p4v1.Update_INSERT, macB, []byte{1})
	unknownAction.Entity.GetTableEntry().GetAction().GetAction().ActionId = 0x01999999
	cases := []struct {
		name    string
		updates []*p4v1.Update
		want    []codes.Code // nil: the batch succeeds
	}{
		{"insert", []*p4v1.Update{dmac(p4v1.Update_INSERT, macA, []byte{1})}, nil},
		{"duplicate insert", []*p4v1.Update{dmac(p4v1.Update_INSERT, macA, []byte{2})}, []codes.Code{codes.AlreadyExists}},
		{"modify", []*p4v1.Update{dmac(p4v1.Update_MODIFY, macA, []byte{2})}, nil},
		{"modify missing", []*p4v1.Update{dmac(p4v1.Update_MODIFY, macB, []byte{2})}, []codes.Code{codes.NotFound}},
		{"unknown table", []*p4v1.Update{unknownTable}, []codes.Code{codes.NotFound}},
		{"unknown action", []*p4v1.Update{unknownAction}, []codes.Code{codes.NotFound}},
		{"value too wide", []*p4v1.Update{dmac(p4v1.Update_INSERT, append([]byte{1}, macB...), []byte{1})}, []codes.Code{codes.InvalidArgument}},
		{"param too wide", []*p4v1.Update{dmac(p4v1.Update_INSERT, macB, []byte{2, 0})}, []codes.Code{codes.InvalidArgument}},
		{"no entity", []*p4v1.Update{{Type: p4v1.Update_INSERT}}, []codes.Code{codes.InvalidArgument}},
		{"mixed batch continues after errors", []*p4v1.Update{
			dmac(p4v1.Update_INSERT, macA, []byte{1}), dmac(p4v1.Update_INSERT, macB, []byte{3}), dmac(p4v1.Update_DELETE, macA, nil),
		}, []codes.Code{codes.AlreadyExists, codes.OK, codes.OK}},
		{"delete missing", []*p4v1.Update{dmac(p4v1.Update_DELETE, macA, nil)}, []codes.Code{codes.NotFound}},
	}
	for _, c := range cases {
		err := h.write(1, c.updates...)
		if c.want == nil {
			if err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
			continue
		}
		got := errorDetails(t, err)
		if len(got) != len(c.want) {
			t.Fatalf("%s: details %v, want %v", c.name, got, c.want)
		}
		for i := range got {
			if got[i] != c.want[i] {
				t.Fatalf("%s: details %v, want %v", c.name, got, c.want)
			}
		}
	}
	// Only macB → port 3 is left.
	got, err := h.read(&p4v1.Entity{Entity: &p4v1.Entity_TableEntry{TableEntry: &p4v1.TableEntry{}}})
	if err != nil || len(got) != 1 || !bytes.Equal(got[0].GetTableEntry().Match[0].GetExact().Value, macB) {
		t.Fatalf("wildcard read: %v %v", got, err)
	}
	if _, err := h.read(&p4v1.Entity{Entity: &p4v1.Entity_TableEntry{TableEntry: &p4v1.TableEntry{TableId: 0x02999999}}}); code(err) != codes.NotFound {
		t.Fatalf("read of unknown table: %v", err)
	}
	if _, err := h.client.Write(context.Background(), &p4v1.WriteRequest{DeviceId: testDevice, ElectionId: &p4v1.Uint128{Low: 1},
		Atomicity: p4v1.WriteRequest_DATAPLANE_ATOMIC, Updates: []*p4v1.Update{dmac(p4v1.Update_DELETE, macB, nil)}}); code(err) != codes.Unimplemented {
		t.Fatalf("DATAPLANE_ATOMIC: %v", err)
	}
	if err := func() error {
		_, err := h.client.Write(context.Background(), &p4v1.WriteRequest{DeviceId: 3, ElectionId: &p4v1.Uint128{Low: 1}})
		return err
	}(); code(err) != codes.NotFound {
		t.Fatalf("wrong device: %v", err)
	}
}

func TestForwardingPacketOutAndPacketIn(t *testing.T) {
	h := newHarness(t, fakepipe.Loader)
	st := h.forwardingToB()
	// A frame to a known MAC is forwarded by the table.
	f := ethFrame(macB, macA, "hello")
	h.send(1, f)
	if got, ok := h.receive(2, 5*time.Second); !ok || !bytes.Equal(got, f) {
		t.Fatalf("forwarded frame: %x %v", got, ok)
	}
	// Packet-out leaves the port named in its metadata, without the header.
	out := ethFrame(macA, macB, "from the controller")
	st.s.Send(&p4v1.StreamMessageRequest{Update: &p4v1.StreamMessageRequest_Packet{Packet: &p4v1.PacketOut{
		Payload: out, Metadata: []*p4v1.PacketMetadata{{MetadataId: 1, Value: []byte{3}}}}}})
	if got, ok := h.receive(3, 5*time.Second); !ok || !bytes.Equal(got, out) {
		t.Fatalf("packet-out on port 3: %x %v", got, ok)
	}
	for _, p := range []uint32{1, 2} {
		if got, ok := h.receive(p, 100*time.Millisecond); ok {
			t.Fatalf("packet-out also left port %d: %x", p, got)
		}
	}
	// A table miss becomes a packet-in with the ingress port as metadata.
	miss := ethFrame([]byte{2, 0, 0, 0, 0, 0x0c}, macA, "unknown")
	h.send(3, miss)
	pin := next(st, func(m *p4v1.StreamMessageResponse) (*p4v1.PacketIn, bool) { return m.GetPacket(), m.GetPacket() != nil })
	if !bytes.Equal(pin.Payload, miss) || len(pin.Metadata) != 2 || pin.Metadata[0].MetadataId != 1 ||
		!bytes.Equal(pin.Metadata[0].Value, []byte{3}) || !bytes.Equal(pin.Metadata[1].Value, []byte{0}) {
		t.Fatalf("packet-in %v", pin)
	}
	// Bad packet-outs get a stream error and change nothing.
	st.s.Send(&p4v1.StreamMessageRequest{Update: &p4v1.StreamMessageRequest_Packet{Packet: &p4v1.PacketOut{
		Payload: out, Metadata: []*p4v1.PacketMetadata{{MetadataId: 1, Value: []byte{2, 0}}}}}})
	e := next(st, func(m *p4v1.StreamMessageResponse) (*p4v1.StreamError, bool) {
		return m.GetError(), m.GetError() != nil
	})
	if codes.Code(e.CanonicalCode) != codes.InvalidArgument || e.GetPacketOut() == nil {
		t.Fatalf("oversized packet-out metadata: %v", e)
	}
}

func TestNonPrimaryPacketOutIsRefused(t *testing.T) {
	h := newHarness(t, fakepipe.Loader)
	h.primary(2)
	backup := h.open(1)
	backup.arbitration()
	if err := h.setPipeline(2, p4v1.SetForwardingPipelineConfigRequest_VERIFY_AND_COMMIT, fakeConfig); err != nil {
		t.Fatal(err)
	}
	backup.s.Send(&p4v1.StreamMessageRequest{Update: &p4v1.StreamMessageRequest_Packet{Packet: &p4v1.PacketOut{
		Payload: ethFrame(macA, macB, "x"), Metadata: []*p4v1.PacketMetadata{{MetadataId: 1, Value: []byte{1}}}}}})
	e := next(backup, func(m *p4v1.StreamMessageResponse) (*p4v1.StreamError, bool) {
		return m.GetError(), m.GetError() != nil
	})
	if codes.Code(e.CanonicalCode) != codes.PermissionDenied {
		t.Fatalf("backup packet-out: %v", e)
	}
	if got, ok := h.receive(1, 200*time.Millisecond); ok {
		t.Fatalf("backup packet-out was sent: %x", got)
	}
}

func TestDigestLists(t *testing.T) {
	h := newHarness(t, fakepipe.Loader)
	st := h.primary(1)
	if err := h.setPipeline(1, p4v1.SetForwardingPipelineConfigRequest_VERIFY_AND_COMMIT, fakeConfig); err != nil {
		t.Fatal(err)
	}
	digestList := func() *p4v1.DigestList {
		return next(st, func(m *p4v1.StreamMessageResponse) (*p4v1.DigestList, bool) {
			return m.GetDigest(), m.GetDigest() != nil
		})
	}
	noDigest := func(within time.Duration) {
		t.Helper()
		deadline := time.After(within)
		for {
			select {
			case m := <-st.msgs:
				if m.GetDigest() != nil {
					t.Fatalf("unexpected digest list %v", m.GetDigest())
				}
			case <-deadline:
				return
			}
		}
	}
	unknown := func(src byte) []byte { return ethFrame([]byte{2, 0, 0, 0, 0, 0xee}, []byte{2, 0, 0, 0, 0, src}, "x") }
	// Without a DigestEntry, no lists are sent.
	h.send(1, unknown(1))
	noDigest(200 * time.Millisecond)

	cfg := &p4v1.DigestEntry{DigestId: fakepipe.DigestLearn, Config: &p4v1.DigestEntry_Config{
		MaxListSize: 2, MaxTimeoutNs: int64(time.Hour), AckTimeoutNs: int64(time.Hour)}}
	if err := h.write(1, &p4v1.Update{Type: p4v1.Update_INSERT, Entity: &p4v1.Entity{Entity: &p4v1.Entity_DigestEntry{DigestEntry: cfg}}}); err != nil {
		t.Fatal(err)
	}
	h.send(1, unknown(1))
	h.send(1, unknown(1)) // same message: folded into the pending list
	h.send(2, unknown(2))
	l := digestList()
	if len(l.Data) != 2 || l.DigestId != fakepipe.DigestLearn {
		t.Fatalf("list %v, want 2 messages", l)
	}
	// Unacknowledged messages are not sent again.
	h.send(1, unknown(1))
	h.send(2, unknown(2))
	h.send(3, unknown(3))
	noDigest(200 * time.Millisecond)
	// After the ack they are.
	st.s.Send(&p4v1.StreamMessageRequest{Update: &p4v1.StreamMessageRequest_DigestAck{DigestAck: &p4v1.DigestListAck{DigestId: l.DigestId, ListId: l.ListId}}})
	time.Sleep(100 * time.Millisecond)
	h.send(1, unknown(1))
	l2 := digestList()
	if len(l2.Data) != 2 || l2.ListId == l.ListId {
		t.Fatalf("list after ack %v", l2)
	}

	// max_timeout_ns sends a partial list.
	cfg.Config = &p4v1.DigestEntry_Config{MaxListSize: 100, MaxTimeoutNs: int64(50 * time.Millisecond)}
	if err := h.write(1, &p4v1.Update{Type: p4v1.Update_MODIFY, Entity: &p4v1.Entity{Entity: &p4v1.Entity_DigestEntry{DigestEntry: cfg}}}); err != nil {
		t.Fatal(err)
	}
	h.send(1, unknown(9))
	l3 := digestList()
	want := &p4v1.P4Data{Data: &p4v1.P4Data_Struct{Struct: &p4v1.P4StructLike{Members: []*p4v1.P4Data{
		{Data: &p4v1.P4Data_Bitstring{Bitstring: []byte{2, 0, 0, 0, 0, 9}}}, {Data: &p4v1.P4Data_Bitstring{Bitstring: []byte{1}}}}}}}
	if len(l3.Data) != 1 || !proto.Equal(l3.Data[0], want) {
		t.Fatalf("timed-out list %v, want one message %v", l3, want)
	}
}

// TestElectionIDReusedRightAfterDisconnect: a controller that reconnects
// with its election id right after closing its stream (a restart) becomes
// primary again, even though the old stream may still be closing.
func TestElectionIDReusedRightAfterDisconnect(t *testing.T) {
	h := newHarness(t, fakepipe.Loader)
	closes := []struct {
		name  string
		close func(*stream)
	}{
		{"cancelled", func(st *stream) { st.cancel() }},
		{"half-closed", func(st *stream) { st.s.CloseSend() }},
	}
	for _, c := range closes {
		t.Run(c.name, func(t *testing.T) {
			for round := 0; round < 20; round++ {
				old := h.primary(7)
				c.close(old)
				st := h.open(7)
				select {
				case m := <-st.msgs:
					if m.GetArbitration().GetStatus().GetCode() != int32(codes.OK) {
						t.Fatalf("round %d: reconnect with the same election id: %v, want primary", round, m)
					}
				case err := <-st.err:
					t.Fatalf("round %d: reconnect with the same election id refused: %v", round, err)
				case <-time.After(5 * time.Second):
					t.Fatalf("round %d: no answer", round)
				}
				st.cancel()
			}
		})
	}
}
