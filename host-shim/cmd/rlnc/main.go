// Command rlnc is Promenade's RLNC multipath transport as a pipe (docs/rlnc.md):
// `rlnc send` codes its standard input and spreads it over a session's pinned paths at
// the rates of a rates table; `rlnc recv` decodes and writes the stream to standard
// output. Nothing in fairfabric starts it: RLNC is off unless an application runs it.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"hash/fnv"
	"io"
	"net"
	"net/netip"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/fairfabric/fairfabric/host-shim/ratetable"
	"github.com/fairfabric/fairfabric/host-shim/rlnc/transport"
	"github.com/fairfabric/fairfabric/host-shim/telemetry"
)

func main() {
	if len(os.Args) < 2 {
		usage()
	}
	var err error
	switch os.Args[1] {
	case "send":
		err = send(os.Args[2:])
	case "recv":
		err = recv(os.Args[2:])
	default:
		usage()
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "rlnc "+os.Args[1]+":", err)
		os.Exit(1)
	}
}

func usage() {
	fmt.Fprintln(os.Stderr, `usage:
  rlnc send -host H (-rates FILE | -kafka BROKERS) -session ID -dev DEV -src IP:PORT [flags]  stdin -> coded packets
                                          (-kafka or -report-kafka: figures on ff.shim.rlnc.v1)
  rlnc recv -listen IP:PORT -session ID [-host H -kafka BROKERS] [flags]                     decoded stream -> stdout
run "rlnc send -h" or "rlnc recv -h" for every flag`)
	os.Exit(2)
}

// common are the flags both ends must agree on.
type common struct {
	session   *string
	sessionID *uint
	symbol    *int
	capacity  *int
}

func commonFlags(fs *flag.FlagSet) common {
	return common{
		session:   fs.String("session", "", "session id as in the rates table (its FNV-1a hash is the header's session id)"),
		sessionID: fs.Uint("session-id", 0, "header session id (overrides the hash of -session)"),
		symbol:    fs.Int("symbol", 1024, "original packet size in bytes"),
		capacity:  fs.Int("capacity", 256, "decoder capacity and flow-control window in packets (power of two)"),
	}
}

func (c common) config() (transport.Config, error) {
	cfg := transport.Config{SymbolSize: *c.symbol, Capacity: *c.capacity}
	switch {
	case *c.sessionID > 0xffffffff:
		return cfg, fmt.Errorf("-session-id %d does not fit 32 bits", *c.sessionID)
	case *c.sessionID != 0:
		cfg.Session = uint32(*c.sessionID)
	case *c.session != "":
		cfg.Session = SessionID(*c.session)
	default:
		return cfg, errors.New("-session or -session-id is required")
	}
	return cfg, nil
}

// SessionID is the header's session id for a rates-table session id.
func SessionID(s string) uint32 {
	h := fnv.New32a()
	h.Write([]byte(s))
	return h.Sum32()
}

// loadSession reads one ff.ctl.rates.v1 record value and returns the named session.
func loadSession(path, host, id string) (ratetable.Session, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return ratetable.Session{}, err
	}
	t, err := ratetable.Parse(host, []byte(host), b)
	if err != nil {
		return ratetable.Session{}, fmt.Errorf("%s: %w", path, err)
	}
	for _, s := range t.Sessions {
		if s.ID == id {
			return s, nil
		}
	}
	return ratetable.Session{}, fmt.Errorf("%s: no session %q for host %q", path, id, host)
}

