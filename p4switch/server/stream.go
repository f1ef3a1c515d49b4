package server

import (
	"errors"
	"io"
	"sync"
	"time"

	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	rpcstatus "google.golang.org/genproto/googleapis/rpc/status"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// latePacketIn is how long a packet-in may take from the server to the
// stream before it is logged (the P4TE loop's whole budget is 5 ms).
const latePacketIn = 100 * time.Millisecond

// sendQueue is how many messages may wait for a slow client before
// packet-ins and digests to it are dropped.
const sendQueue = 4096

// client is one StreamChannel. Fields other than the queue are guarded by
// the arbiter's mutex.
type client struct {
	out  chan outgoing
	done chan struct{}
	once sync.Once
	// gone is closed once the client's side of the stream has ended
	// (half-close, cancel or broken connection), before the handler returns.
	gone     chan struct{}
	goneOnce sync.Once

	arbitrated  bool
	role        string
	roleMsg     *p4v1.Role
	hasElection bool
	election    electionID
}

// outgoing is a message waiting for the client's sender; a packet-in has
// the times its latency is measured from.
type outgoing struct {
	m   *p4v1.StreamMessageResponse
	pin *packetInTimes // nil for other messages
}

// packetInTimes: when the pipeline made a packet-in and when the server took it.
type packetInTimes struct {
	made, taken time.Time
}

// trySend queues m unless the client's queue is full.
func (c *client) trySend(m *p4v1.StreamMessageResponse) bool {
	return c.trySendOut(outgoing{m: m})
}

func (c *client) trySendOut(o outgoing) bool {
	select {
	case c.out <- o:
		return true
	case <-c.done:
	default:
	}
	return false
}

// sendArbitration queues an arbitration update; if the client is so far
// behind that even these cannot be queued, its stream is ended.
func (c *client) sendArbitration(m *p4v1.StreamMessageResponse) {
	if !c.trySend(m) {
		c.close()
	}
}

func (c *client) close() { c.once.Do(func() { close(c.done) }) }

func (c *client) markGone() { c.goneOnce.Do(func() { close(c.gone) }) }

func (c *client) isGone() bool {
	select {
	case <-c.gone:
		return true
	default:
		return false
	}
}

func statusProto(code codes.Code, msg string) *rpcstatus.Status {
	return &rpcstatus.Status{Code: int32(code), Message: msg}
}

func streamError(code codes.Code, msg string, other *p4v1.StreamMessageRequest) *p4v1.StreamMessageResponse {
	e := &p4v1.StreamError{CanonicalCode: int32(code), Message: msg}
	switch u := other.GetUpdate().(type) {
	case *p4v1.StreamMessageRequest_Packet:
		e.Details = &p4v1.StreamError_PacketOut{PacketOut: &p4v1.PacketOutError{PacketOut: u.Packet}}
	case *p4v1.StreamMessageRequest_DigestAck:
		e.Details = &p4v1.StreamError_DigestListAck{DigestListAck: &p4v1.DigestListAckError{DigestListAck: u.DigestAck}}
	case *p4v1.StreamMessageRequest_Other:
		e.Details = &p4v1.StreamError_Other{Other: &p4v1.StreamOtherError{Other: u.Other}}
	}
	return &p4v1.StreamMessageResponse{Update: &p4v1.StreamMessageResponse_Error{Error: e}}
}

func (s *Server) StreamChannel(stream p4v1.P4Runtime_StreamChannelServer) error {
	c := &client{out: make(chan outgoing, sendQueue), done: make(chan struct{}), gone: make(chan struct{})}
	defer c.markGone()
	defer s.arb.leave(c)
	defer c.close()

	sendErr := make(chan error, 1)
	go func() {
		for {
			select {
			case o := <-c.out:
				if err := stream.Send(o.m); err != nil {
					sendErr <- err
					c.close()
					return
				}
				if o.pin != nil {
					late := time.Since(o.pin.taken)
					s.Latencies.PacketInSent.Record(late)
					if late > latePacketIn {
						s.log.Warn("packet-in sent late", "after", late)
					}
				}
			case <-c.done:
				return
			}
		}
	}()
	recvd := make(chan *p4v1.StreamMessageRequest)
	recvErr := make(chan error, 1)
	go func() {
		for {
			m, err := stream.Recv()
			if err != nil {
				c.markGone()
				recvErr <- err
				return
			}
			select {
			case recvd <- m:
			case <-c.done:
				return
			}
		}
	}()
	for {
		var req *p4v1.StreamMessageRequest
		select {
		case req = <-recvd:
		case err := <-recvErr:
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		case err := <-sendErr:
			return err
		case <-c.done:
			return status.Error(codes.ResourceExhausted, "client too slow to take arbitration updates")
		case <-stream.Context().Done():
			return stream.Context().Err()
		}
		switch u := req.GetUpdate().(type) {
		case *p4v1.StreamMessageRequest_Arbitration:
			if err := s.arb.arbitrate(c, u.Arbitration); err != nil {
				return err
			}
		case *p4v1.StreamMessageRequest_Packet:
			if !s.arb.isPrimaryClient(c) {
				c.trySend(streamError(codes.PermissionDenied, "only the primary client may send packet-outs", req))
				continue
			}
			if err := s.packetOut(u.Packet); err != nil {
				st, _ := status.FromError(err)
				c.trySend(streamError(st.Code(), st.Message(), req))
			}
		case *p4v1.StreamMessageRequest_DigestAck:
			if !s.arb.isPrimaryClient(c) {
				c.trySend(streamError(codes.PermissionDenied, "only the primary client may acknowledge digests", req))
				continue
			}
			s.digests.ack(u.DigestAck.GetDigestId(), u.DigestAck.GetListId())
		default:
			c.trySend(streamError(codes.Unimplemented, "unsupported stream message", req))
		}
	}
}
