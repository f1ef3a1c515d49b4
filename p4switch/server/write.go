package server

import (
	"context"
	"fmt"

	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	rpcstatus "google.golang.org/genproto/googleapis/rpc/status"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/anypb"
)

// Write applies a batch of updates in order (CONTINUE_ON_ERROR). If any
// fails, the call returns UNKNOWN with one p4.v1.Error per update in the
// status details, in request order, OK ones included (P4Runtime §12.3).
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
	if req.Atomicity != p4v1.WriteRequest_CONTINUE_ON_ERROR {
		return nil, errorf(codes.Unimplemented, "atomicity %v is not supported; use CONTINUE_ON_ERROR", req.Atomicity)
	}
	if len(req.Updates) > s.opt.MaxBatch {
		return nil, errorf(codes.ResourceExhausted, "batch of %d updates exceeds the limit of %d", len(req.Updates), s.opt.MaxBatch)
	}
	errs := make([]error, len(req.Updates))
	failed := 0
	for i, u := range req.Updates {
		if err := ctx.Err(); err != nil {
			errs[i] = status.FromContextError(err).Err()
		} else {
			errs[i] = s.writeOne(l, u)
		}
		if errs[i] != nil {
			failed++
		}
	}
	if failed == 0 {
		return &p4v1.WriteResponse{}, nil
	}
	return nil, batchError(errs, failed)
}

func (s *Server) writeOne(l *loaded, u *p4v1.Update) (err error) {
	if u == nil || u.Entity == nil || u.Entity.Entity == nil {
		return errorf(codes.InvalidArgument, "update has no entity")
	}
	if u.Type == p4v1.Update_UNSPECIFIED {
		return errorf(codes.InvalidArgument, "update type is unspecified")
	}
	if _, known := p4v1.Update_Type_name[int32(u.Type)]; !known {
		return errorf(codes.InvalidArgument, "unknown update type %d", u.Type)
	}
	defer protect(&err)
	if err := l.pipe.Write(u); err != nil {
		if _, ok := status.FromError(err); !ok {
			return errorf(codes.Unknown, "%v", err)
		}
		return err
	}
	if d := u.Entity.GetDigestEntry(); d != nil {
		s.digests.configure(d.DigestId, d.Config, u.Type == p4v1.Update_DELETE)
	}
	return nil
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
