package p4info

import (
	"math/big"

	p4configv1 "github.com/p4lang/p4runtime/go/p4/config/v1"

	"github.com/fairfabric/fairfabric/p4switch/p4/check"
)

// typeInfo accumulates the named types P4Info refers to.
type typeInfo struct {
	chk  *check.Info
	info *p4configv1.P4TypeInfo
}

func newTypeInfo(ci *check.Info) *typeInfo {
	return &typeInfo{chk: ci, info: &p4configv1.P4TypeInfo{}}
}

// namedType returns a P4NamedType for serializable enums and new types used as action params.
func (t *typeInfo) namedType(ty check.Type) *p4configv1.P4NamedType {
	switch u := ty.(type) {
	case *check.Enum:
		if u.Base != nil {
			t.spec(u)
			return &p4configv1.P4NamedType{Name: u.Name}
		}
	case *check.NewType:
		t.spec(u)
		return &p4configv1.P4NamedType{Name: u.Name}
	}
	return nil
}

func bitSpec(b *check.Bits) *p4configv1.P4BitstringLikeTypeSpec {
	if b.Signed {
		return &p4configv1.P4BitstringLikeTypeSpec{TypeSpec: &p4configv1.P4BitstringLikeTypeSpec_Int{Int: &p4configv1.P4IntTypeSpec{Bitwidth: int32(b.W)}}}
	}
	return &p4configv1.P4BitstringLikeTypeSpec{TypeSpec: &p4configv1.P4BitstringLikeTypeSpec_Bit{Bit: &p4configv1.P4BitTypeSpec{Bitwidth: int32(b.W)}}}
}

