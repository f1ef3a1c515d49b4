package ast

import (
	"math/big"
	"reflect"
)

var bigIntType = reflect.TypeOf((*big.Int)(nil))

// Clone returns a deep copy of a syntax tree node (literal values are shared).
// Generic functions are checked once per instantiation on a copy.
func Clone[T any](n T) T {
	v := reflect.ValueOf(&n).Elem()
	out := reflect.New(v.Type()).Elem()
	cloneInto(out, v)
	return out.Interface().(T)
}

func cloneInto(dst, src reflect.Value) {
	switch src.Kind() {
	case reflect.Pointer:
		if src.IsNil() || src.Type() == bigIntType {
			dst.Set(src)
			return
		}
		p := reflect.New(src.Type().Elem())
		cloneInto(p.Elem(), src.Elem())
		dst.Set(p)
	case reflect.Interface:
		if src.IsNil() {
			return
		}
		e := reflect.New(src.Elem().Type()).Elem()
		cloneInto(e, src.Elem())
		dst.Set(e)
	case reflect.Struct:
		for i := 0; i < src.NumField(); i++ {
			if dst.Field(i).CanSet() {
				cloneInto(dst.Field(i), src.Field(i))
			}
		}
	case reflect.Slice:
		if src.IsNil() {
			return
		}
		s := reflect.MakeSlice(src.Type(), src.Len(), src.Len())
		for i := 0; i < src.Len(); i++ {
			cloneInto(s.Index(i), src.Index(i))
		}
		dst.Set(s)
	default:
		dst.Set(src)
	}
}
