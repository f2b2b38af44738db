#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Capture inbound ESP frames and send them again: the replay test.

  espreplay.py capture DIR SECONDS SPI...
      In the receiver's namespace: waits for one incoming ESP frame per SPI
      (0x hex, as ip xfrm prints it) on any interface, and writes each one,
      a whole Ethernet frame, to DIR/SPI.frame. DIR/ready appears once the
      socket is open, so the caller knows when to send traffic. Exits 1
      after SECONDS with the SPIs never seen.
  espreplay.py send NETNS:IFACE:FILE...
      Writes each FILE out of IFACE in NETNS (a name in /run/netns): from
      the sender's end of the link, so that the frame arrives at the
      receiver exactly as the original did (same MACs, same ESP sequence
      number), and the receiver's kernel sees a replay.

Only the standard library: a raw AF_PACKET socket needs nothing else.
Python 3.11 has no os.setns, hence ctypes.
"""
import ctypes
import os
import select
import socket
import struct
import sys
import time

ETH_P_ALL = 0x0003
ETH_P_IP = 0x0800
PACKET_OUTGOING = 4
CLONE_NEWNET = 0x40000000


def esp_header(frame):
    """(SPI, sequence number) of an IPv4 ESP frame, or (None, None)."""
    if len(frame) < 14 + 20 + 8:
        return None, None
    if struct.unpack("!H", frame[12:14])[0] != ETH_P_IP or frame[23] != 50:
        return None, None
    off = 14 + (frame[14] & 0x0F) * 4
    if len(frame) < off + 8:
        return None, None
    return struct.unpack("!II", frame[off:off + 8])


def capture(outdir, seconds, spis):
    want = {int(s, 16) for s in spis}
    sock = socket.socket(socket.AF_PACKET, socket.SOCK_RAW,
                         socket.htons(ETH_P_ALL))
    with open(os.path.join(outdir, "ready"), "w"):
        pass
    end = time.monotonic() + seconds
    while want:
        left = end - time.monotonic()
        if left <= 0 or not select.select([sock], [], [], left)[0]:
            break
        frame, addr = sock.recvfrom(65535)
        spi, seq = esp_header(frame)
        if addr[2] == PACKET_OUTGOING or spi not in want:
            continue
        want.discard(spi)
        with open(os.path.join(outdir, "0x%08x.frame" % spi), "wb") as f:
            f.write(frame)
        print("captured SPI 0x%08x on %s: %d bytes, ESP seq %d" %
              (spi, addr[0], len(frame), seq))
    if want:
        print("never saw SPI " + " ".join("0x%08x" % s for s in sorted(want)),
              file=sys.stderr)
        return 1
    return 0


def setns(name):
    libc = ctypes.CDLL(None, use_errno=True)
    fd = os.open(os.path.join("/run/netns", name), os.O_RDONLY)
    try:
        if libc.setns(fd, CLONE_NEWNET) != 0:
            err = ctypes.get_errno()
            raise OSError(err, "setns %s: %s" % (name, os.strerror(err)))
    finally:
        os.close(fd)


def send(targets):
    for t in targets:
        netns, iface, path = t.split(":", 2)
        with open(path, "rb") as f:
            frame = f.read()
        setns(netns)
        with socket.socket(socket.AF_PACKET, socket.SOCK_RAW) as sock:
            sock.bind((iface, 0))
            sock.send(frame)
        spi, seq = esp_header(frame)
        print("sent SPI 0x%08x ESP seq %d out of %s:%s" %
              (spi, seq, netns, iface))
    return 0


def main(argv):
    if len(argv) >= 4 and argv[1] == "capture":
        return capture(argv[2], float(argv[3]), argv[4:])
    if len(argv) >= 3 and argv[1] == "send":
        return send(argv[2:])
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
