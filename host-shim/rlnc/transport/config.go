package transport

import (
	"fmt"
	"time"

	"github.com/fairfabric/fairfabric/host-shim/rlnc/coding"
)

// Config is what both ends of a session agree on, and the sender's knobs.
type Config struct {
	Session    uint32        // session id carried in every header
	SymbolSize int           // original packet size in bytes (default 1024, Promenade's 1 KB)
	Window     int           // coding window: newest packets a coded packet combines (default 8, ≤ 16)
	Capacity   int           // receiver's decoder capacity and the sender's flow-control window, packets (default 256)
	MinRTO     time.Duration // floor of the repair timeout (default 10 ms)
	MaxRTO     time.Duration // ceiling of the repair timeout (default 500 ms)
	Burst      time.Duration // pacing burst per path (default 2 ms, as the shim's HTB classes)
	Seed       uint64        // coefficient generator seed; 0 = from the clock
}

func (c *Config) fill() error {
	if c.SymbolSize == 0 {
		c.SymbolSize = 1024
	}
	if c.Window == 0 {
		c.Window = 8
	}
	if c.Capacity == 0 {
		c.Capacity = 256
	}
	if c.MinRTO == 0 {
		c.MinRTO = 10 * time.Millisecond
	}
	if c.MaxRTO == 0 {
		c.MaxRTO = 500 * time.Millisecond
	}
	if c.Burst == 0 {
		c.Burst = 2 * time.Millisecond
	}
	if c.SymbolSize < 3 || c.SymbolSize > coding.MaxSymbolSize {
		return fmt.Errorf("rlnc: symbol size %d out of range 3..%d", c.SymbolSize, coding.MaxSymbolSize)
	}
	if c.Window < 1 || c.Window > coding.MaxWindow {
		return fmt.Errorf("rlnc: window %d out of range 1..%d", c.Window, coding.MaxWindow)
	}
	if c.Capacity < coding.MaxWindow || c.Capacity > 1<<16 || c.Capacity&(c.Capacity-1) != 0 {
		return fmt.Errorf("rlnc: capacity %d must be a power of two in %d..%d", c.Capacity, coding.MaxWindow, 1<<16)
	}
	if c.MinRTO < 0 || c.Burst < 0 {
		return fmt.Errorf("rlnc: negative MinRTO or Burst")
	}
	if c.MaxRTO < c.MinRTO {
		return fmt.Errorf("rlnc: MaxRTO %s below MinRTO %s", c.MaxRTO, c.MinRTO)
	}
	return nil
}

// A stream is cut into symbols: a 2-byte big-endian word (bit 15: end of stream, bits
// 0-14: data length) and the data, zero-padded to the symbol size.
const finBit = 0x8000

var aLongTimeAgo = time.Unix(1, 0)
