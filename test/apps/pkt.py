# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The mbufx authors
"""Just enough packet building and pcap I/O for the forwarding tests.

Standard library only (no scapy), so the tests run with any python3. Every
builder returns bytes; checksums are computed unless given explicitly, so a
test can also build deliberately broken packets.
"""

import ipaddress
import struct

ETH_IPV4 = 0x0800
ETH_IPV6 = 0x86DD
ETH_VLAN = 0x8100
ETH_MPLS = 0x8847
ETH_ARP = 0x0806


def mac(s):
    """'02:00:00:00:00:01' -> 6 bytes"""
    b = bytes(int(x, 16) for x in s.split(':'))
    assert len(b) == 6, s
    return b


def ip4(s):
    return ipaddress.IPv4Address(s).packed


def ip6(s):
    return ipaddress.IPv6Address(s).packed


def cksum(data):
    """Internet checksum (RFC 1071) of data."""
    if len(data) % 2:
        data += b'\0'
    s = sum(struct.unpack('!%dH' % (len(data) // 2), data))
    while s >> 16:
        s = (s & 0xffff) + (s >> 16)
    return ~s & 0xffff


def eth(dst, src, etype, payload):
    return mac(dst) + mac(src) + struct.pack('!H', etype) + payload


def vlan(tci, etype, payload):
    return struct.pack('!HH', tci, etype) + payload


def mpls(label, ttl, payload, tc=0, bos=1):
    return struct.pack('!I', label << 12 | tc << 9 | bos << 8 | ttl) + payload


def udp(sport, dport, payload=b''):
    """UDP with checksum 0 (allowed over IPv4; the routers never look at it)."""
    return struct.pack('!HHHH', sport, dport, 8 + len(payload), 0) + payload


def ipv4(src, dst, payload, proto=17, ttl=64, tos=0, ident=1, frag=0,
         options=b'', ihl=None, total_len=None, version=4, csum=None):
    if ihl is None:
        ihl = 5 + len(options) // 4
    if total_len is None:
        total_len = 20 + len(options) + len(payload)
    hdr = struct.pack('!BBHHHBBH4s4s', version << 4 | ihl, tos, total_len, ident,
                      frag, ttl, proto, 0, ip4(src), ip4(dst)) + options
    if csum is None:
        csum = cksum(hdr)
    return hdr[:10] + struct.pack('!H', csum) + hdr[12:] + payload


def ipv6(src, dst, payload, nh=17, hlim=64, plen=None, version=6):
    if plen is None:
        plen = len(payload)
    return struct.pack('!IHBB16s16s', version << 28, plen, nh, hlim,
                       ip6(src), ip6(dst)) + payload


def ipv4_ttl_dec(l3):
    """The IPv4 header a router sends: TTL - 1, checksum recomputed in full."""
    ihl = (l3[0] & 0xf) * 4
    hdr = bytearray(l3[:ihl])
    hdr[8] -= 1
    hdr[10:12] = b'\0\0'
    hdr[10:12] = struct.pack('!H', cksum(bytes(hdr)))
    return bytes(hdr) + l3[ihl:]


def ipv6_hlim_dec(l3):
    return l3[:7] + bytes([l3[7] - 1]) + l3[8:]


def pad(frame, size):
    """Pad an Ethernet frame with zeros to size bytes (60 = minimum w/o CRC)."""
    return frame + b'\0' * max(0, size - len(frame))


def write_pcap(path, frames, snaplen=65535):
    with open(path, 'wb') as f:
        f.write(struct.pack('<IHHiIII', 0xa1b2c3d4, 2, 4, 0, 0, snaplen, 1))
        for i, fr in enumerate(frames):
            f.write(struct.pack('<IIII', 1, i, len(fr), len(fr)))
            f.write(fr)


def read_pcap(path):
    with open(path, 'rb') as f:
        data = f.read()
    if len(data) < 24:
        raise ValueError('%s: not a pcap file (%d bytes)' % (path, len(data)))
    magic = struct.unpack('<I', data[:4])[0]
    if magic in (0xa1b2c3d4, 0xa1b23c4d):
        end = '<'
    elif magic in (0xd4c3b2a1, 0x4d3cb2a1):
        end = '>'
    else:
        raise ValueError('%s: bad pcap magic %#x' % (path, magic))
    off, frames = 24, []
    while off + 16 <= len(data):
        _, _, incl, _ = struct.unpack(end + 'IIII', data[off:off + 16])
        off += 16
        frames.append(data[off:off + incl])
        off += incl
    return frames


def hexdiff(a, b, width=16):
    """First differing 16-byte row of two frames, for failure messages."""
    for i in range(0, max(len(a), len(b)), width):
        if a[i:i + width] != b[i:i + width]:
            return 'offset %d: got %s want %s' % (i, a[i:i + width].hex(' '),
                                                   b[i:i + width].hex(' '))
    return 'identical'
