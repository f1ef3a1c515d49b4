package server

import (
	"context"
	"fmt"

	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	rpcstatus "google.golang.org/genproto/googleapis/rpc/status"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/anypb"

	"github.com/fairfabric/fairfabric/p4switch/target"
)

// Write applies a batch of updates in order. If any fails, the call returns
// UNKNOWN with one p4.v1.Error per update in the status details, in request
// order, OK ones included (P4Runtime §12.3). The atomicity decides what a
// failure does to the others:
//   - CONTINUE_ON_ERROR: the other updates stay applied;
//   - ROLLBACK_ON_ERROR: every update is still attempted (so each is
//     reported), then the applied ones are undone in reverse order and
//     reported ABORTED: the batch is all or nothing;
//   - DATAPLANE_ATOMIC: as ROLLBACK_ON_ERROR, and the batch runs while the
//     switch processes no packet, so a pipeline pass sees all of the batch or
//     none of it.
func (s *Server) Write(ctx context.Context, req *p4v1.WriteRequest) (*p4v1.WriteResponse, error) {
	if err := s.checkDevice(req.DeviceId); err != nil {
		return nil, err
	}
	if !s.arb.isPrimary(req.Role, req.ElectionId) {
		return nil, errorf(codes.PermissionDenied, "write from a client that is not the primary of role %q", req.Role)
	}
	l := s.cur.Load()
	if l == nil {
		return nil, errorf(codes.FailedPrecondition, "no forwarding pipeline config has been set")
	}
	if len(req.Updates) > s.opt.MaxBatch {
		return nil, errorf(codes.ResourceExhausted, "batch of %d updates exceeds the limit of %d", len(req.Updates), s.opt.MaxBatch)
	}
	var errs []error
	switch req.Atomicity {
	case p4v1.WriteRequest_CONTINUE_ON_ERROR:
		errs = s.writeEach(ctx, l, req.Updates)
	case p4v1.WriteRequest_ROLLBACK_ON_ERROR, p4v1.WriteRequest_DATAPLANE_ATOMIC:
		uw, ok := l.pipe.(target.UndoWriter)
		if !ok {
			return nil, errorf(codes.Unimplemented, "atomicity %v: the pipeline cannot undo writes", req.Atomicity)
		}
		if req.Atomicity == p4v1.WriteRequest_ROLLBACK_ON_ERROR {
			errs = s.writeAllOrNothing(ctx, l, uw, req.Updates)
			break
		}
		as, ok := s.opt.Switch.(AtomicSwitch)
		if !ok {
			return nil, errorf(codes.Unimplemented, "atomicity %v: the data plane cannot pause", req.Atomicity)
		}
		if err := as.Atomically(func() { errs = s.writeAllOrNothing(ctx, l, uw, req.Updates) }); err != nil {
			return nil, errorf(codes.Unavailable, "data plane: %v", err)
		}
	default:
		return nil, errorf(codes.InvalidArgument, "unknown atomicity %v", req.Atomicity)
	}
	failed := 0
	for _, err := range errs {
		if err != nil {
			failed++
		}
	}
	if failed == 0 {
		return &p4v1.WriteResponse{}, nil
	}
	return nil, batchError(errs, failed)
}

// AtomicSwitch is a data plane that can run a function while it processes
// no packet (DATAPLANE_ATOMIC writes).
type AtomicSwitch interface {
	Atomically(f func()) error
}

// writeEach applies every update (CONTINUE_ON_ERROR).
func (s *Server) writeEach(ctx context.Context, l *loaded, updates []*p4v1.Update) []error {
	errs := make([]error, len(updates))
	for i, u := range updates {
		if err := ctx.Err(); err != nil {
			errs[i] = status.FromContextError(err).Err()
		} else {
			errs[i] = s.writeOne(l, u)
		}
	}
	return errs
}

