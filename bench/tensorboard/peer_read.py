#!/usr/bin/python3
"""The peer of `traindesk runs import` in bench/tensorboard: a folder read the way TensorBoard's
own loader reads it (tensorboard/backend/event_processing: TFRecord framing with both CRC-32C
checks, each record parsed as a tensorflow.Event protobuf, scalars kept per run and tag), with
Debian's python3-protobuf (4.21, upb) for the protobufs and python3-crcmod's C extension for
the CRCs. TensorBoard itself is not in Debian 12 (no python3-tensorboard), so this stands in
for its loader. Usage: peer_read.py DIR  (prints runs, points, seconds)."""
import os
import struct
import sys
import time

import crcmod.predefined
from google.protobuf import descriptor_pb2, descriptor_pool, message_factory

crc = crcmod.predefined.mkCrcFun("crc-32c")


def masked(c):
    return (((c >> 15) | (c << 17)) + 0xA282EAD8) & 0xFFFFFFFF


def event_class():
    """tensorflow.Event with the fields of scalars (event.proto, summary.proto)."""
    f = descriptor_pb2.FileDescriptorProto(name="bench_event.proto", package="tensorflow")
    value = f.message_type.add(name="SummaryValue")
    T = descriptor_pb2.FieldDescriptorProto
    value.field.add(name="tag", number=1, type=T.TYPE_STRING, label=T.LABEL_OPTIONAL)
    value.field.add(name="simple_value", number=2, type=T.TYPE_FLOAT, label=T.LABEL_OPTIONAL)
    summary = f.message_type.add(name="Summary")
    summary.field.add(name="value", number=1, type=T.TYPE_MESSAGE, label=T.LABEL_REPEATED,
                      type_name=".tensorflow.SummaryValue")
    event = f.message_type.add(name="Event")
    event.field.add(name="wall_time", number=1, type=T.TYPE_DOUBLE, label=T.LABEL_OPTIONAL)
    event.field.add(name="step", number=2, type=T.TYPE_INT64, label=T.LABEL_OPTIONAL)
    event.field.add(name="file_version", number=3, type=T.TYPE_STRING, label=T.LABEL_OPTIONAL)
    event.field.add(name="summary", number=5, type=T.TYPE_MESSAGE, label=T.LABEL_OPTIONAL,
                    type_name=".tensorflow.Summary")
    pool = descriptor_pool.DescriptorPool()
    pool.Add(f)
    return message_factory.MessageFactory(pool).GetPrototype(pool.FindMessageTypeByName("tensorflow.Event"))


def main():
    Event = event_class()
    root = sys.argv[1]
    start = time.monotonic()
    runs = {}
    points = 0
    for folder, _, files in os.walk(root):
        names = sorted(n for n in files if "tfevents" in n)
        if not names:
            continue
        series = runs.setdefault(os.path.relpath(folder, root), {})
        for name in names:
            with open(os.path.join(folder, name), "rb") as fh:
                data = fh.read()
            pos = 0
            while pos + 12 <= len(data):
                header = data[pos:pos + 8]
                (length,) = struct.unpack_from("<Q", data, pos)
                if struct.unpack_from("<I", data, pos + 8)[0] != masked(crc(header)):
                    raise SystemExit("%s: bad length CRC at %d" % (name, pos))
                payload = data[pos + 12:pos + 12 + length]
                if struct.unpack_from("<I", data, pos + 12 + length)[0] != masked(crc(payload)):
                    raise SystemExit("%s: bad CRC at %d" % (name, pos))
                pos += 16 + length
                e = Event()
                e.ParseFromString(payload)
                for v in e.summary.value:
                    series.setdefault(v.tag, []).append((e.wall_time, e.step, v.simple_value))
                    points += 1
    print("%d runs, %d points, %.2f s" % (len(runs), points, time.monotonic() - start))


main()
