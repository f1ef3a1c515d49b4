package main

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"strconv"
	"strings"
	"time"
)

func init() {
	commands["pa-worker"] = command{"Partition-Aggregate worker: answer each query with the requested number of bytes", paWorker}
	commands["pa-aggregator"] = command{"Partition-Aggregate aggregator: query all workers, time each query's completion", paAggregator}
}

// A query is 8 bytes: the response size in bytes (big endian).

func paWorker(args []string) error {
	fs := flag.NewFlagSet("pa-worker", flag.ContinueOnError)
	listen := fs.String("listen", ":5301", "address to listen on")
	if err := fs.Parse(args); err != nil {
		return err
	}
	ln, err := net.Listen("tcp", *listen)
	if err != nil {
		return err
	}
	fmt.Fprintln(os.Stderr, "pa-worker: listening on", ln.Addr())
	for {
		c, err := ln.Accept()
		if err != nil {
			return err
		}
		go func(c net.Conn) {
			defer c.Close()
			buf := make([]byte, 1<<20)
			var q [8]byte
			for {
				if _, err := io.ReadFull(c, q[:]); err != nil {
					return
				}
				for left := binary.BigEndian.Uint64(q[:]); left > 0; {
					n := uint64(len(buf))
					if left < n {
						n = left
					}
					if _, err := c.Write(buf[:n]); err != nil {
						return
					}
					left -= n
				}
			}
		}(c)
	}
}

type paResult struct {
	SizeMTU int     `json:"size_mtu"`
	Queries int     `json:"queries"`
	MeanMs  float64 `json:"mean_qct_ms"`
	MaxMs   float64 `json:"max_qct_ms"`
}

func paAggregator(args []string) error {
	fs := flag.NewFlagSet("pa-aggregator", flag.ContinueOnError)
	workers := fs.String("workers", "", "worker addresses host:port, comma-separated (required)")
	sizes := fs.String("sizes", "2,4,8,16,32,64,128,256,512,1024,2048", "response sizes in MTUs")
	mss := fs.Int("mtu-payload", 1448, "bytes of payload per MTU-sized segment")
	budget := fs.Duration("budget", 2*time.Second, "time spent per size (at least -min-reps queries)")
	minReps := fs.Int("min-reps", 3, "queries per size at least")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *workers == "" {
		return errors.New("-workers is required")
	}
	var conns []net.Conn
	for _, w := range strings.Split(*workers, ",") {
		c, err := net.DialTimeout("tcp", w, 5*time.Second)
		if err != nil {
			return err
		}
		defer c.Close()
		conns = append(conns, c)
	}
	var out []paResult
	for _, s := range strings.Split(*sizes, ",") {
		mtus, err := strconv.Atoi(s)
		if err != nil || mtus < 1 {
			return fmt.Errorf("size %q", s)
		}
		bytes := uint64(mtus * *mss)
		res := paResult{SizeMTU: mtus}
		var total time.Duration
		start := time.Now()
		for res.Queries < *minReps || time.Since(start) < *budget {
			t0 := time.Now()
			done := make(chan error, len(conns))
			for _, c := range conns {
				go func(c net.Conn) {
					var q [8]byte
					binary.BigEndian.PutUint64(q[:], bytes)
					if _, err := c.Write(q[:]); err != nil {
						done <- err
						return
					}
					_, err := io.CopyN(io.Discard, c, int64(bytes))
					done <- err
				}(c)
			}
			for range conns {
				if err := <-done; err != nil {
					return err
				}
			}
			qct := time.Since(t0)
			total += qct
			res.Queries++
			if ms := float64(qct.Microseconds()) / 1000; ms > res.MaxMs {
				res.MaxMs = ms
			}
		}
		res.MeanMs = float64(total.Microseconds()) / 1000 / float64(res.Queries)
		out = append(out, res)
	}
	return json.NewEncoder(os.Stdout).Encode(out)
}
