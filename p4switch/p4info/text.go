package p4info

import (
	"fmt"
	"sort"
	"strings"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// Text renders a P4Info the way p4c writes .p4info.txtpb files (C++
// TextFormat: fields in number order, two-space indentation, C escapes).
func Text(m proto.Message) string {
	var sb strings.Builder
	sb.WriteString("# proto-file: p4/config/v1/p4info.proto\n# proto-message: p4.config.v1.P4Info\n\n")
	writeMessage(&sb, m.ProtoReflect(), 0)
	return sb.String()
}

func writeMessage(sb *strings.Builder, m protoreflect.Message, depth int) {
	fds := m.Descriptor().Fields()
	var set []protoreflect.FieldDescriptor
	for i := 0; i < fds.Len(); i++ {
		if fd := fds.Get(i); m.Has(fd) {
			set = append(set, fd)
		}
	}
	sort.Slice(set, func(i, j int) bool { return set[i].Number() < set[j].Number() })
	ind := strings.Repeat("  ", depth)
	for _, fd := range set {
		v := m.Get(fd)
		switch {
		case fd.IsMap():
			mp := v.Map()
			var keys []protoreflect.MapKey
			mp.Range(func(k protoreflect.MapKey, _ protoreflect.Value) bool {
				keys = append(keys, k)
				return true
			})
			sort.Slice(keys, func(i, j int) bool { return keys[i].String() < keys[j].String() })
			for _, k := range keys {
				fmt.Fprintf(sb, "%s%s {\n", ind, fd.Name())
				writeField(sb, fd.MapKey(), k.Value(), depth+1)
				writeField(sb, fd.MapValue(), mp.Get(k), depth+1)
				fmt.Fprintf(sb, "%s}\n", ind)
			}
		case fd.IsList():
			l := v.List()
			for i := 0; i < l.Len(); i++ {
				writeField(sb, fd, l.Get(i), depth)
			}
		default:
			writeField(sb, fd, v, depth)
		}
	}
}

func writeField(sb *strings.Builder, fd protoreflect.FieldDescriptor, v protoreflect.Value, depth int) {
	ind := strings.Repeat("  ", depth)
	name := string(fd.Name())
	switch fd.Kind() {
	case protoreflect.MessageKind, protoreflect.GroupKind:
		fmt.Fprintf(sb, "%s%s {\n", ind, name)
		writeMessage(sb, v.Message(), depth+1)
		fmt.Fprintf(sb, "%s}\n", ind)
	case protoreflect.StringKind:
		fmt.Fprintf(sb, "%s%s: \"%s\"\n", ind, name, cEscape([]byte(v.String())))
	case protoreflect.BytesKind:
		fmt.Fprintf(sb, "%s%s: \"%s\"\n", ind, name, cEscape(v.Bytes()))
	case protoreflect.EnumKind:
		ev := fd.Enum().Values().ByNumber(v.Enum())
		if ev != nil {
			fmt.Fprintf(sb, "%s%s: %s\n", ind, name, ev.Name())
		} else {
			fmt.Fprintf(sb, "%s%s: %d\n", ind, name, v.Enum())
		}
	default:
		fmt.Fprintf(sb, "%s%s: %v\n", ind, name, v.Interface())
	}
}

// cEscape escapes like C++ CEscape: \n \r \t \" \' \\ and octal for the rest.
func cEscape(b []byte) string {
	var sb strings.Builder
	for _, c := range b {
		switch c {
		case '\n':
			sb.WriteString(`\n`)
		case '\r':
			sb.WriteString(`\r`)
		case '\t':
			sb.WriteString(`\t`)
		case '"':
			sb.WriteString(`\"`)
		case '\'':
			sb.WriteString(`\'`)
		case '\\':
			sb.WriteString(`\\`)
		default:
			if c < 0x20 || c >= 0x7f {
				fmt.Fprintf(&sb, "\\%03o", c)
			} else {
				sb.WriteByte(c)
			}
		}
	}
	return sb.String()
}
