"""Frame builders for the fabric pipeline's STF tests (hex strings).

Each builder returns the header as hex; frames are concatenations. The layouts
mirror pipeconfs/p4/include/header.p4.
"""


def _hex(value, nbytes):
    return format(value, "0{}x".format(nbytes * 2))


def mac(text):
    return int(text.replace(":", ""), 16)


def ip(text):
    a, b, c, d = (int(x) for x in text.split("."))
    return (a << 24) | (b << 16) | (c << 8) | d


def test_clock(ingress_ts=0, egress_ts=0, qdepth=0):
    return _hex(ingress_ts, 6) + _hex(egress_ts, 6) + _hex(qdepth, 4)


def packet_out(egress_port, do_forward=0):
    return _hex((egress_port << 7) | (do_forward << 6), 2)


def packet_in(ingress_port, reason, event_port=0, metric=0, direction=0, value=0):
    return (_hex(ingress_port << 7, 2) + _hex(reason, 1) + _hex(event_port << 7, 2)
            + _hex(metric, 1) + _hex(direction, 1) + _hex(value, 4))


def ethernet(dst, src, ether_type):
    return _hex(mac(dst), 6) + _hex(mac(src), 6) + _hex(ether_type, 2)


def vlan(vid, ether_type):
    return _hex(vid & 0xFFF, 2) + _hex(ether_type, 2)


def fabric(t_source=0, ing_aq_id=0, egr_aq_id=0, vdelay_ns=0, ether_type=0x0800):
    return (_hex(t_source, 6) + _hex(ing_aq_id, 4) + _hex(egr_aq_id, 4)
            + _hex(vdelay_ns, 4) + _hex(ether_type, 2))


def echo(echo_type, sender_port=0, um=(0, 0, 0), dm=(0, 0, 0), miss_after_10ms=0):
    body = _hex(echo_type, 1) + _hex(miss_after_10ms, 1) + _hex(sender_port, 2)
    for v in tuple(um) + tuple(dm):
        body += _hex(v, 4)
    return body


def arp(oper, sha, spa, tha, tpa):
    return ("0001" + "0800" + "06" + "04" + _hex(oper, 2) + _hex(mac(sha), 6) + _hex(ip(spa), 4)
            + _hex(mac(tha), 6) + _hex(ip(tpa), 4))


def _checksum(data):
    total = 0
    for i in range(0, len(data), 2):
        total += (data[i] << 8) | data[i + 1]
    while total >> 16:
        total = (total & 0xFFFF) + (total >> 16)
    return (~total) & 0xFFFF


def ipv4(src, dst, total_len, protocol=17, ttl=64, dscp=0, ecn=0, ident=1):
    fields = bytearray()
    fields += bytes([0x45, (dscp << 2) | ecn])
    fields += total_len.to_bytes(2, "big") + ident.to_bytes(2, "big") + b"\x00\x00"
    fields += bytes([ttl, protocol]) + b"\x00\x00"
    fields += ip(src).to_bytes(4, "big") + ip(dst).to_bytes(4, "big")
    csum = _checksum(fields)
    fields[10:12] = csum.to_bytes(2, "big")
    return fields.hex()


def udp(src_port, dst_port, length, checksum=0):
    return _hex(src_port, 2) + _hex(dst_port, 2) + _hex(length, 2) + _hex(checksum, 2)


def probe(probe_type, n_hop=0, phi=0, errno=0):
    return _hex((probe_type << 4) | n_hop, 1) + _hex(phi, 2) + _hex(errno, 1)


def udp_packet(src, dst, total_len=46, ttl=64, dscp=0, ecn=0, sport=1000, dport=2000, ident=1):
    """IPv4 + UDP + zero payload, total_len bytes of IP packet."""
    payload = total_len - 28
    assert payload >= 0
    return (ipv4(src, dst, total_len, 17, ttl, dscp, ecn, ident)
            + udp(sport, dport, total_len - 20) + "00" * payload)


def tcp_packet(src, dst, sport, dport, seq, ack, flags=0x10, window=0, payload=b"", ttl=64, dscp=0,
               ecn=0, ident=1):
    """IPv4 + TCP (no options) + payload, with both checksums computed."""
    total_len = 40 + len(payload)
    header = bytearray()
    header += sport.to_bytes(2, "big") + dport.to_bytes(2, "big")
    header += seq.to_bytes(4, "big") + ack.to_bytes(4, "big")
    header += bytes([5 << 4, flags]) + window.to_bytes(2, "big") + b"\x00\x00" + b"\x00\x00"
    segment = bytes(header) + payload
    pseudo = (ip(src).to_bytes(4, "big") + ip(dst).to_bytes(4, "big") + bytes([0, 6])
              + len(segment).to_bytes(2, "big"))
    summed = pseudo + segment + (b"\x00" if len(segment) % 2 else b"")
    header[16:18] = _checksum(summed).to_bytes(2, "big")
    return ipv4(src, dst, total_len, 6, ttl, dscp, ecn, ident) + bytes(header).hex() + payload.hex()
