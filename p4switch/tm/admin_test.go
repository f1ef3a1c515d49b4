package tm

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"
	"time"
)

func TestAdminInterface(t *testing.T) {
	m := newManager(t, DefaultConfig())
	srv := httptest.NewServer(AdminHandler(m))
	defer srv.Close()
	cases := []struct {
		method, path string
		form         url.Values
		wantCode     int
	}{
		{"GET", "/ports", nil, 200},
		{"GET", "/ports/1", nil, 200},
		{"GET", "/ports/9", nil, 404},
		{"GET", "/ports/x", nil, 400},
		{"POST", "/ports/1", url.Values{"rate": {"10M"}, "delay": {"1ms"}, "loss": {"1%"}}, 200},
		{"POST", "/ports/1", url.Values{"rate": {"10M"}, "depth": {"-1"}}, 400},
		{"POST", "/ports/1", url.Values{"speed": {"1"}}, 400},
		{"POST", "/ports/1", nil, 400},
		{"POST", "/ports/9", url.Values{"rate": {"1M"}}, 404},
	}
	for _, c := range cases {
		var resp *http.Response
		var err error
		if c.method == "GET" {
			resp, err = http.Get(srv.URL + c.path)
		} else {
			resp, err = http.PostForm(srv.URL+c.path, c.form)
		}
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != c.wantCode {
			t.Errorf("%s %s %v: %d, want %d", c.method, c.path, c.form, resp.StatusCode, c.wantCode)
		}
	}
	// Only the valid POST changed anything.
	got, _ := m.Config(1)
	want := PortConfig{RateBps: 10_000_000, Depth: DefaultDepth, Delay: time.Millisecond, Loss: 0.01}
	if got != want {
		t.Fatalf("port 1 config %v, want %v", got, want)
	}
	resp, _ := http.Get(srv.URL + "/ports")
	var all []PortState
	json.NewDecoder(resp.Body).Decode(&all)
	if len(all) != 2 || all[0].Port != 1 || all[0].DelayUs != 1000 {
		t.Fatalf("GET /ports = %+v", all)
	}
}
