// Package tm is p4switch's traffic manager: per egress port FIFO queues
// (one per priority) served at a configured rate in bits per second, with
// link emulation (propagation delay and random loss) on the way out.
package tm

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Priorities is the number of FIFO queues per port; higher priority is
// served first (strict priority, as BMv2's priority queues).
const Priorities = 8

// PortConfig is the link emulation of one egress port.
type PortConfig struct {
	RateBps uint64        // service rate in bits per second; 0 = line rate (no limit)
	Depth   int           // queue capacity in packets, per priority
	Delay   time.Duration // propagation delay added after the egress pipeline
	Loss    float64       // probability (0..1) that a frame is lost on the wire
}

// DefaultDepth is the queue depth used when none is configured (BMv2's default).
const DefaultDepth = 64

// DefaultConfig is a port with no emulation: unlimited rate, default depth.
func DefaultConfig() PortConfig { return PortConfig{Depth: DefaultDepth} }

// Validate reports a configuration that makes no sense.
func (c PortConfig) Validate() error {
	if c.Depth < 1 || c.Depth > 1<<20 {
		return fmt.Errorf("depth %d out of range 1..%d packets", c.Depth, 1<<20)
	}
	if c.Delay < 0 || c.Delay > 10*time.Second {
		return fmt.Errorf("delay %v out of range 0..10s", c.Delay)
	}
	if !(c.Loss >= 0 && c.Loss <= 1) {
		return fmt.Errorf("loss %v out of range 0..1", c.Loss)
	}
	return nil
}

func (c PortConfig) String() string {
	return fmt.Sprintf("rate=%d depth=%d delay=%v loss=%g", c.RateBps, c.Depth, c.Delay, c.Loss)
}

// Apply sets the fields given as KEY=VALUE settings: rate (bits per second,
// with optional k/M/G suffix, 0 = unlimited), depth (packets), delay (a Go
// duration such as 2ms, or a number of microseconds) and loss (0..1 or a
// percentage such as 5%). The result is validated; on error c is unchanged.
func (c *PortConfig) Apply(settings ...string) error {
	n := *c
	for _, s := range settings {
		key, val, ok := strings.Cut(s, "=")
		if !ok {
			return fmt.Errorf("setting %q: want KEY=VALUE", s)
		}
		var err error
		switch key {
		case "rate":
			n.RateBps, err = ParseRate(val)
		case "depth":
			n.Depth, err = strconv.Atoi(val)
		case "delay":
			n.Delay, err = ParseDelay(val)
		case "loss":
			n.Loss, err = ParseLoss(val)
		default:
			return fmt.Errorf("setting %q: unknown key %q (want rate, depth, delay or loss)", s, key)
		}
		if err != nil {
			return fmt.Errorf("setting %q: %v", s, err)
		}
	}
	if err := n.Validate(); err != nil {
		return err
	}
	*c = n
	return nil
}

// ParseRate reads bits per second: "1000000", "100k", "10M", "1.5G".
func ParseRate(s string) (uint64, error) {
	mult := 1.0
	switch {
	case strings.HasSuffix(s, "k"), strings.HasSuffix(s, "K"):
		mult, s = 1e3, s[:len(s)-1]
	case strings.HasSuffix(s, "M"):
		mult, s = 1e6, s[:len(s)-1]
	case strings.HasSuffix(s, "G"):
		mult, s = 1e9, s[:len(s)-1]
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || f < 0 || f*mult > 1e13 {
		return 0, fmt.Errorf("bad rate %q: want bits per second, e.g. 100M", s)
	}
	return uint64(f * mult), nil
}

// ParseDelay reads a Go duration ("2ms", "150us") or plain microseconds.
func ParseDelay(s string) (time.Duration, error) {
	if us, err := strconv.ParseUint(s, 10, 32); err == nil {
		return time.Duration(us) * time.Microsecond, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		return 0, fmt.Errorf("bad delay %q: want a duration such as 2ms", s)
	}
	return d, nil
}

// ParseLoss reads a probability "0.05" or a percentage "5%".
func ParseLoss(s string) (float64, error) {
	div := 1.0
	if strings.HasSuffix(s, "%") {
		div, s = 100, s[:len(s)-1]
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return 0, fmt.Errorf("bad loss %q: want a probability such as 0.05 or 5%%", s)
	}
	return f / div, nil
}
