package interp

// pin fixes where a dynamic lvalue points: p4c evaluates the left-hand side
// of an assignment (and an out/inout argument) before the right-hand side
// (and the call), so "h.s[f(h.i)].a = g(h.i)" and "act(h.s[h.i].a)" must
// keep the element chosen before g or act changed h.i. fix stores the
// address, validity slot and union base into scratch slots; the returned
// lvalue reads them back. Static lvalues need no pinning (fix is nil).
func (c *compiler) pin(lv *lval) (fix func(*State), pinned *lval) {
	if lv.slice != nil {
		fix, base := c.pin(lv.slice.base)
		if fix == nil {
			return nil, lv
		}
		p := *lv
		p.slice = &sliceInfo{base: base, hi: lv.slice.hi, lo: lv.slice.lo}
		return fix, &p
	}
	if lv.static && lv.hvDyn == nil {
		return nil, lv
	}
	p := *lv
	var fixes []func(*State)
	if !lv.static {
		slot, addr := c.alloc(1), lv.addr
		fixes = append(fixes, func(st *State) { st.S[slot] = uint64(int64(addr(st))) })
		p.addr = func(st *State) int { return int(int64(st.S[slot])) }
	}
	if lv.hvDyn != nil {
		slot, hv := c.alloc(1), lv.hvDyn
		fixes = append(fixes, func(st *State) { st.S[slot] = uint64(int64(hv(st))) })
		p.hvDyn = func(st *State) int { return int(int64(st.S[slot])) }
	}
	if lv.unionBase != nil && !lv.static {
		slot, ub := c.alloc(1), lv.unionBase
		fixes = append(fixes, func(st *State) { st.S[slot] = uint64(int64(ub(st))) })
		p.unionBase = func(st *State) int { return int(int64(st.S[slot])) }
	}
	return func(st *State) {
		for _, f := range fixes {
			f(st)
		}
	}, &p
}
