package stf

import (
	"fmt"
	"strconv"
	"strings"

	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
)

// directMeter handles `direct_meter TABLE KEY:VALUE... CIR CBURST PIR PBURST`:
// configures the direct meter of the (exact-match) entry with that key, as a
// P4Runtime DirectMeterEntry (rates per second, bursts in the meter's unit).
// p4c's STF has no such command; p4switch adds it so tests can force colours.
func (r *runner) directMeter(rest string) error {
	f := strings.Fields(rest)
	if len(f) < 5 {
		return fmt.Errorf("direct_meter TABLE KEY:VALUE... CIR CBURST PIR PBURST")
	}
	t, err := r.table(f[0])
	if err != nil {
		return err
	}
	var rates [4]int64
	for i, s := range f[len(f)-4:] {
		if rates[i], err = strconv.ParseInt(s, 0, 64); err != nil || rates[i] < 0 {
			return fmt.Errorf("direct_meter: bad rate or burst %q", s)
		}
	}
	te := &p4v1.TableEntry{TableId: t.Preamble.Id}
	if err := r.addMatches(te, t, f[1:len(f)-4], "direct_meter"); err != nil {
		return err
	}
	cfg := &p4v1.MeterConfig{Cir: rates[0], Cburst: rates[1], Pir: rates[2], Pburst: rates[3]}
	return r.write(p4v1.Update_MODIFY, &p4v1.Entity{Entity: &p4v1.Entity_DirectMeterEntry{
		DirectMeterEntry: &p4v1.DirectMeterEntry{TableEntry: te, Config: cfg}}})
}
