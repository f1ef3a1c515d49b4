package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

func init() {
	commands["sink"] = command{"accept TCP connections and count the bytes the application reads, per local address", sink}
	commands["blast"] = command{"send TCP as fast as allowed to each destination for a while; print bytes per destination", blast}
}

// sink prints {"local address": bytes} as JSON when it gets SIGTERM/SIGINT or after -dur.
func sink(args []string) error {
	fs := flag.NewFlagSet("sink", flag.ContinueOnError)
	listen := fs.String("listen", ":5201", "address to listen on")
	dur := fs.Duration("dur", 0, "stop after this long (0: until signalled)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	ln, err := net.Listen("tcp", *listen)
	if err != nil {
		return err
	}
	var mu sync.Mutex
	counts := map[string]*atomic.Uint64{}
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			local := c.LocalAddr().(*net.TCPAddr).IP.String()
			mu.Lock()
			n := counts[local]
			if n == nil {
				n = &atomic.Uint64{}
				counts[local] = n
			}
			mu.Unlock()
			go func() {
				defer c.Close()
				buf := make([]byte, 256*1024)
				for {
					k, err := c.Read(buf)
					n.Add(uint64(k))
					if err != nil {
						return
					}
				}
			}()
		}
	}()
	fmt.Fprintln(os.Stderr, "sink: listening on", ln.Addr())
	snapshot := func() error {
		out := map[string]uint64{}
		mu.Lock()
		for k, v := range counts {
			out[k] = v.Load()
		}
		mu.Unlock()
		return json.NewEncoder(os.Stdout).Encode(out)
	}
	usr1 := make(chan os.Signal, 1)
	signal.Notify(usr1, syscall.SIGUSR1) // print a snapshot and keep counting
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGTERM, syscall.SIGINT)
	var timeout <-chan time.Time
	if *dur > 0 {
		timeout = time.After(*dur)
	}
	for {
		select {
		case <-usr1:
			if err := snapshot(); err != nil {
				return err
			}
			continue
		case <-sig:
		case <-timeout:
		}
		break
	}
	ln.Close()
	return snapshot()
}

// blast opens one TCP connection per destination and writes for -dur.
func blast(args []string) error {
	fs := flag.NewFlagSet("blast", flag.ContinueOnError)
	dsts := fs.String("dst", "", "destinations host:port, comma-separated (required)")
	dur := fs.Duration("dur", 5*time.Second, "how long to send")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *dsts == "" {
		return errors.New("-dst is required")
	}
	list := strings.Split(*dsts, ",")
	sent := make([]atomic.Uint64, len(list))
	var wg sync.WaitGroup
	errs := make(chan error, len(list))
	stop := time.Now().Add(*dur)
	for i, d := range list {
		wg.Add(1)
		go func(i int, d string) {
			defer wg.Done()
			c, err := net.DialTimeout("tcp", d, 5*time.Second)
			if err != nil {
				errs <- err
				return
			}
			defer c.Close()
			buf := make([]byte, 64*1024)
			for time.Now().Before(stop) {
				_ = c.SetWriteDeadline(stop)
				n, err := c.Write(buf)
				sent[i].Add(uint64(n))
				if err != nil {
					if ne, ok := err.(net.Error); ok && ne.Timeout() {
						return
					}
					if err != io.EOF {
						errs <- err
					}
					return
				}
			}
		}(i, d)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		return err
	}
	out := map[string]uint64{}
	for i, d := range list {
		out[d] = sent[i].Load()
	}
	return json.NewEncoder(os.Stdout).Encode(out)
}
