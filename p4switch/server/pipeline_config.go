package server

import (
	"context"
	"fmt"

	p4configv1 "github.com/p4lang/p4runtime/go/p4/config/v1"
	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
)

func (s *Server) SetForwardingPipelineConfig(ctx context.Context, req *p4v1.SetForwardingPipelineConfigRequest) (*p4v1.SetForwardingPipelineConfigResponse, error) {
	if err := s.checkDevice(req.DeviceId); err != nil {
		return nil, err
	}
	if !s.arb.isPrimary(req.Role, req.ElectionId) {
		return nil, errorf(codes.PermissionDenied, "pipeline config from a client that is not the primary of role %q", req.Role)
	}
	s.cfgMu.Lock()
	defer s.cfgMu.Unlock()
	switch req.Action {
	case p4v1.SetForwardingPipelineConfigRequest_VERIFY:
		_, err := s.load(req.Config)
		return done(err)
	case p4v1.SetForwardingPipelineConfigRequest_VERIFY_AND_SAVE:
		l, err := s.load(req.Config)
		if err == nil {
			s.saved = l
		}
		return done(err)
	case p4v1.SetForwardingPipelineConfigRequest_VERIFY_AND_COMMIT:
		l, err := s.load(req.Config)
		if err == nil {
			err = s.commit(l)
		}
		return done(err)
	case p4v1.SetForwardingPipelineConfigRequest_COMMIT:
		if s.saved == nil {
			return nil, errorf(codes.FailedPrecondition, "COMMIT without a preceding VERIFY_AND_SAVE")
		}
		if req.Config.GetP4DeviceConfig() != nil || req.Config.GetP4Info() != nil {
			return nil, errorf(codes.InvalidArgument, "COMMIT takes no config; it commits the saved one")
		}
		err := s.commit(s.saved)
		if err == nil {
			s.saved = nil
		}
		return done(err)
	case p4v1.SetForwardingPipelineConfigRequest_RECONCILE_AND_COMMIT:
		l, err := s.load(req.Config)
		if err == nil {
			err = s.reconcile(l)
		}
		if err == nil {
			err = s.commit(l)
		}
		return done(err)
	default:
		return nil, errorf(codes.InvalidArgument, "unknown action %v", req.Action)
	}
}

func done(err error) (*p4v1.SetForwardingPipelineConfigResponse, error) {
	if err != nil {
		return nil, err
	}
	return &p4v1.SetForwardingPipelineConfigResponse{}, nil
}

// load builds a pipeline from a config without running it.
func (s *Server) load(cfg *p4v1.ForwardingPipelineConfig) (l *loaded, err error) {
	if cfg == nil || len(cfg.P4DeviceConfig) == 0 {
		return nil, errorf(codes.InvalidArgument, "config has no p4_device_config (the P4 source bundle)")
	}
	defer func() {
		if r := recover(); r != nil {
			l, err = nil, errorf(codes.Internal, "loading the program failed: %v", r)
		}
	}()
	pipe, err := s.opt.Loader(cfg.P4DeviceConfig, s.opt.Switch.CPUPort())
	if err != nil {
		return nil, errorf(codes.InvalidArgument, "cannot load the P4 program: %v", err)
	}
	info := pipe.P4Info()
	if info == nil {
		return nil, errorf(codes.Internal, "the loaded program has no P4Info")
	}
	if cfg.P4Info != nil {
		if err := sameIDs(cfg.P4Info, info); err != nil {
			return nil, errorf(codes.InvalidArgument, "the request's p4info does not match the program: %v", err)
		}
	}
	in, out, err := controllerHeaders(info)
	if err != nil {
		return nil, errorf(codes.InvalidArgument, "%v", err)
	}
	return &loaded{pipe: pipe, p4info: info, deviceConfig: cfg.P4DeviceConfig,
		cookie: cfg.Cookie, packetIn: in, packetOut: out}, nil
}

