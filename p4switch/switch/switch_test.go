package sw

import (
	"bytes"
	"testing"
	"time"

	p4configv1 "github.com/p4lang/p4runtime/go/p4/config/v1"
	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"

	"github.com/fairfabric/fairfabric/p4switch/netio"
	"github.com/fairfabric/fairfabric/p4switch/target"
	"github.com/fairfabric/fairfabric/p4switch/tm"
)

// crossPipe sends port 1's frames to port 2 and port 2's to port 1. A frame
// whose first byte is 'R' is recirculated once (with the byte changed to
// 'r'); one starting with 'C' is also cloned egress-to-egress to port 3.
type crossPipe struct{}

type pkt struct {
	data []byte
	meta target.QueueMeta
}

func (crossPipe) P4Info() *p4Info                         { return nil }
func (crossPipe) Write(*update) error                     { return nil }
func (crossPipe) Read(*entity, func(*entity) error) error { return nil }
func (crossPipe) Ingress(a target.Arrival) target.IngressResult {
	out := uint32(3 - a.Port)
	if a.Preserved != nil {
		out = a.Preserved.(uint32)
	}
	return target.IngressResult{Queued: []target.Queued{{EgressPort: out, Length: len(a.Data), Packet: &pkt{data: a.Data}}}}
}
func (crossPipe) Egress(q target.Queued, m target.QueueMeta) target.EgressResult {
	p := q.Packet.(*pkt)
	switch p.data[0] {
	case 'R':
		d := append([]byte{'r'}, p.data[1:]...)
		return target.EgressResult{Recirc: []target.Recirculation{{Data: d, Preserved: q.EgressPort}}}
	case 'C':
		return target.EgressResult{Out: &target.Output{Port: q.EgressPort, Data: bytes.Clone(p.data)},
			Queued: []target.Queued{{EgressPort: 3, Length: len(p.data), Packet: &pkt{data: append([]byte("c"), p.data[1:]...)}}}}
	}
	return target.EgressResult{Out: &target.Output{Port: q.EgressPort, Data: bytes.Clone(p.data)}}
}

// engine is a way to run a switch: Start (goroutines) or a Group (epoll).
type engine struct {
	name string
	pipe func(t *testing.T, depth int) (*netio.MemPort, *netio.MemPort)
	// start runs s; the function it returns stops it
	start func(t *testing.T, s *Switch) func()
}

var engines = []engine{
	{"goroutines", func(t *testing.T, depth int) (*netio.MemPort, *netio.MemPort) { return netio.Pipe("sw", "host", depth) },
		func(t *testing.T, s *Switch) func() { s.Start(); return s.Stop }},
	{"group", pollablePipe, groupStart(1)},
	{"group of 2 workers", pollablePipe, groupStart(2)},
}

func groupStart(workers int) func(t *testing.T, s *Switch) func() {
	return func(t *testing.T, s *Switch) func() {
		g, err := NewGroup(workers)
		if err != nil {
			t.Fatal(err)
		}
		if err := g.Add(s); err != nil {
			t.Fatal(err)
		}
		return func() { s.Stop(); g.Close() }
	}
}

func pollablePipe(t *testing.T, depth int) (*netio.MemPort, *netio.MemPort) {
	t.Helper()
	a, b, err := netio.PollablePipe("sw", "host", depth)
	if err != nil {
		t.Fatal(err)
	}
	return a, b
}

func TestSwitchPaths(t *testing.T) {
	for _, e := range engines {
		t.Run(e.name, func(t *testing.T) { testSwitchPaths(t, e) })
	}
}

