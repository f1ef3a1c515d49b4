package v1model

import (
	"fmt"

	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"google.golang.org/grpc/codes"
	"google.golang.org/protobuf/proto"

	"github.com/fairfabric/fairfabric/p4switch/interp"
	"github.com/fairfabric/fairfabric/p4switch/target"
)

var _ target.UndoWriter = (*Pipeline)(nil)

// WriteUndo implements target.UndoWriter. Table entries are restored as the
// very entry objects they were (direct counters, meters and idle state
// included); other entities by writing back what a Read returned before the
// update.
func (p *Pipeline) WriteUndo(u *p4v1.Update) (func() error, error) {
	if u == nil || u.Entity == nil {
		return nil, errf(codes.InvalidArgument, "update has no entity")
	}
	switch u.Type {
	case p4v1.Update_INSERT, p4v1.Update_MODIFY, p4v1.Update_DELETE:
	default:
		return nil, errf(codes.InvalidArgument, "unknown update type %v", u.Type)
	}
	p.writeMu.Lock()
	defer p.writeMu.Unlock()
	undo := p.undoFor(u)
	if err := p.write(u); err != nil {
		return nil, err
	}
	return func() error {
		p.writeMu.Lock()
		defer p.writeMu.Unlock()
		return undo()
	}, nil
}

// undoFor captures what update u is about to change and returns the
// function that puts it back (called with writeMu held). If u is invalid it
// will fail, and the returned function is never called.
func (p *Pipeline) undoFor(u *p4v1.Update) func() error {
	if te := u.Entity.GetTableEntry(); te != nil {
		if undo := p.undoTableEntry(u.Type, te); undo != nil {
			return undo
		}
		return func() error { return nil }
	}
	var before []*p4v1.Entity
	if u.Type != p4v1.Update_INSERT {
		_ = p.read(u.Entity, func(e *p4v1.Entity) error {
			before = append(before, proto.Clone(e).(*p4v1.Entity))
			return nil
		})
	}
	return func() error {
		if u.Type == p4v1.Update_INSERT {
			return p.write(&p4v1.Update{Type: p4v1.Update_DELETE, Entity: u.Entity})
		}
		typ := p4v1.Update_MODIFY
		if u.Type == p4v1.Update_DELETE {
			typ = p4v1.Update_INSERT
		}
		for _, e := range before {
			if err := p.write(&p4v1.Update{Type: typ, Entity: e}); err != nil {
				return fmt.Errorf("restoring %v: %w", e, err)
			}
		}
		return nil
	}
}

// undoTableEntry restores a table's entry or default action; nil if the
// update names no existing table or entry (it will fail).
func (p *Pipeline) undoTableEntry(typ p4v1.Update_Type, te *p4v1.TableEntry) func() error {
	t, err := p.tableByID(te.TableId)
	if err != nil {
		return nil
	}
	if te.IsDefaultAction {
		old := t.GetDefault()
		return func() error {
			t.SetDefault(old)
			return nil
		}
	}
	probe, err := p.entryFromProto(t, te)
	if err != nil {
		return nil
	}
	if typ == p4v1.Update_INSERT {
		return func() error {
			if !t.Delete(probe) {
				return fmt.Errorf("table %s: inserted entry is gone", t.Name)
			}
			p.untrackIdle(t, probe)
			return nil
		}
	}
	old := t.Lookup(probe)
	if old == nil {
		return nil
	}
	return func() error {
		p.putEntry(t, old)
		return nil
	}
}

// putEntry stores en in t, replacing the entry with its identity if any.
func (p *Pipeline) putEntry(t *interp.Table, en *interp.Entry) {
	if !t.Replace(en) {
		t.Insert(en)
	}
	p.trackIdle(t, en)
}