func send(args []string) error {
	fs := flag.NewFlagSet("send", flag.ContinueOnError)
	c := commonFlags(fs)
	host := fs.String("host", "", "this host's name in the rates table (required)")
	rates := fs.String("rates", "", "file with the host's rates table, one ff.ctl.rates.v1 record value; SIGHUP reloads it")
	kafka := fs.String("kafka", "", "brokers (host:port,...): follow ff.ctl.rates.v1 instead of -rates")
	ratesWait := fs.Duration("rates-wait", 10*time.Second, "with -kafka: how long to wait for the first table holding the session")
	dev := fs.String("dev", "", "host interface the tagged frames leave by (required unless -untagged)")
	src := fs.String("src", "", "source IP:PORT; acknowledgements come back to it (required)")
	dstPort := fs.Uint("dst-port", 7000, "receiver's UDP port (the address is the session's dst)")
	dstMAC := fs.String("dst-mac", "", "next hop's MAC address (default: from the neighbour table)")
	untagged := fs.Bool("untagged", false, "send through an ordinary UDP socket, not pinned (the path id stays in the RLNC header)")
	window := fs.Int("window", 8, "coding window in packets (1..16)")
	nsPath := fs.String("netns", "", "network namespace (e.g. /proc/PID/ns/net or /run/netns/NAME) of -dev and -src; Kafka stays in this one")
	closeWait := fs.Duration("close-timeout", 30*time.Second, "how long to wait at the end for the receiver to decode everything")
	reportKafka := fs.String("report-kafka", "", "brokers to publish the session's figures on ff.shim.rlnc.v1 (default: -kafka's; with -rates, set it to report)")
	reportEvery := fs.Duration("report-period", time.Second, "with -kafka or -report-kafka: publish the session's figures this often")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *reportEvery <= 0 {
		return errors.New("-report-period must be positive")
	}
	if *host == "" || *src == "" || (*dev == "" && !*untagged) {
		return errors.New("-host, -src and -dev (or -untagged) are required")
	}
	if (*rates == "") == (*kafka == "") {
		return errors.New("give exactly one of -rates FILE and -kafka BROKERS")
	}
	cfg, err := c.config()
	if err != nil {
		return err
	}
	cfg.Window = *window
	holder := newPathsHolder()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var sess ratetable.Session
	if *kafka != "" {
		if *c.session == "" {
			return errors.New("-kafka needs -session (the rates table's session id)")
		}
		go func() {
			if err := kafkaRates(ctx, strings.Split(*kafka, ","), *host, *c.session, holder.apply); err != nil {
				fmt.Fprintln(os.Stderr, "rlnc send: kafka:", err)
			}
		}()
		select {
		case sess = <-holder.first:
		case <-time.After(*ratesWait):
			return fmt.Errorf("no rates table with session %q for host %q on %s within %s", *c.session, *host, *kafka, *ratesWait)
		}
	} else if sess, err = loadSession(*rates, *host, *c.session); err != nil {
		return err
	}
	srcAP, err := netip.ParseAddrPort(*src)
	if err != nil {
		return fmt.Errorf("-src: %w", err)
	}
	if *dstPort == 0 || *dstPort > 65535 {
		return fmt.Errorf("-dst-port %d out of range", *dstPort)
	}
	dst := netip.AddrPortFrom(sess.DstAddr(), uint16(*dstPort))
	var mac net.HardwareAddr
	if *dstMAC != "" {
		if mac, err = net.ParseMAC(*dstMAC); err != nil {
			return fmt.Errorf("-dst-mac: %w", err)
		}
	}
	var conn *net.UDPConn
	var link transport.Link
	err = inNetns(*nsPath, func() error {
		var err error
		if conn, err = net.ListenUDP("udp4", net.UDPAddrFromAddrPort(srcAP)); err != nil {
			return err
		}
		if *untagged {
			link = transport.NewUDPLink(conn, dst)
			return nil
		}
		link, err = transport.NewTaggedLink(*dev, srcAP, dst, mac, conn)
		return err
	})
	if conn != nil {
		defer conn.Close()
	}
	if err != nil {
		return err
	}
	defer link.Close()
	s, err := transport.NewSender(cfg, transport.PathsOf(sess), link, conn)
	if err != nil {
		return err
	}
	if err := holder.attach(s); err != nil {
		fmt.Fprintln(os.Stderr, "rlnc send: rates that arrived during start-up not applied:", err)
	}
	hup := make(chan os.Signal, 1)
	signal.Notify(hup, syscall.SIGHUP)
	go func() {
		if *rates == "" {
			return
		}
		for range hup {
			ns, err := loadSession(*rates, *host, *c.session)
			if err == nil {
				err = s.SetPaths(transport.PathsOf(ns))
			}
			if err != nil {
				fmt.Fprintln(os.Stderr, "rlnc send: reload (previous rates stay):", err)
			} else {
				fmt.Fprintln(os.Stderr, "rlnc send: rates reloaded:", transport.PathsOf(ns))
			}
		}
	}()
	if *reportKafka == "" {
		*reportKafka = *kafka
	}
	var rep *reporter
	if *reportKafka != "" {
		var prev transport.SenderStats
		srcIP, dstIP := srcAP.Addr().Unmap().String(), dst.Addr().Unmap().String()
		rep, err = startReporter(strings.Split(*reportKafka, ","), sessionEnds{*host, *c.session, cfg.Session}, *reportEvery,
			func(elapsed time.Duration) (telemetry.RLNC, bool) {
				cur := s.Stats()
				rec := telemetry.RLNC{Role: "sender", Src: srcIP, Dst: dstIP, Sender: senderPeriod(cfg, prev, cur, elapsed)}
				prev = cur
				return rec, true
			})
		if err != nil {
			return err
		}
	}
	started := time.Now()
	n, err := io.Copy(s, os.Stdin)
	if cerr := s.Close(*closeWait); err == nil {
		err = cerr
	}
	if rep != nil { // before the counters, which stay the last line (the experiments read it)
		reportDelivery(rep.close())
	}
	report("sent", n, started, s.Stats())
	return err
}

