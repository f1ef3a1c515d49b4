package p4info

import (
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"

	p4configv1 "github.com/p4lang/p4runtime/go/p4/config/v1"
	"google.golang.org/protobuf/encoding/prototext"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// legacyInitialDefault matches the `initial_default_action_id: N` field that
// some p4c versions wrote before P4Runtime settled on the
// `initial_default_action { action_id: N }` message; ParseText rewrites it so
// that expected outputs of either vintage can be compared.
var legacyInitialDefault = regexp.MustCompile(`\binitial_default_action_id:\s*(\d+)`)

// ParseText parses a P4Info in protobuf text format (as p4c writes it).
func ParseText(text string) (*p4configv1.P4Info, error) {
	text = legacyInitialDefault.ReplaceAllString(text, "initial_default_action { action_id: ${1} }")
	var info p4configv1.P4Info
	if err := prototext.Unmarshal([]byte(text), &info); err != nil {
		return nil, err
	}
	return &info, nil
}

// Diff compares two P4Infos field by field and returns one line per
// difference ("tables[ingress.t].size: want 1024, got 512"), empty when they
// are equal. Repeated messages are matched by their id (preamble id, or id),
// else by name, so that order does not matter where p4c's order is not
// meaningful.
func Diff(want, got proto.Message) []string {
	var out []string
	if w, ok := want.(*p4configv1.P4Info); ok {
		if g, ok := got.(*p4configv1.P4Info); ok {
			want, got = forVintage(w, g)
		}
	}
	diffMessage("", want.ProtoReflect(), got.ProtoReflect(), &out)
	return out
}

func diffMessage(path string, want, got protoreflect.Message, out *[]string) {
	fields := want.Descriptor().Fields()
	for i := 0; i < fields.Len(); i++ {
		fd := fields.Get(i)
		p := join(path, string(fd.Name()))
		switch {
		case fd.IsMap():
			diffMap(p, fd, want.Get(fd).Map(), got.Get(fd).Map(), out)
		case fd.IsList():
			diffList(p, fd, want.Get(fd).List(), got.Get(fd).List(), out)
		case fd.Message() != nil:
			if !want.Has(fd) && !got.Has(fd) {
				continue
			}
			if want.Has(fd) != got.Has(fd) {
				*out = append(*out, fmt.Sprintf("%s: want %s, got %s", p, presence(want.Has(fd)), presence(got.Has(fd))))
				continue
			}
			diffMessage(p, want.Get(fd).Message(), got.Get(fd).Message(), out)
		default:
			if !want.Get(fd).Equal(got.Get(fd)) {
				*out = append(*out, fmt.Sprintf("%s: want %s, got %s", p, scalar(fd, want.Get(fd)), scalar(fd, got.Get(fd))))
			}
		}
	}
}

func diffList(path string, fd protoreflect.FieldDescriptor, want, got protoreflect.List, out *[]string) {
	if fd.Message() == nil {
		w, g := listStrings(fd, want), listStrings(fd, got)
		if strings.Join(w, "\x00") != strings.Join(g, "\x00") {
			*out = append(*out, fmt.Sprintf("%s: want [%s], got [%s]", path, strings.Join(w, ", "), strings.Join(g, ", ")))
		}
		return
	}
	wk, gk := keyed(want), keyed(got)
	if wk == nil || gk == nil {
		n := want.Len()
		if got.Len() != n {
			*out = append(*out, fmt.Sprintf("%s: want %d elements, got %d", path, want.Len(), got.Len()))
			n = min(n, got.Len())
		}
		for i := 0; i < n; i++ {
			diffMessage(fmt.Sprintf("%s[%d]", path, i), want.Get(i).Message(), got.Get(i).Message(), out)
		}
		return
	}
	for _, k := range sortedKeys(wk) {
		g, ok := gk[k]
		if !ok {
			*out = append(*out, fmt.Sprintf("%s[%s]: missing", path, k))
			continue
		}
		diffMessage(fmt.Sprintf("%s[%s]", path, k), wk[k], g, out)
	}
	for _, k := range sortedKeys(gk) {
		if _, ok := wk[k]; !ok {
			*out = append(*out, fmt.Sprintf("%s[%s]: unexpected", path, k))
		}
	}
}

func diffMap(path string, fd protoreflect.FieldDescriptor, want, got protoreflect.Map, out *[]string) {
	keys := map[string]protoreflect.MapKey{}
	want.Range(func(k protoreflect.MapKey, _ protoreflect.Value) bool { keys[k.String()] = k; return true })
	got.Range(func(k protoreflect.MapKey, _ protoreflect.Value) bool { keys[k.String()] = k; return true })
	names := make([]string, 0, len(keys))
	for k := range keys {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, name := range names {
		k := keys[name]
		p := fmt.Sprintf("%s[%s]", path, name)
		switch {
		case !want.Has(k):
			*out = append(*out, p+": unexpected")
		case !got.Has(k):
			*out = append(*out, p+": missing")
		case fd.MapValue().Message() != nil:
			diffMessage(p, want.Get(k).Message(), got.Get(k).Message(), out)
		case !want.Get(k).Equal(got.Get(k)):
			*out = append(*out, fmt.Sprintf("%s: want %s, got %s", p, scalar(fd.MapValue(), want.Get(k)), scalar(fd.MapValue(), got.Get(k))))
		}
	}
}

// forVintage returns want and got without what differs between the p4c
// versions that wrote p4c's expected outputs. Outputs written before
// P4Runtime 1.4 have no initial_default_action (nor has_initial_entries) in
// any table; some p4c versions annotated core.p4's NoAction with @corelib
// (p4switch, like the current p4c, does not).
func forVintage(want, got *p4configv1.P4Info) (*p4configv1.P4Info, *p4configv1.P4Info) {
	want = proto.Clone(want).(*p4configv1.P4Info)
	got = proto.Clone(got).(*p4configv1.P4Info)
	hasInitial := false
	for _, t := range want.GetTables() {
		hasInitial = hasInitial || t.GetInitialDefaultAction() != nil
	}
	if !hasInitial {
		for _, t := range got.GetTables() {
			t.InitialDefaultAction = nil
			t.HasInitialEntries = false
		}
	}
	for _, info := range []*p4configv1.P4Info{want, got} {
		for _, a := range info.GetActions() {
			if pre := a.GetPreamble(); pre != nil {
				pre.Annotations = slices.DeleteFunc(pre.Annotations, func(s string) bool { return s == "@corelib" })
			}
		}
	}
	return want, got
}

// keyed indexes list elements by preamble name, id or name; nil when an
// element has none of them or two elements share a key.
func keyed(l protoreflect.List) map[string]protoreflect.Message {
	m := make(map[string]protoreflect.Message, l.Len())
	for i := 0; i < l.Len(); i++ {
		e := l.Get(i).Message()
		k := elementKey(e)
		if k == "" {
			return nil
		}
		if _, dup := m[k]; dup {
			return nil
		}
		m[k] = e
	}
	return m
}

func elementKey(e protoreflect.Message) string {
	fields := e.Descriptor().Fields()
	if fd := fields.ByName("preamble"); fd != nil && e.Has(fd) {
		pre := e.Get(fd).Message()
		return pre.Get(pre.Descriptor().Fields().ByName("name")).String()
	}
	if fd := fields.ByName("name"); fd != nil && fd.Kind() == protoreflect.StringKind && e.Has(fd) {
		return e.Get(fd).String()
	}
	if fd := fields.ByName("id"); fd != nil && fd.Kind() == protoreflect.Uint32Kind && e.Has(fd) {
		return fmt.Sprint(e.Get(fd).Uint())
	}
	return ""
}

func sortedKeys(m map[string]protoreflect.Message) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func listStrings(fd protoreflect.FieldDescriptor, l protoreflect.List) []string {
	s := make([]string, l.Len())
	for i := range s {
		s[i] = scalar(fd, l.Get(i))
	}
	return s
}

func scalar(fd protoreflect.FieldDescriptor, v protoreflect.Value) string {
	switch fd.Kind() {
	case protoreflect.StringKind:
		return fmt.Sprintf("%q", v.String())
	case protoreflect.BytesKind:
		return fmt.Sprintf("%q", v.Bytes())
	case protoreflect.EnumKind:
		if ev := fd.Enum().Values().ByNumber(v.Enum()); ev != nil {
			return string(ev.Name())
		}
	}
	return fmt.Sprint(v.Interface())
}

func presence(has bool) string {
	if has {
		return "present"
	}
	return "absent"
}

func join(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}