func testSwitchPaths(t *testing.T, e engine) {
	hosts := map[uint32]*netio.MemPort{}
	ports := map[uint32]netio.Port{}
	for _, n := range []uint32{1, 2, 3} {
		a, b := e.pipe(t, 64)
		ports[n], hosts[n] = a, b
	}
	s, err := New(Config{Ports: ports, Queues: map[uint32]tm.PortConfig{2: {Depth: 8, Loss: 0}}})
	if err != nil {
		t.Fatal(err)
	}
	defer e.start(t, s)()
	recv := func(port uint32) []byte {
		t.Helper()
		got := make(chan []byte, 1)
		go func() {
			bufs, lens := [][]byte{make([]byte, netio.MaxFrame)}, []int{0}
			if n, err := hosts[port].ReadBatch(bufs, lens); err == nil && n == 1 {
				got <- bufs[0][:lens[0]]
			}
		}()
		select {
		case f := <-got:
			return f
		case <-time.After(5 * time.Second):
			t.Fatalf("nothing arrived on port %d", port)
			return nil
		}
	}
	// No pipeline: frames are counted and dropped.
	hosts[1].WriteBatch([][]byte{[]byte("dropped")})
	for s.Counters.NoPipeline.Load() == 0 {
		time.Sleep(time.Millisecond)
	}
	if err := s.SetPipeline(crossPipe{}); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		in       uint32
		frame    string
		outPort  uint32
		outFrame string
	}{
		{1, "plain", 2, "plain"},
		{2, "back", 1, "back"},
		{1, "Recirculated", 2, "recirculated"},
		{2, "Cloned", 1, "Cloned"},
	}
	for _, c := range cases {
		hosts[c.in].WriteBatch([][]byte{[]byte(c.frame)})
		if got := recv(c.outPort); !bytes.Equal(got, []byte(c.outFrame)) {
			t.Fatalf("%s: port %d got %q, want %q", c.frame, c.outPort, got, c.outFrame)
		}
	}
	if got := recv(3); string(got) != "cloned" {
		t.Fatalf("E2E clone on port 3: %q", got)
	}
	// Runtime loss of 100% on port 2 drops everything there.
	c, _ := s.TM().Config(2)
	c.Loss = 1
	s.TM().Configure(2, c)
	for i := 0; i < 5; i++ {
		hosts[1].WriteBatch([][]byte{[]byte("lost")})
	}
	for {
		st, _ := s.TM().Stats(2)
		if st.LossDrops == 5 {
			break
		}
		time.Sleep(time.Millisecond)
	}
}

func TestNewRejectsBadConfig(t *testing.T) {
	a, _ := netio.Pipe("a", "b", 1)
	for _, c := range []Config{
		{Ports: map[uint32]netio.Port{1: a}, CPUPort: 1},
		{Ports: map[uint32]netio.Port{1: a}, Queues: map[uint32]tm.PortConfig{2: tm.DefaultConfig()}},
		{Ports: map[uint32]netio.Port{1: a}, Queues: map[uint32]tm.PortConfig{1: {Depth: 0}}},
	} {
		if _, err := New(c); err == nil {
			t.Errorf("New(%+v) accepted", c)
		}
	}
}

type (
	p4Info = p4configv1.P4Info
	update = p4v1.Update
	entity = p4v1.Entity
)

// Frames stay intact while the switch reuses its receive buffers: with and
// without packets waiting in a rate-limited queue, sleeping at once or
// polling a while before sleeping.
func TestFramesSurviveBufferReuse(t *testing.T) {
	for _, e := range engines {
		t.Run(e.name, func(t *testing.T) { testFramesSurviveBufferReuse(t, e) })
	}
}

func testFramesSurviveBufferReuse(t *testing.T, e engine) {
	for _, c := range []struct {
		rate uint64
		spin time.Duration
	}{{0, 0}, {2_000_000, 0}, {0, 50 * time.Microsecond}} {
		rate := c.rate
		sw, host := e.pipe(t, 1024)
		out, far := e.pipe(t, 1024)
		s, err := New(Config{Ports: map[uint32]netio.Port{1: sw, 2: out},
			Queues: map[uint32]tm.PortConfig{2: {Depth: 1024, RateBps: rate}}, PollSpin: c.spin})
		if err != nil {
			t.Fatal(err)
		}
		stop := e.start(t, s)
		if err := s.SetPipeline(crossPipe{}); err != nil {
			t.Fatal(err)
		}
		const n = 200
		frame := func(i int) []byte { return bytes.Repeat([]byte{'f', byte(i)}, 50+i%7) }
		for i := 0; i < n; i += 5 {
			batch := [][]byte{}
			for k := i; k < i+5; k++ {
				batch = append(batch, frame(k))
			}
			host.WriteBatch(batch)
			time.Sleep(100 * time.Microsecond)
		}
		bufs, lens := [][]byte{make([]byte, netio.MaxFrame)}, []int{0}
		for i := 0; i < n; i++ {
			got := make(chan []byte, 1)
			go func() {
				if k, err := far.ReadBatch(bufs, lens); err == nil && k == 1 {
					got <- bufs[0][:lens[0]]
				}
			}()
			select {
			case f := <-got:
				if !bytes.Equal(f, frame(i)) {
					t.Fatalf("rate %d: frame %d = %q, want %q", rate, i, f, frame(i))
				}
			case <-time.After(5 * time.Second):
				t.Fatalf("rate %d: frame %d did not arrive", rate, i)
			}
		}
		stop()
	}
}
