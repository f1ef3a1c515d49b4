package failover

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/fairfabric/fairfabric/host-shim/ratetable"
)

func table() *ratetable.Table {
	return &ratetable.Table{Schema: 1, Host: "h1", Version: 7, Sessions: []ratetable.Session{
		{ID: "a", Tenant: "t", Dst: "10.0.0.2", Split: "packet", Paths: []ratetable.Path{{ID: 1, RateBps: 30e6}, {ID: 2, RateBps: 10e6}, {ID: 3, RateBps: 20e6}}},
		{ID: "b", Tenant: "t", Dst: "10.0.0.3", Split: "packet", Paths: []ratetable.Path{{ID: 2, RateBps: 5e6}}},
	}}
}

func paths(t *ratetable.Table, id string) map[int]uint64 {
	out := map[int]uint64{}
	for _, s := range t.Sessions {
		if s.ID == id {
			for _, p := range s.Paths {
				out[p.ID] = p.RateBps
			}
		}
	}
	return out
}

func TestParse(t *testing.T) {
	cases := []struct {
		name, key, value, err string
	}{
		{"ok", "h1", `{"schema":1,"host":"h1","version":3,"sessions":[{"id":"a","dead":[2]}],"links":["x"],"future":1}`, ""},
		{"empty list", "h1", `{"schema":1,"host":"h1","version":3,"sessions":[]}`, ""},
		{"other key", "h2", `{"schema":1,"host":"h1","version":3,"sessions":[]}`, "record key"},
		{"tombstone", "h1", ``, "tombstone"},
		{"schema", "h1", `{"schema":2,"host":"h1","version":3,"sessions":[]}`, "schema 2"},
		{"host field", "h1", `{"schema":1,"host":"h9","version":3,"sessions":[]}`, "host field"},
		{"version 0", "h1", `{"schema":1,"host":"h1","version":0,"sessions":[]}`, "version"},
		{"no sessions", "h1", `{"schema":1,"host":"h1","version":3}`, "sessions is missing"},
		{"twice", "h1", `{"schema":1,"host":"h1","version":3,"sessions":[{"id":"a","dead":[2]},{"id":"a","dead":[1]}]}`, "twice"},
		{"no dead", "h1", `{"schema":1,"host":"h1","version":3,"sessions":[{"id":"a","dead":[]}]}`, "at least one"},
		{"vid 0", "h1", `{"schema":1,"host":"h1","version":3,"sessions":[{"id":"a","dead":[0]}]}`, "out of range"},
		{"alive", "h1", `{"schema":1,"host":"h1","version":3,"sessions":[{"id":"a","dead":[2],"alive":[1,3]}]}`, ""},
		{"dead and alive", "h1", `{"schema":1,"host":"h1","version":3,"sessions":[{"id":"a","dead":[2],"alive":[2]}]}`, "both dead and alive"},
		{"too many alive", "h1", `{"schema":1,"host":"h1","version":3,"sessions":[{"id":"a","dead":[2],"alive":[1,3,4,5,6]}]}`, "alive paths"},
		{"vid 4095", "h1", `{"schema":1,"host":"h1","version":3,"sessions":[{"id":"a","dead":[4095]}]}`, "out of range"},
		{"trailing", "h1", `{"schema":1,"host":"h1","version":3,"sessions":[]} {}`, "trailing"},
	}
	for _, c := range cases {
		_, err := Parse("h1", []byte(c.key), []byte(c.value))
		if c.err == "" && err != nil || c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)) {
			t.Errorf("%s: err %v, want %q", c.name, err, c.err)
		}
	}
}

func TestReroute(t *testing.T) {
	cases := []struct {
		name  string
		dead  deadSet
		alive aliveLists
		moved int
		a, b  map[int]uint64
	}{
		{"nothing dead", deadSet{}, nil, 0, map[int]uint64{1: 30e6, 2: 10e6, 3: 20e6}, map[int]uint64{2: 5e6}},
		{"path 2 dead: its 10 go to 1 and 3 as 3:2; b has no other path", deadSet{"a": {2: true}, "b": {2: true}}, nil, 1,
			map[int]uint64{1: 36e6, 3: 24e6}, map[int]uint64{2: 5e6}},
		{"two dead: path 3 takes the whole 60", deadSet{"a": {1: true, 2: true}}, aliveLists{"a": {3, 4}}, 1, map[int]uint64{3: 60e6}, map[int]uint64{2: 5e6}},
		{"all dead, nothing alive: left alone", deadSet{"a": {1: true, 2: true, 3: true}}, nil, 0, map[int]uint64{1: 30e6, 2: 10e6, 3: 20e6}, map[int]uint64{2: 5e6}},
		{"b's only path dead: all of it to its first alive path", deadSet{"b": {2: true}}, aliveLists{"b": {1, 3}}, 1,
			map[int]uint64{1: 30e6, 2: 10e6, 3: 20e6}, map[int]uint64{1: 5e6}},
		{"alive paths that are avoided too are skipped", deadSet{"b": {2: true, 1: true}}, aliveLists{"b": {1, 3}}, 1,
			map[int]uint64{1: 30e6, 2: 10e6, 3: 20e6}, map[int]uint64{3: 5e6}},
		{"a dead id the session does not use", deadSet{"a": {9: true}}, nil, 0, map[int]uint64{1: 30e6, 2: 10e6, 3: 20e6}, map[int]uint64{2: 5e6}},
	}
	for _, c := range cases {
		in := table()
		out, moved := Reroute(in, c.dead, c.alive)
		if moved != c.moved || !reflect.DeepEqual(paths(out, "a"), c.a) || !reflect.DeepEqual(paths(out, "b"), c.b) {
			t.Errorf("%s: moved %d a %v b %v; want %d %v %v", c.name, moved, paths(out, "a"), paths(out, "b"), c.moved, c.a, c.b)
		}
		if !reflect.DeepEqual(in, table()) {
			t.Errorf("%s: the input table was modified", c.name)
		}
	}
}

