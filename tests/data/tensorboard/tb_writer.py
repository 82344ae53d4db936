#!/usr/bin/env python3
"""An event file writer of its own for the tests, written from TensorBoard's formats (TFRecord
framing with masked CRC-32C; tensorflow/core/util/event.proto, summary.proto, tensor.proto),
not from TrainDesk's reader: scalars as PyTorch/tensorboardX write them (simple_value) and as
TensorFlow 2 does (a rank-0 float tensor with the scalars plugin's metadata).

  tb_writer.py write FILE RUN STEP0 COUNT EXPECTED   append COUNT steps (loss and acc each)
                                                     and their rows to EXPECTED (CSV)
  tb_writer.py torn FILE REST                        append the first half of a record; its
                                                     other half goes to REST
  tb_writer.py damage FILE                           append a record whose payload fails its
                                                     CRC; print its offset
"""
import os
import struct
import sys

_TABLE = []
for i in range(256):
    c = i
    for _ in range(8):
        c = (c >> 1) ^ 0x82F63B78 if c & 1 else c >> 1
    _TABLE.append(c)


def crc32c(data):
    c = 0xFFFFFFFF
    for b in data:
        c = _TABLE[(c ^ b) & 0xFF] ^ (c >> 8)
    return c ^ 0xFFFFFFFF


def masked(c):
    return (((c >> 15) | (c << 17)) + 0xA282EAD8) & 0xFFFFFFFF


def varint(n):
    out = b""
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out += bytes([b | 0x80])
        else:
            return out + bytes([b])


def field(number, wire, payload):
    key = varint((number << 3) | wire)
    if wire == 2:
        return key + varint(len(payload)) + payload
    return key + payload


def event(wall, step, values):
    """values: (tag, float32 value, as_tensor)"""
    summary = b""
    for tag, value, as_tensor in values:
        v = field(1, 2, tag.encode())
        if as_tensor:
            tensor = field(1, 0, varint(1)) + field(2, 2, b"") + field(5, 5, struct.pack("<f", value))
            metadata = field(1, 2, field(1, 2, b"scalars"))
            v += field(8, 2, tensor) + field(9, 2, metadata)
        else:
            v += field(2, 5, struct.pack("<f", value))
        summary += field(1, 2, v)
    return field(1, 1, struct.pack("<d", wall)) + field(2, 0, varint(step)) + field(5, 2, summary)


def record(payload, good=True):
    length = struct.pack("<Q", len(payload))
    crc = masked(crc32c(payload)) ^ (0 if good else 1)
    return length + struct.pack("<I", masked(crc32c(length))) + payload + struct.pack("<I", crc)


def as32(x):
    return struct.unpack("<f", struct.pack("<f", x))[0]


def main():
    what, path = sys.argv[1], sys.argv[2]
    if what == "write":
        run, step0, count, expected = sys.argv[3], int(sys.argv[4]), int(sys.argv[5]), sys.argv[6]
        new = not os.path.exists(path) or os.path.getsize(path) == 0
        data = b""
        if new:  # the first record of every real writer: the file version
            data += record(field(1, 1, struct.pack("<d", 1700000000.0)) + field(3, 2, b"brain.Event:2"))
        rows = []
        for step in range(step0, step0 + count):
            wall = 1700000000.0 + step * 0.5
            loss = as32(1.0 / (step + 1))
            acc = as32(step * 0.001 + 0.3)
            data += record(event(wall, step, [("loss", loss, False)]))
            data += record(event(wall, step, [("metrics/acc", acc, True)]))
            name = os.path.basename(path)
            rows.append((run, "loss", step, wall, loss, name))
            rows.append((run, "metrics/acc", step, wall, acc, name))
        with open(path, "ab") as f:
            f.write(data)
        with open(expected, "a") as f:
            for r in rows:
                f.write("%s\t%s\t%d\t%r\t%r\t%s\n" % r)
    elif what == "torn":
        whole = record(event(1700009999.0, 9999, [("loss", 0.5, False)]))
        half = len(whole) // 2
        with open(path, "ab") as f:
            f.write(whole[:half])
        with open(sys.argv[3], "wb") as f:
            f.write(whole[half:])
    elif what == "damage":
        offset = os.path.getsize(path)
        with open(path, "ab") as f:
            f.write(record(event(1700008888.0, 8888, [("loss", 0.25, False)]), good=False))
        print(offset)


main()
