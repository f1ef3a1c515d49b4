package hoststats

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestRead(t *testing.T) {
	tests := []struct {
		name, snmp, netstat string
		want                map[string]uint64
		wantErr             string
	}{
		{
			name:    "pairs of lines",
			snmp:    "Tcp: RtoAlgorithm MaxConn RetransSegs\nTcp: 1 -1 7\nUdp: InDatagrams RcvbufErrors SndbufErrors\nUdp: 10 3 2\n",
			netstat: "TcpExt: TCPTimeouts TCPRcvQDrop\nTcpExt: 4 5\n",
			want:    map[string]uint64{"Tcp.MaxConn": 0, "Tcp.RetransSegs": 7, "Udp.RcvbufErrors": 3, "Udp.SndbufErrors": 2, "TcpExt.TCPTimeouts": 4, "TcpExt.TCPRcvQDrop": 5},
		},
		{name: "count mismatch", snmp: "Udp: A B\nUdp: 1\n", netstat: "", wantErr: "1 values for 2 names"},
		{name: "not a number", snmp: "Udp: A\nUdp: x\n", netstat: "", wantErr: "Udp A"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			os.WriteFile(filepath.Join(dir, "snmp"), []byte(tc.snmp), 0o644)
			os.WriteFile(filepath.Join(dir, "netstat"), []byte(tc.netstat), 0o644)
			got, err := Read(dir)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			for k, v := range tc.want {
				if got[k] != v {
					t.Errorf("%s = %d, want %d", k, got[k], v)
				}
			}
		})
	}
}

func TestReadRealProc(t *testing.T) {
	c, err := Read("/proc/self/net")
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := c["Udp.RcvbufErrors"]; !ok {
		t.Fatalf("Udp.RcvbufErrors missing from %d counters", len(c))
	}
}