func rec(v uint64, dead map[string][]int) *Record {
	r := &Record{Schema: 1, Host: "h1", Version: v, Sessions: []SessionDead{}}
	for id, ps := range dead {
		r.Sessions = append(r.Sessions, SessionDead{ID: id, Dead: ps})
	}
	return r
}

func TestFreezeWindowHoldsARecovery(t *testing.T) {
	f := New(Freeze{Min: 40 * time.Millisecond, Max: 40 * time.Millisecond}, 1)
	t0 := time.Unix(1000, 0)
	f.Keep(table())
	got, recheck, err := f.Update(rec(1, map[string][]int{"a": {2}}), t0)
	if err != nil || got == nil || recheck != 0 {
		t.Fatalf("failure: table %v recheck %v err %v", got, recheck, err)
	}
	if want := map[int]uint64{1: 36e6, 3: 24e6}; !reflect.DeepEqual(paths(got, "a"), want) {
		t.Fatalf("moved at once: %v, want %v", paths(got, "a"), want)
	}
	// a controller table that still has path 2 (computed before the failure) is rerouted too
	if p := paths(f.Filter(table(), t0.Add(time.Millisecond)), "a"); p[2] != 0 {
		t.Fatalf("a late table put path 2 back: %v", p)
	}
	// recovery 10 ms after the move: held for the remaining 30 ms
	got, recheck, err = f.Update(rec(2, nil), t0.Add(10*time.Millisecond))
	if err != nil || got != nil || recheck != 30*time.Millisecond {
		t.Fatalf("recovery inside the window: table %v recheck %v err %v", got, recheck, err)
	}
	if st := f.Status(t0.Add(20 * time.Millisecond)); !reflect.DeepEqual(st.Dead, map[string][]int{"a": {2}}) || st.Moves != 1 {
		t.Fatalf("status inside the window: %+v", st)
	}
	if got, again := f.Expire(t0.Add(20 * time.Millisecond)); got != nil || again != 20*time.Millisecond {
		t.Fatalf("early expiry: %v %v", got, again)
	}
	got, again := f.Expire(t0.Add(40 * time.Millisecond))
	if got == nil || again != 0 || !reflect.DeepEqual(paths(got, "a"), map[int]uint64{1: 30e6, 2: 10e6, 3: 20e6}) {
		t.Fatalf("after the window: %v %v", got, again)
	}
	// old or repeated versions change nothing
	if _, _, err := f.Update(rec(2, map[string][]int{"a": {1}}), t0.Add(time.Second)); err == nil {
		t.Fatal("a repeated version was admitted")
	}
	if st := f.Status(t0.Add(time.Second)); len(st.Dead) != 0 || st.Rejected != 1 {
		t.Fatalf("after a rejected record: %+v", st)
	}
}

func TestRecoveryAfterTheWindowIsImmediate(t *testing.T) {
	f := New(Freeze{Min: 5 * time.Millisecond, Max: 50 * time.Millisecond}, 3)
	t0 := time.Unix(1000, 0)
	f.Keep(table())
	if got, _, _ := f.Update(rec(1, map[string][]int{"a": {1}, "b": {2}}), t0); got == nil {
		t.Fatal("no move")
	}
	got, recheck, err := f.Update(rec(2, nil), t0.Add(time.Second))
	if err != nil || recheck != 0 || got == nil || len(paths(got, "a")) != 3 {
		t.Fatalf("recovery after the window: %v %v %v", got, recheck, err)
	}
}

func TestFreezeWindowIsDrawnInItsRange(t *testing.T) {
	f := New(DefaultFreeze, 9)
	for i := 0; i < 200; i++ {
		w := f.window()
		if w < DefaultFreeze.Min || w > DefaultFreeze.Max {
			t.Fatalf("window %v outside %v", w, DefaultFreeze)
		}
	}
}