// spec converts a type to a P4DataTypeSpec, registering named types.
func (t *typeInfo) spec(ty check.Type) *p4configv1.P4DataTypeSpec {
	switch u := ty.(type) {
	case *check.Bits:
		return &p4configv1.P4DataTypeSpec{TypeSpec: &p4configv1.P4DataTypeSpec_Bitstring{Bitstring: bitSpec(u)}}
	case *check.Varbit:
		return &p4configv1.P4DataTypeSpec{TypeSpec: &p4configv1.P4DataTypeSpec_Bitstring{Bitstring: &p4configv1.P4BitstringLikeTypeSpec{TypeSpec: &p4configv1.P4BitstringLikeTypeSpec_Varbit{Varbit: &p4configv1.P4VarbitTypeSpec{MaxBitwidth: int32(u.Max)}}}}}
	case *check.Bool:
		return &p4configv1.P4DataTypeSpec{TypeSpec: &p4configv1.P4DataTypeSpec_Bool{Bool: &p4configv1.P4BoolType{}}}
	case *check.ErrorT:
		if t.info.Error == nil {
			t.info.Error = &p4configv1.P4ErrorTypeSpec{Members: t.chk.Errors}
		}
		return &p4configv1.P4DataTypeSpec{TypeSpec: &p4configv1.P4DataTypeSpec_Error{Error: &p4configv1.P4ErrorType{}}}
	case *check.Enum:
		if u.Base != nil {
			if t.info.SerializableEnums == nil {
				t.info.SerializableEnums = map[string]*p4configv1.P4SerializableEnumTypeSpec{}
			}
			if _, ok := t.info.SerializableEnums[u.Name]; !ok {
				// member values are written at the full width, as by p4c
				se := &p4configv1.P4SerializableEnumTypeSpec{UnderlyingType: &p4configv1.P4BitTypeSpec{Bitwidth: int32(u.Base.W)}}
				for i, m := range u.Members {
					se.Members = append(se.Members, &p4configv1.P4SerializableEnumTypeSpec_Member{Name: m, Value: paddedBytes(new(big.Int).SetUint64(u.Values[i]), u.Base.W)})
				}
				t.info.SerializableEnums[u.Name] = se
			}
			return &p4configv1.P4DataTypeSpec{TypeSpec: &p4configv1.P4DataTypeSpec_SerializableEnum{SerializableEnum: &p4configv1.P4NamedType{Name: u.Name}}}
		}
		if t.info.Enums == nil {
			t.info.Enums = map[string]*p4configv1.P4EnumTypeSpec{}
		}
		if _, ok := t.info.Enums[u.Name]; !ok {
			es := &p4configv1.P4EnumTypeSpec{}
			for _, m := range u.Members {
				es.Members = append(es.Members, &p4configv1.P4EnumTypeSpec_Member{Name: m})
			}
			t.info.Enums[u.Name] = es
		}
		return &p4configv1.P4DataTypeSpec{TypeSpec: &p4configv1.P4DataTypeSpec_Enum{Enum: &p4configv1.P4NamedType{Name: u.Name}}}
	case *check.NewType:
		if t.info.NewTypes == nil {
			t.info.NewTypes = map[string]*p4configv1.P4NewTypeSpec{}
		}
		if _, ok := t.info.NewTypes[u.Name]; !ok {
			nt := &p4configv1.P4NewTypeSpec{}
			t.info.NewTypes[u.Name] = nt
			nt.Representation = &p4configv1.P4NewTypeSpec_OriginalType{OriginalType: t.spec(u.Base)}
		}
		return &p4configv1.P4DataTypeSpec{TypeSpec: &p4configv1.P4DataTypeSpec_NewType{NewType: &p4configv1.P4NamedType{Name: u.Name}}}
	case *check.Struct:
		switch u.Kind {
		case "header":
			if t.info.Headers == nil {
				t.info.Headers = map[string]*p4configv1.P4HeaderTypeSpec{}
			}
			if _, ok := t.info.Headers[u.Name]; !ok {
				hs := &p4configv1.P4HeaderTypeSpec{}
				t.info.Headers[u.Name] = hs
				for _, f := range u.Fields {
					b, _ := check.Underlying(f.Type).(*check.Bits)
					if b == nil {
						b = &check.Bits{W: check.Width(f.Type)}
					}
					hs.Members = append(hs.Members, &p4configv1.P4HeaderTypeSpec_Member{Name: f.Name, TypeSpec: bitSpec(b)})
				}
			}
			return &p4configv1.P4DataTypeSpec{TypeSpec: &p4configv1.P4DataTypeSpec_Header{Header: &p4configv1.P4NamedType{Name: u.Name}}}
		case "header_union":
			if t.info.HeaderUnions == nil {
				t.info.HeaderUnions = map[string]*p4configv1.P4HeaderUnionTypeSpec{}
			}
			if _, ok := t.info.HeaderUnions[u.Name]; !ok {
				hu := &p4configv1.P4HeaderUnionTypeSpec{}
				t.info.HeaderUnions[u.Name] = hu
				for _, f := range u.Fields {
					t.spec(f.Type)
					hu.Members = append(hu.Members, &p4configv1.P4HeaderUnionTypeSpec_Member{Name: f.Name, Header: &p4configv1.P4NamedType{Name: f.Type.(*check.Struct).Name}})
				}
			}
			return &p4configv1.P4DataTypeSpec{TypeSpec: &p4configv1.P4DataTypeSpec_HeaderUnion{HeaderUnion: &p4configv1.P4NamedType{Name: u.Name}}}
		}
		if t.info.Structs == nil {
			t.info.Structs = map[string]*p4configv1.P4StructTypeSpec{}
		}
		if _, ok := t.info.Structs[u.Name]; !ok {
			ss := &p4configv1.P4StructTypeSpec{}
			t.info.Structs[u.Name] = ss
			for _, f := range u.Fields {
				ss.Members = append(ss.Members, &p4configv1.P4StructTypeSpec_Member{Name: f.Name, TypeSpec: t.spec(f.Type)})
			}
		}
		return &p4configv1.P4DataTypeSpec{TypeSpec: &p4configv1.P4DataTypeSpec_Struct{Struct: &p4configv1.P4NamedType{Name: u.Name}}}
	case *check.Tuple:
		ts := &p4configv1.P4TupleTypeSpec{}
		for _, e := range u.Elems {
			ts.Members = append(ts.Members, t.spec(e))
		}
		return &p4configv1.P4DataTypeSpec{TypeSpec: &p4configv1.P4DataTypeSpec_Tuple{Tuple: ts}}
	}
	return &p4configv1.P4DataTypeSpec{}
}

// Bytes is the canonical P4Runtime bytestring of v (two's complement for negatives) in width bits.
func Bytes(v *big.Int, width int) []byte {
	x := new(big.Int).Set(v)
	if x.Sign() < 0 {
		x.Add(x, new(big.Int).Lsh(big.NewInt(1), uint(width)))
	}
	b := x.Bytes()
	if len(b) == 0 {
		return []byte{0}
	}
	return b
}