func recv(args []string) error {
	fs := flag.NewFlagSet("recv", flag.ContinueOnError)
	c := commonFlags(fs)
	listen := fs.String("listen", "", "IP:PORT to receive on (required)")
	host := fs.String("host", "", "with -kafka: this host's name, the key of its records")
	kafka := fs.String("kafka", "", "brokers (host:port,...): publish the session's figures on ff.shim.rlnc.v1")
	reportEvery := fs.Duration("report-period", time.Second, "with -kafka: how often")
	nsPath := fs.String("netns", "", "network namespace (e.g. /proc/PID/ns/net) of -listen; Kafka stays in this one")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *listen == "" {
		return errors.New("-listen is required")
	}
	cfg, err := c.config()
	if err != nil {
		return err
	}
	ap, err := netip.ParseAddrPort(*listen)
	if err != nil {
		return fmt.Errorf("-listen: %w", err)
	}
	if *kafka != "" && (*host == "" || !ap.Addr().Unmap().Is4() || ap.Addr().IsUnspecified()) {
		return errors.New("-kafka needs -host and a -listen IPv4 address that is not 0.0.0.0 (the session's dst)")
	}
	if *reportEvery <= 0 {
		return errors.New("-report-period must be positive")
	}
	var conn *net.UDPConn
	if err := inNetns(*nsPath, func() (err error) {
		conn, err = net.ListenUDP("udp4", net.UDPAddrFromAddrPort(ap))
		return err
	}); err != nil {
		return err
	}
	defer conn.Close()
	_ = conn.SetReadBuffer(4 << 20)
	r, err := transport.NewReceiver(cfg, conn)
	if err != nil {
		return err
	}
	out := &countingWriter{w: os.Stdout}
	var rep *reporter
	if *kafka != "" {
		var prev transport.ReceiverStats
		var prevOut uint64
		dst := ap.Addr().Unmap().String()
		rep, err = startReporter(strings.Split(*kafka, ","), sessionEnds{*host, *c.session, cfg.Session}, *reportEvery,
			func(elapsed time.Duration) (telemetry.RLNC, bool) {
				cur, delivered := r.Stats(), out.n.Load()
				if !cur.Peer.IsValid() { // nothing heard: the pair is not known yet
					return telemetry.RLNC{}, false
				}
				rec := telemetry.RLNC{Role: "receiver", Src: cur.Peer.Addr().Unmap().String(), Dst: dst,
					Receiver: receiverPeriod(prev, cur, delivered-prevOut, elapsed)}
				prev, prevOut = cur, delivered
				return rec, true
			})
		if err != nil {
			return err
		}
	}
	started := time.Now()
	n, err := io.Copy(out, r)
	st := r.Stats()
	_ = r.Close()
	if rep != nil { // before the counters, which stay the last line (the experiments read it)
		reportDelivery(rep.close())
	}
	report("received", n, started, st)
	return err
}

func reportDelivery(d telemetry.Delivery) {
	b, _ := json.Marshal(d)
	fmt.Fprintf(os.Stderr, "rlnc: %s records: %s\n", telemetry.TopicRLNC, b)
}

func report(what string, n int64, since time.Time, stats any) {
	b, _ := json.Marshal(stats)
	fmt.Fprintf(os.Stderr, "rlnc: %s %d bytes in %.3f s; %s\n", what, n, time.Since(since).Seconds(), b)
}