// commit makes l the running pipeline.
func (s *Server) commit(l *loaded) error {
	if err := s.opt.Switch.SetPipeline(l.pipe); err != nil {
		return errorf(codes.Unavailable, "%v", err)
	}
	s.cur.Store(l)
	s.digests.reset()
	s.log.Info("pipeline committed", "tables", len(l.p4info.Tables), "actions", len(l.p4info.Actions))
	return nil
}

// sameIDs checks that the controller's P4Info names the same objects with
// the same ids as the program's, so that every id it writes means the same
// thing to the switch. Documentation and annotations may differ.
func sameIDs(given, actual *p4configv1.P4Info) error {
	names := map[uint32]string{}
	add := func(p *p4configv1.Preamble) {
		if p != nil {
			names[p.Id] = p.Name
		}
	}
	for _, t := range actual.Tables {
		add(t.Preamble)
	}
	for _, a := range actual.Actions {
		add(a.Preamble)
	}
	for _, m := range actual.ControllerPacketMetadata {
		add(m.Preamble)
	}
	for _, d := range actual.Digests {
		add(d.Preamble)
	}
	check := func(p *p4configv1.Preamble) error {
		if p == nil {
			return nil
		}
		if n, ok := names[p.Id]; !ok {
			return fmt.Errorf("id %#x (%s) is not in the program", p.Id, p.Name)
		} else if n != p.Name {
			return fmt.Errorf("id %#x is %s in the request but %s in the program", p.Id, p.Name, n)
		}
		return nil
	}
	for _, t := range given.Tables {
		if err := check(t.Preamble); err != nil {
			return err
		}
	}
	for _, a := range given.Actions {
		if err := check(a.Preamble); err != nil {
			return err
		}
	}
	for _, m := range given.ControllerPacketMetadata {
		if err := check(m.Preamble); err != nil {
			return err
		}
	}
	for _, d := range given.Digests {
		if err := check(d.Preamble); err != nil {
			return err
		}
	}
	return nil
}

