#!/usr/bin/env python3
"""Generates testdata/arith.p4 and testdata/arith.stf.

The expected packets are computed here with Python integers following the
P4_16 specification (section 8: wrap-around, saturation, shifts, casts,
slices, concatenation), independently of p4switch's Go implementation.
"""
import random, os

UW = [1, 7, 8, 16, 31, 32, 48, 63, 64, 65, 100, 127, 128]
SW = [8, 16, 33, 64, 65, 128]

def wrap(v, w): return v % (1 << w)
def sgn(v, w):
    v = wrap(v, w)
    return v - (1 << w) if v >> (w - 1) else v
def clamp(v, lo, hi): return max(lo, min(hi, v))

ops_fields = [("sh", 8, False)]
for w in UW: ops_fields += [(f"a{w}", w, False), (f"b{w}", w, False)]
for w in SW: ops_fields += [(f"s{w}", w, True), (f"t{w}", w, True)]

res = []  # (name, width, p4 expression, python function of env)
def R(name, w, expr, fn): res.append((name, w, expr, fn))

for w in UW:
    a, b = f"hdr.ops.a{w}", f"hdr.ops.b{w}"
    A = lambda e, w=w: e[f"a{w}"]
    B = lambda e, w=w: e[f"b{w}"]
    R(f"add{w}", w, f"{a} + {b}", lambda e, w=w, A=A, B=B: wrap(A(e) + B(e), w))
    R(f"sub{w}", w, f"{a} - {b}", lambda e, w=w, A=A, B=B: wrap(A(e) - B(e), w))
    R(f"mul{w}", w, f"{a} * {b}", lambda e, w=w, A=A, B=B: wrap(A(e) * B(e), w))
    R(f"sadd{w}", w, f"{a} |+| {b}", lambda e, w=w, A=A, B=B: min(A(e) + B(e), (1 << w) - 1))
    R(f"ssub{w}", w, f"{a} |-| {b}", lambda e, w=w, A=A, B=B: max(A(e) - B(e), 0))
    R(f"and{w}", w, f"{a} & {b}", lambda e, A=A, B=B: A(e) & B(e))
    R(f"or{w}", w, f"{a} | {b}", lambda e, A=A, B=B: A(e) | B(e))
    R(f"xor{w}", w, f"{a} ^ {b}", lambda e, A=A, B=B: A(e) ^ B(e))
    R(f"not{w}", w, f"~{a}", lambda e, w=w, A=A: wrap(~A(e), w))
    R(f"neg{w}", w, f"-{a}", lambda e, w=w, A=A: wrap(-A(e), w))
    R(f"shl{w}", w, f"{a} << hdr.ops.sh", lambda e, w=w, A=A: wrap(A(e) << e["sh"], w))
    R(f"shr{w}", w, f"{a} >> hdr.ops.sh", lambda e, A=A: A(e) >> e["sh"])
    R(f"shlc{w}", w, f"{a} << {w}", lambda e: 0)  # constant shift by the full width
    R(f"lt{w}", 1, f"(bit<1>)({a} < {b})", lambda e, A=A, B=B: int(A(e) < B(e)))
    R(f"ge{w}", 1, f"(bit<1>)({a} >= {b})", lambda e, A=A, B=B: int(A(e) >= B(e)))
    R(f"eq{w}", 1, f"(bit<1>)({a} == {b})", lambda e, A=A, B=B: int(A(e) == B(e)))
    hi = w - 1; lo = max(0, w - 4)
    R(f"sl{w}", hi - lo + 1, f"{a}[{hi}:{lo}]", lambda e, w=w, A=A, hi=hi, lo=lo: (A(e) >> lo) & ((1 << (hi - lo + 1)) - 1))
    R(f"cat{w}", w + 3, f"{a} ++ {b}[2:0]" if w >= 3 else f"{a} ++ (bit<3>){b}", lambda e, A=A, B=B: (A(e) << 3) | (B(e) & 7))
    if w <= 64:
        R(f"div{w}", w, f"({b} == 0 ? 0 : {a} / {b})", lambda e, A=A, B=B: 0 if B(e) == 0 else A(e) // B(e))
        R(f"mod{w}", w, f"({b} == 0 ? 0 : {a} % {b})", lambda e, A=A, B=B: 0 if B(e) == 0 else A(e) % B(e))
    nw = max(1, w // 2)
    R(f"trunc{w}", nw, f"(bit<{nw}>){a}", lambda e, nw=nw, A=A: wrap(A(e), nw))
    ww = min(128, 2 * w)
    R(f"ext{w}", ww, f"(bit<{ww}>){a}", lambda e, A=A: A(e))
    R(f"sgn{w}", w, f"(bit<{w}>)((int<{w}>){a} >> 1)" if w > 1 else f"{a}", lambda e, w=w, A=A: wrap(sgn(A(e), w) >> 1, w) if w > 1 else A(e))

for w in SW:
    s, t = f"hdr.ops.s{w}", f"hdr.ops.t{w}"
    S = lambda e, w=w: sgn(e[f"s{w}"], w)
    T = lambda e, w=w: sgn(e[f"t{w}"], w)
    lo, hi = -(1 << (w - 1)), (1 << (w - 1)) - 1
    R(f"iadd{w}", w, f"(bit<{w}>)({s} + {t})", lambda e, w=w, S=S, T=T: wrap(S(e) + T(e), w))
    R(f"isub{w}", w, f"(bit<{w}>)({s} - {t})", lambda e, w=w, S=S, T=T: wrap(S(e) - T(e), w))
    R(f"imul{w}", w, f"(bit<{w}>)({s} * {t})", lambda e, w=w, S=S, T=T: wrap(S(e) * T(e), w))
    R(f"isadd{w}", w, f"(bit<{w}>)({s} |+| {t})", lambda e, w=w, S=S, T=T, lo=lo, hi=hi: wrap(clamp(S(e) + T(e), lo, hi), w))
    R(f"issub{w}", w, f"(bit<{w}>)({s} |-| {t})", lambda e, w=w, S=S, T=T, lo=lo, hi=hi: wrap(clamp(S(e) - T(e), lo, hi), w))
    R(f"ishr{w}", w, f"(bit<{w}>)({s} >> hdr.ops.sh)", lambda e, w=w, S=S: wrap(S(e) >> e["sh"], w))
    R(f"ishl{w}", w, f"(bit<{w}>)({s} << hdr.ops.sh)", lambda e, w=w, S=S: wrap(S(e) << e["sh"], w))
    R(f"ilt{w}", 1, f"(bit<1>)({s} < {t})", lambda e, S=S, T=T: int(S(e) < T(e)))
    R(f"ile{w}", 1, f"(bit<1>)({s} <= {t})", lambda e, S=S, T=T: int(S(e) <= T(e)))
    R(f"ineg{w}", w, f"(bit<{w}>)(-{s})", lambda e, w=w, S=S: wrap(-S(e), w))
    ww = min(128, 2 * w)
    R(f"isext{w}", ww, f"(bit<{ww}>)((int<{ww}>){s})", lambda e, ww=ww, S=S: wrap(S(e), ww))
    nw = w // 2
    R(f"itrunc{w}", nw, f"(bit<{nw}>)((int<{nw}>){s})", lambda e, nw=nw, S=S: wrap(S(e), nw))
    R(f"icat{w}", w + 8, f"(bit<{w+8}>)({s} ++ 8w0xA5)", lambda e, w=w, S=S: wrap(S(e), w) << 8 | 0xA5)

# constant folding corner cases
R("c1", 8, "(bit<8>)(8w255 + 8w1)", lambda e: 0)
R("c2", 8, "8w0 - 8w1", lambda e: 255)
R("c3", 8, "(bit<8>)(-8s127 |-| 8s2)", lambda e: 0x80)
R("c4", 16, "16w1 << 15", lambda e: 0x8000)
R("c5", 8, "(bit<8>)((int<8>)8w0x80 >> 7)", lambda e: 0xff)
R("c6", 4, "(8w0xA5)[7:4]", lambda e: 0xA)
R("c7", 128, "128w1 << 127", lambda e: 1 << 127)
R("c8", 128, "~128w0", lambda e: (1 << 128) - 1)

def pad(ws):
    t = sum(ws)
    return (-t) % 8

def gen():
    here = os.path.dirname(os.path.abspath(__file__))
    out = os.path.join(here, "..")
    opad = pad([w for _, w, _ in ops_fields])
    rpad = pad([w for _, w, _, _ in res])
    p4 = ["// Generated by testdata/gen/arith.py: arithmetic at every width class.",
          "#include <core.p4>", "#include <v1model.p4>", "", "header ops_t {"]
    for n, w, s in ops_fields:
        p4.append(f"    {'int' if s else 'bit'}<{w}> {n};")
    if opad: p4.append(f"    bit<{opad}> pad;")
    p4 += ["}", "", "header res_t {"]
    for n, w, _, _ in res:
        p4.append(f"    bit<{w}> {n};")
    if rpad: p4.append(f"    bit<{rpad}> pad;")
    p4 += ["}", "", "struct headers { ops_t ops; res_t res; }", "struct meta_t { }", "",
           "parser P(packet_in pk, out headers hdr, inout meta_t m, inout standard_metadata_t sm) {",
           "    state start { pk.extract(hdr.ops); transition accept; }", "}", "",
           "control VC(inout headers hdr, inout meta_t m) { apply { } }", "",
           "control I(inout headers hdr, inout meta_t m, inout standard_metadata_t sm) {", "    apply {",
           "        hdr.res.setValid();"]
    for n, w, e, _ in res:
        p4.append(f"        hdr.res.{n} = {e};")
    p4 += ["        sm.egress_spec = 1;", "    }", "}", "",
           "control E(inout headers hdr, inout meta_t m, inout standard_metadata_t sm) { apply { } }",
           "control CC(inout headers hdr, inout meta_t m) { apply { } }",
           "control D(packet_out pk, in headers hdr) { apply { pk.emit(hdr.ops); pk.emit(hdr.res); } }", "",
           "V1Switch(P(), VC(), I(), E(), CC(), D()) main;", ""]
    open(os.path.join(out, "arith.p4"), "w").write("\n".join(p4))

    rnd = random.Random(4)
    stf = ["# Generated by testdata/gen/arith.py; expectations computed with Python integers."]
    def edge(w, k):
        return [0, 1, (1 << w) - 1, 1 << (w - 1), (1 << (w - 1)) - 1, rnd.getrandbits(w)][k % 6] if k < 6 else rnd.getrandbits(w)
    for k in range(8):
        env = {"sh": [0, 1, 3, 7, 63, 64, 127, 200][k]}
        for n, w, s in ops_fields[1:]:
            env[n] = edge(w, (k + w) % 9 if n[0] in "at" else (k * 7 + w) % 9)
        bits = ""
        for n, w, s in ops_fields:
            bits += format(env[n], f"0{w}b")
        bits += "0" * opad
        obits = bits
        for n, w, e, fn in res:
            v = fn(env)
            assert 0 <= v < (1 << w), (n, v)
            obits += format(v, f"0{w}b")
        obits += "0" * rpad
        h = lambda b: format(int(b, 2), f"0{len(b)//4}x")
        stf.append(f"packet 0 {h(bits)}")
        stf.append(f"expect 1 {h(obits)} $")
    open(os.path.join(out, "arith.stf"), "w").write("\n".join(stf) + "\n")

gen()
