// Package hoststats reads a network namespace's protocol counters
// (/proc/<pid>/net/snmp and /proc/<pid>/net/netstat).
package hoststats

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Counters maps "Proto.Field" (e.g. "Udp.RcvbufErrors", "TcpExt.TCPTimeouts") to values.
type Counters map[string]uint64

// Read parses snmp and netstat under procNet (e.g. /proc/self/net).
func Read(procNet string) (Counters, error) {
	c := Counters{}
	for _, f := range []string{"snmp", "netstat"} {
		if err := parse(filepath.Join(procNet, f), c); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// The files hold pairs of lines: "Proto: name1 name2 ..." then "Proto: v1 v2 ...".
func parse(path string, into Counters) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	var header []string
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) == 0 {
			continue
		}
		if header == nil || header[0] != fields[0] {
			header = fields
			continue
		}
		if len(fields) != len(header) {
			return fmt.Errorf("%s: %s has %d values for %d names", path, fields[0], len(fields)-1, len(header)-1)
		}
		proto := strings.TrimSuffix(fields[0], ":")
		for i := 1; i < len(fields); i++ {
			v, err := strconv.ParseInt(fields[i], 10, 64)
			if err != nil {
				return fmt.Errorf("%s: %s %s: %v", path, proto, header[i], err)
			}
			if v < 0 {
				v = 0 // Tcp MaxConn is -1
			}
			into[proto+"."+header[i]] = uint64(v)
		}
		header = nil
	}
	return sc.Err()
}
