package main

import (
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"
)

func init() {
	commands["port"] = command{summary: "show or change a running switch's port queues (rate, depth, delay, loss)", run: portCmd}
}

func portCmd(args []string) int {
	fs := flag.NewFlagSet("port", flag.ContinueOnError)
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), `usage: p4switch port [--addr HOST:PORT] list
       p4switch port [--addr HOST:PORT] show PORT
       p4switch port [--addr HOST:PORT] set PORT rate=BPS depth=PKTS delay=DUR loss=P ...

rate in bits/s (k/M/G suffixes, 0 = unlimited), depth in packets, delay as 2ms or
microseconds, loss as 0.05 or 5%. Unnamed settings keep their values.`)
		fs.PrintDefaults()
	}
	addr := fs.String("addr", "127.0.0.1:9560", "the switch's --admin-addr")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	base := "http://" + *addr + "/ports"
	client := &http.Client{Timeout: 5 * time.Second}
	var resp *http.Response
	var err error
	switch a := fs.Args(); {
	case len(a) == 1 && a[0] == "list":
		resp, err = client.Get(base)
	case len(a) == 2 && a[0] == "show":
		resp, err = client.Get(base + "/" + url.PathEscape(a[1]))
	case len(a) >= 3 && a[0] == "set":
		form := url.Values{}
		for _, s := range a[2:] {
			k, v, ok := strings.Cut(s, "=")
			if !ok {
				fmt.Fprintf(os.Stderr, "p4switch port: setting %q: want KEY=VALUE\n", s)
				return 2
			}
			form.Add(k, v)
		}
		resp, err = client.PostForm(base+"/"+url.PathEscape(a[1]), form)
	default:
		fs.Usage()
		return 2
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "p4switch port: %v\n", err)
		return 1
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		fmt.Fprintf(os.Stderr, "p4switch port: %s", body)
		return 1
	}
	os.Stdout.Write(body)
	return 0
}
