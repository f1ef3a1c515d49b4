/* p4switch's core library: the declarations every P4_16 program sees. */
#ifndef _CORE_P4_
#define _CORE_P4_

error {
    NoError,
    PacketTooShort,
    NoMatch,
    StackOutOfBounds,
    HeaderTooShort,
    ParserTimeout,
    ParserInvalidArgument
}

extern packet_in {
    void extract<T>(out T hdr);
    void extract<T>(out T variableSizeHeader, in bit<32> variableFieldSizeInBits);
    T lookahead<T>();
    void advance(in bit<32> sizeInBits);
    bit<32> length();
}

extern packet_out {
    void emit<T>(in T hdr);
}

@noWarn("unused")
action NoAction() {}

match_kind {
    exact,
    ternary,
    lpm
}

extern void verify(in bool check, in error toSignal);

@noWarn("unused")
extern bool static_assert(bool check, string message);
@noWarn("unused")
extern bool static_assert(bool check);

#endif