// writeAllOrNothing applies every update it can; if any fails, it undoes the
// applied ones (last first) and reports them ABORTED.
func (s *Server) writeAllOrNothing(ctx context.Context, l *loaded, uw target.UndoWriter, updates []*p4v1.Update) []error {
	errs := make([]error, len(updates))
	undos := make([]func() error, len(updates))
	firstFailed := -1
	for i, u := range updates {
		if err := ctx.Err(); err != nil {
			errs[i] = status.FromContextError(err).Err()
		} else {
			undos[i], errs[i] = s.writeOneUndo(l, uw, u)
		}
		if errs[i] != nil && firstFailed < 0 {
			firstFailed = i
		}
	}
	if firstFailed < 0 {
		return errs
	}
	for i := len(updates) - 1; i >= 0; i-- {
		if undos[i] == nil {
			continue
		}
		if err := s.undoOne(l, updates[i], undos[i]); err != nil {
			s.log.Error("rollback of a write failed; switch state may differ from the controller's", "update", i, "err", err)
			errs[i] = errorf(codes.Internal, "update applied but its rollback failed: %v", err)
			continue
		}
		errs[i] = errorf(codes.Aborted, "rolled back: update %d of the batch failed", firstFailed)
	}
	return errs
}

func (s *Server) writeOne(l *loaded, u *p4v1.Update) (err error) {
	if err := checkUpdate(u); err != nil {
		return err
	}
	defer protect(&err)
	if err := l.pipe.Write(u); err != nil {
		return asStatus(err)
	}
	s.afterWrite(u)
	return nil
}

func (s *Server) writeOneUndo(l *loaded, uw target.UndoWriter, u *p4v1.Update) (undo func() error, err error) {
	if err := checkUpdate(u); err != nil {
		return nil, err
	}
	defer protect(&err)
	undo, err = uw.WriteUndo(u)
	if err != nil {
		return nil, asStatus(err)
	}
	s.afterWrite(u)
	return undo, nil
}

// undoOne runs an update's undo and brings the server's own state (digest
// configs) back in line with the pipeline's.
func (s *Server) undoOne(l *loaded, u *p4v1.Update, undo func() error) (err error) {
	defer protect(&err)
	if err := undo(); err != nil {
		return err
	}
	if d := u.Entity.GetDigestEntry(); d != nil {
		var cfg *p4v1.DigestEntry_Config
		found := false
		_ = l.pipe.Read(&p4v1.Entity{Entity: &p4v1.Entity_DigestEntry{DigestEntry: &p4v1.DigestEntry{DigestId: d.DigestId}}},
			func(e *p4v1.Entity) error {
				cfg, found = e.GetDigestEntry().GetConfig(), true
				return nil
			})
		s.digests.configure(d.DigestId, cfg, !found)
	}
	return nil
}

func checkUpdate(u *p4v1.Update) error {
	if u == nil || u.Entity == nil || u.Entity.Entity == nil {
		return errorf(codes.InvalidArgument, "update has no entity")
	}
	if u.Type == p4v1.Update_UNSPECIFIED {
		return errorf(codes.InvalidArgument, "update type is unspecified")
	}
	if _, known := p4v1.Update_Type_name[int32(u.Type)]; !known {
		return errorf(codes.InvalidArgument, "unknown update type %d", u.Type)
	}
	return nil
}

// asStatus makes sure a pipeline error carries a gRPC code.
func asStatus(err error) error {
	if _, ok := status.FromError(err); !ok {
		return errorf(codes.Unknown, "%v", err)
	}
	return err
}

// afterWrite updates the server's state that follows a successful write.
func (s *Server) afterWrite(u *p4v1.Update) {
	if d := u.Entity.GetDigestEntry(); d != nil {
		s.digests.configure(d.DigestId, d.Config, u.Type == p4v1.Update_DELETE)
	}
	if te := u.Entity.GetTableEntry(); te != nil && te.IdleTimeoutNs > 0 && u.Type != p4v1.Update_DELETE {
		s.startIdleScan()
	}
}

// batchError builds the UNKNOWN status whose details hold one p4.v1.Error
// per update.
func batchError(errs []error, failed int) error {
	st := &rpcstatus.Status{Code: int32(codes.Unknown),
		Message: fmt.Sprintf("%d of %d updates failed", failed, len(errs))}
	for _, err := range errs {
		e := &p4v1.Error{CanonicalCode: int32(codes.OK)}
		if err != nil {
			s := status.Convert(err)
			e.CanonicalCode, e.Message = int32(s.Code()), s.Message()
		}
		a, aerr := anypb.New(e)
		if aerr != nil {
			return status.Errorf(codes.Internal, "encoding error details: %v", aerr)
		}
		st.Details = append(st.Details, a)
	}
	return status.ErrorProto(st)
}
