package server

import (
	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
)

// readChunk is how many entities go in one ReadResponse.
const readChunk = 1000

// Read streams every entity matching the (possibly wildcard) entities of
// the request. Any client may read.
func (s *Server) Read(req *p4v1.ReadRequest, stream p4v1.P4Runtime_ReadServer) error {
	if err := s.checkDevice(req.DeviceId); err != nil {
		return err
	}
	l := s.cur.Load()
	if l == nil {
		return errorf(codes.FailedPrecondition, "no forwarding pipeline config has been set")
	}
	if len(req.Entities) == 0 {
		return errorf(codes.InvalidArgument, "read request has no entities")
	}
	resp := &p4v1.ReadResponse{}
	flush := func() error {
		if len(resp.Entities) == 0 {
			return nil
		}
		err := stream.Send(resp)
		resp = &p4v1.ReadResponse{}
		return err
	}
	emit := func(e *p4v1.Entity) error {
		if err := stream.Context().Err(); err != nil {
			return status.FromContextError(err).Err()
		}
		resp.Entities = append(resp.Entities, e)
		if len(resp.Entities) >= readChunk {
			return flush()
		}
		return nil
	}
	for _, e := range req.Entities {
		if e == nil || e.Entity == nil {
			return errorf(codes.InvalidArgument, "read of an empty entity")
		}
		if err := readOne(l, e, emit); err != nil {
			return err
		}
	}
	return flush()
}

func readOne(l *loaded, e *p4v1.Entity, emit func(*p4v1.Entity) error) (err error) {
	defer protect(&err)
	err = l.pipe.Read(proto.Clone(e).(*p4v1.Entity), emit)
	if _, ok := status.FromError(err); !ok {
		return errorf(codes.Unknown, "%v", err)
	}
	return err
}