// reconcile copies the running pipeline's forwarding state into l
// (RECONCILE_AND_COMMIT). If any entity cannot be carried over, nothing is
// committed and the running pipeline keeps its state.
func (s *Server) reconcile(l *loaded) error {
	old := s.cur.Load()
	if old == nil {
		return nil
	}
	info := old.p4info
	var insert, modify []*p4v1.Entity
	read := func(e *p4v1.Entity, into *[]*p4v1.Entity) error {
		err := readOne(old, e, func(got *p4v1.Entity) error { *into = append(*into, got); return nil })
		if status.Code(err) == codes.Unimplemented {
			return nil
		}
		return err
	}
	var reads []struct {
		e    *p4v1.Entity
		into *[]*p4v1.Entity
	}
	want := func(e *p4v1.Entity, into *[]*p4v1.Entity) {
		reads = append(reads, struct {
			e    *p4v1.Entity
			into *[]*p4v1.Entity
		}{e, into})
	}
	// Members before groups before the tables that point at them.
	for _, ap := range info.ActionProfiles {
		want(&p4v1.Entity{Entity: &p4v1.Entity_ActionProfileMember{ActionProfileMember: &p4v1.ActionProfileMember{ActionProfileId: ap.Preamble.Id}}}, &insert)
	}
	for _, ap := range info.ActionProfiles {
		want(&p4v1.Entity{Entity: &p4v1.Entity_ActionProfileGroup{ActionProfileGroup: &p4v1.ActionProfileGroup{ActionProfileId: ap.Preamble.Id}}}, &insert)
	}
	for _, t := range info.Tables {
		want(&p4v1.Entity{Entity: &p4v1.Entity_TableEntry{TableEntry: &p4v1.TableEntry{TableId: t.Preamble.Id}}}, &insert)
	}
	for _, c := range info.Counters {
		want(&p4v1.Entity{Entity: &p4v1.Entity_CounterEntry{CounterEntry: &p4v1.CounterEntry{CounterId: c.Preamble.Id}}}, &modify)
	}
	for _, m := range info.Meters {
		want(&p4v1.Entity{Entity: &p4v1.Entity_MeterEntry{MeterEntry: &p4v1.MeterEntry{MeterId: m.Preamble.Id}}}, &modify)
	}
	for _, r := range info.Registers {
		want(&p4v1.Entity{Entity: &p4v1.Entity_RegisterEntry{RegisterEntry: &p4v1.RegisterEntry{RegisterId: r.Preamble.Id}}}, &modify)
	}
	for _, d := range info.Digests {
		want(&p4v1.Entity{Entity: &p4v1.Entity_DigestEntry{DigestEntry: &p4v1.DigestEntry{DigestId: d.Preamble.Id}}}, &insert)
	}
	want(&p4v1.Entity{Entity: &p4v1.Entity_PacketReplicationEngineEntry{PacketReplicationEngineEntry: &p4v1.PacketReplicationEngineEntry{
		Type: &p4v1.PacketReplicationEngineEntry_MulticastGroupEntry{MulticastGroupEntry: &p4v1.MulticastGroupEntry{}}}}}, &insert)
	want(&p4v1.Entity{Entity: &p4v1.Entity_PacketReplicationEngineEntry{PacketReplicationEngineEntry: &p4v1.PacketReplicationEngineEntry{
		Type: &p4v1.PacketReplicationEngineEntry_CloneSessionEntry{CloneSessionEntry: &p4v1.CloneSessionEntry{}}}}}, &insert)
	for _, r := range reads {
		if err := read(r.e, r.into); err != nil {
			return errorf(codes.FailedPrecondition, "cannot read the running state to reconcile: %v", status.Convert(err).Message())
		}
	}
	apply := func(es []*p4v1.Entity, t p4v1.Update_Type) error {
		for _, e := range es {
			if err := s.writeOne(l, &p4v1.Update{Type: t, Entity: e}); err != nil {
				return errorf(codes.FailedPrecondition, "cannot carry %s over to the new program: %v",
					shortEntity(e), status.Convert(err).Message())
			}
		}
		return nil
	}
	if err := apply(insert, p4v1.Update_INSERT); err != nil {
		return err
	}
	return apply(modify, p4v1.Update_MODIFY)
}

func shortEntity(e *p4v1.Entity) string {
	s := e.String()
	if len(s) > 200 {
		s = s[:200] + "..."
	}
	return s
}

func (s *Server) GetForwardingPipelineConfig(ctx context.Context, req *p4v1.GetForwardingPipelineConfigRequest) (*p4v1.GetForwardingPipelineConfigResponse, error) {
	if err := s.checkDevice(req.DeviceId); err != nil {
		return nil, err
	}
	l := s.cur.Load()
	if l == nil {
		return nil, errorf(codes.FailedPrecondition, "no forwarding pipeline config has been set")
	}
	cfg := &p4v1.ForwardingPipelineConfig{Cookie: l.cookie}
	switch req.ResponseType {
	case p4v1.GetForwardingPipelineConfigRequest_ALL:
		cfg.P4Info, cfg.P4DeviceConfig = proto.Clone(l.p4info).(*p4configv1.P4Info), l.deviceConfig
	case p4v1.GetForwardingPipelineConfigRequest_COOKIE_ONLY:
	case p4v1.GetForwardingPipelineConfigRequest_P4INFO_AND_COOKIE:
		cfg.P4Info = proto.Clone(l.p4info).(*p4configv1.P4Info)
	case p4v1.GetForwardingPipelineConfigRequest_DEVICE_CONFIG_AND_COOKIE:
		cfg.P4DeviceConfig = l.deviceConfig
	default:
		return nil, errorf(codes.InvalidArgument, "unknown response type %v", req.ResponseType)
	}
	return &p4v1.GetForwardingPipelineConfigResponse{Config: cfg}, nil
}
