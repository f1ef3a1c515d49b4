package v1model

import (
	"math/bits"

	p4configv1 "github.com/p4lang/p4runtime/go/p4/config/v1"
	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"google.golang.org/grpc/codes"

	"github.com/fairfabric/fairfabric/p4switch/interp"
)

// valueSetPart is the piece of a value set's element that one P4Info match
// field describes: the whole bit<W> value, or one field of a struct.
type valueSetPart struct {
	key  interp.TableKey // Name, Width and MatchKind, as for a table key
	off  int             // first slot within the element
	size int             // slots
}

// valueSetParts pairs the P4Info match fields of vs (declared by p4info, in
// the element's field order) with the slots they cover.
func (p *Pipeline) valueSetParts(vs *interp.ValueSet, id uint32) (*p4configv1.ValueSet, []valueSetPart) {
	var pv *p4configv1.ValueSet
	for _, x := range p.c.P4Info.ValueSets {
		if x.Preamble.Id == id {
			pv = x
		}
	}
	var parts []valueSetPart
	for i, mf := range pv.Match {
		part := valueSetPart{off: 0, size: vs.Layout.Size}
		if vs.Layout.Kind == interp.KStruct {
			f := vs.Layout.Fields[i]
			part.off, part.size = f.Off, f.Layout.Size
		}
		part.key = interp.TableKey{Name: mf.Name, Width: int(mf.Bitwidth), MatchKind: matchKind(mf)}
		parts = append(parts, part)
	}
	return pv, parts
}

func matchKind(mf *p4configv1.MatchField) string {
	switch mf.GetMatchType() {
	case p4configv1.MatchField_EXACT:
		return "exact"
	case p4configv1.MatchField_TERNARY:
		return "ternary"
	case p4configv1.MatchField_LPM:
		return "lpm"
	case p4configv1.MatchField_OPTIONAL:
		return "optional"
	}
	return mf.GetOtherMatchType()
}

func (p *Pipeline) valueSetByID(id uint32) *interp.ValueSet {
	for x, vid := range p.c.IDs.ValueSets {
		if vid == id {
			return x
		}
	}
	return nil
}

// writeValueSet replaces the members of a value set. Each member gives its
// match fields in the form P4Info declares them (an exact field must be
// given; a ternary, lpm or optional one may be left out to match anything).
func (p *Pipeline) writeValueSet(typ p4v1.Update_Type, v *p4v1.ValueSetEntry) error {
	if typ != p4v1.Update_MODIFY {
		return errf(codes.InvalidArgument, "value set entries can only be modified")
	}
	vs := p.valueSetByID(v.ValueSetId)
	if vs == nil {
		return errf(codes.NotFound, "no value set with id %d", v.ValueSetId)
	}
	if len(v.Members) > vs.Size {
		return errf(codes.ResourceExhausted, "value set %s holds at most %d members", vs.Name, vs.Size)
	}
	pv, parts := p.valueSetParts(vs, v.ValueSetId)
	var members [][2][]uint64
	for n, m := range v.Members {
		val, msk := make([]uint64, vs.Layout.Size), make([]uint64, vs.Layout.Size)
		seen := map[int]bool{}
		for _, fm := range m.Match {
			i := -1
			for j, mf := range pv.Match {
				if mf.Id == fm.FieldId {
					i = j
				}
			}
			if i < 0 {
				return errf(codes.InvalidArgument, "value set %s has no match field with id %d", vs.Name, fm.FieldId)
			}
			if seen[i] {
				return errf(codes.InvalidArgument, "value set %s, member %d: match field %d given twice", vs.Name, n+1, fm.FieldId)
			}
			seen[i] = true
			part := parts[i]
			mt, err := matchFromProto(&part.key, fm)
			if err != nil {
				return errf(codes.InvalidArgument, "value set %s, member %d, field %d: %v", vs.Name, n+1, fm.FieldId, err)
			}
			mask := mt.Mask
			if part.key.MatchKind == "exact" || part.key.MatchKind == "optional" {
				mask = interp.PrefixMask(part.key.Width, part.key.Width, part.size)
			}
			copy(val[part.off:part.off+part.size], mt.Value)
			copy(msk[part.off:part.off+part.size], mask)
		}
		for i, part := range parts {
			if !seen[i] && part.key.MatchKind == "exact" {
				return errf(codes.InvalidArgument, "value set %s, member %d: exact match field %d is missing", vs.Name, n+1, pv.Match[i].Id)
			}
		}
		members = append(members, [2][]uint64{val, msk})
	}
	vs.Set(members)
	return nil
}

// readValueSets returns the members of value sets in the form P4Info
// declares them (wildcard ternary, lpm and optional fields left out).
func (p *Pipeline) readValueSets(req *p4v1.ValueSetEntry, emit func(*p4v1.Entity) error) error {
	for _, vs := range p.p.ValueSets {
		id := p.c.IDs.ValueSets[vs]
		if req.ValueSetId != 0 && req.ValueSetId != id {
			continue
		}
		pv, parts := p.valueSetParts(vs, id)
		e := &p4v1.ValueSetEntry{ValueSetId: id}
		for _, m := range vs.Members() {
			mem := &p4v1.ValueSetMember{}
			for i, part := range parts {
				val, msk := m[0][part.off:part.off+part.size], m[1][part.off:part.off+part.size]
				w := part.key.Width
				fm := &p4v1.FieldMatch{FieldId: pv.Match[i].Id}
				switch part.key.MatchKind {
				case "exact":
					fm.FieldMatchType = &p4v1.FieldMatch_Exact_{Exact: &p4v1.FieldMatch_Exact{Value: wordsBytes(val, w)}}
				case "optional":
					if isZero(msk) {
						continue
					}
					fm.FieldMatchType = &p4v1.FieldMatch_Optional_{Optional: &p4v1.FieldMatch_Optional{Value: wordsBytes(val, w)}}
				case "lpm":
					plen := 0
					for _, x := range msk {
						plen += bits.OnesCount64(x)
					}
					if plen == 0 {
						continue
					}
					fm.FieldMatchType = &p4v1.FieldMatch_Lpm{Lpm: &p4v1.FieldMatch_LPM{Value: wordsBytes(val, w), PrefixLen: int32(plen)}}
				default:
					if isZero(msk) {
						continue
					}
					fm.FieldMatchType = &p4v1.FieldMatch_Ternary_{Ternary: &p4v1.FieldMatch_Ternary{Value: wordsBytes(val, w), Mask: wordsBytes(msk, w)}}
				}
				mem.Match = append(mem.Match, fm)
			}
			e.Members = append(e.Members, mem)
		}
		if err := emit(&p4v1.Entity{Entity: &p4v1.Entity_ValueSetEntry{ValueSetEntry: e}}); err != nil {
			return err
		}
	}
	return nil
}
