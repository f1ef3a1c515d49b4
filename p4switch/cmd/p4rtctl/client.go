package main

import (
	"context"
	"fmt"
	"time"

	p4configv1 "github.com/p4lang/p4runtime/go/p4/config/v1"
	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"
)

// client is a primary P4Runtime connection to one device.
type client struct {
	conn     *grpc.ClientConn
	rt       p4v1.P4RuntimeClient
	stream   p4v1.P4Runtime_StreamChannelClient
	cancel   context.CancelFunc
	device   uint64
	election *p4v1.Uint128
	info     *p4configv1.P4Info
}

// dial connects and, when primary is set, becomes primary with the given
// election id. Reads need no arbitration, so a reader does not disturb the
// controller that is primary.
func dial(addr string, device, election uint64, primary bool) (*client, error) {
	conn, err := grpc.Dial(addr, grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithDefaultCallOptions(grpc.MaxCallSendMsgSize(256<<20), grpc.MaxCallRecvMsgSize(256<<20)))
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(context.Background())
	c := &client{conn: conn, rt: p4v1.NewP4RuntimeClient(conn), cancel: cancel, device: device,
		election: &p4v1.Uint128{Low: election}}
	if !primary {
		return c, nil
	}
	c.stream, err = c.rt.StreamChannel(ctx)
	if err == nil {
		err = c.stream.Send(&p4v1.StreamMessageRequest{Update: &p4v1.StreamMessageRequest_Arbitration{
			Arbitration: &p4v1.MasterArbitrationUpdate{DeviceId: device, ElectionId: c.election}}})
	}
	for err == nil {
		var m *p4v1.StreamMessageResponse
		m, err = c.stream.Recv()
		if a := m.GetArbitration(); a != nil {
			if a.Status.GetCode() != int32(codes.OK) {
				err = fmt.Errorf("not primary: %s", a.Status.GetMessage())
			}
			break
		}
	}
	if err != nil {
		c.close()
		return nil, fmt.Errorf("%s: %v", addr, err)
	}
	return c, nil
}

func (c *client) close() {
	c.cancel()
	c.conn.Close()
}

// p4info fetches (once) the running program's P4Info.
func (c *client) p4info() (*p4configv1.P4Info, error) {
	if c.info != nil {
		return c.info, nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	r, err := c.rt.GetForwardingPipelineConfig(ctx, &p4v1.GetForwardingPipelineConfigRequest{
		DeviceId: c.device, ResponseType: p4v1.GetForwardingPipelineConfigRequest_P4INFO_AND_COOKIE})
	if err != nil {
		return nil, err
	}
	c.info = r.Config.P4Info
	return c.info, nil
}

func (c *client) push(deviceConfig []byte) error {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	_, err := c.rt.SetForwardingPipelineConfig(ctx, &p4v1.SetForwardingPipelineConfigRequest{
		DeviceId: c.device, ElectionId: c.election, Action: p4v1.SetForwardingPipelineConfigRequest_VERIFY_AND_COMMIT,
		Config: &p4v1.ForwardingPipelineConfig{P4DeviceConfig: deviceConfig}})
	c.info = nil
	return err
}

func (c *client) write(updates ...*p4v1.Update) error {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	_, err := c.rt.Write(ctx, &p4v1.WriteRequest{DeviceId: c.device, ElectionId: c.election, Updates: updates})
	return describe(err)
}

func (c *client) read(e *p4v1.Entity) ([]*p4v1.Entity, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	rs, err := c.rt.Read(ctx, &p4v1.ReadRequest{DeviceId: c.device, Entities: []*p4v1.Entity{e}})
	if err != nil {
		return nil, err
	}
	var out []*p4v1.Entity
	for {
		r, err := rs.Recv()
		if err != nil {
			if status.Code(err) == codes.OK || err.Error() == "EOF" {
				return out, nil
			}
			return out, err
		}
		out = append(out, r.Entities...)
	}
}

// describe spells out the per-update errors of a failed batch.
func describe(err error) error {
	if err == nil {
		return nil
	}
	st := status.Convert(err)
	msg := st.Message()
	shown := 0
	for i, d := range st.Proto().Details {
		e := &p4v1.Error{}
		if d.UnmarshalTo(e) != nil || e.CanonicalCode == 0 {
			continue
		}
		if shown++; shown > 10 {
			msg += "\n  ..."
			break
		}
		msg += fmt.Sprintf("\n  update %d: %s: %s", i, codes.Code(e.CanonicalCode), e.Message)
	}
	return fmt.Errorf("%s: %s", st.Code(), msg)
}
