// Bits of the per-port bitmaps failed_ports (1 bit per port) and
// port_utilizations (2 bits per port), which cover ports
// 0..PORT_BITMAP_PORTS-1; higher ports read as healthy and GREEN and cannot be
// set. BMv2 limits shift amounts to 8 bits, hence the bit<8> casts (exact
// here: the ports are below 64).
#ifndef __FAIRFABRIC_PORT_BITMAP__
#define __FAIRFABRIC_PORT_BITMAP__

bool port_failed(in bit<64> failed_ports, in port_t port) {
    if (port >= PORT_BITMAP_PORTS) {
        return false;
    }
    return ((failed_ports >> ((bit<8>) port)) & 1) == 1;
}

// The bit of a port in failed_ports (0 for ports the bitmap does not cover).
bit<64> port_failed_mask(in port_t port) {
    if (port >= PORT_BITMAP_PORTS) {
        return 0;
    }
    return ((bit<64>) 1) << ((bit<8>) port);
}

bit<2> port_color(in bit<128> port_colors, in port_t port) {
    if (port >= PORT_BITMAP_PORTS) {
        return COLOR_GREEN;
    }
    return (bit<2>) (port_colors >> (((bit<8>) port) << 1));
}

// port_colors with the colour of a port replaced (unchanged for ports the
// bitmap does not cover).
bit<128> with_port_color(in bit<128> port_colors, in port_t port, in bit<2> color) {
    if (port >= PORT_BITMAP_PORTS) {
        return port_colors;
    }
    bit<8> shift = ((bit<8>) port) << 1;
    return (port_colors & ~(((bit<128>) 3) << shift)) | (((bit<128>) color) << shift);
}

#endif
