"""A user's own PyTorch DDP script, as Batch AI's PyTorch-GPU-Distributed-Gloo recipe runs one:
torch.distributed over gloo, set up from AZ_BATCHAI_PYTORCH_INIT_METHOD, no interface variable.

Each rank prints pytorch/examples ProgressMeter lines ("Epoch: [e][i/n]  Loss v (avg)"); rank 0
also writes a TensorBoard event file with its own writer (TFRecord framing, masked CRC-32C,
Event protobufs by hand: TensorBoard itself is not needed). What each wrote goes to
<output>/expected-<rank>.json for the test to compare with what TrainDesk read."""
import argparse
import json
import os
import socket
import struct
import time

import torch
import torch.distributed as dist
import torch.nn as nn


def crc32c(data):
    crc = 0xFFFFFFFF
    for byte in data:
        crc ^= byte
        for _ in range(8):
            crc = (crc >> 1) ^ 0x82F63B78 if crc & 1 else crc >> 1
    return crc ^ 0xFFFFFFFF


def masked(crc):
    return (((crc >> 15) | (crc << 17)) + 0xA282EAD8) & 0xFFFFFFFF


def varint(v):
    out = bytearray()
    while True:
        b = v & 0x7F
        v >>= 7
        out.append(b | (0x80 if v else 0))
        if not v:
            return bytes(out)


def field(number, wire, payload):
    key = varint(number << 3 | wire)
    if wire == 2:
        return key + varint(len(payload)) + payload
    return key + payload


class EventWriter:
    """TensorBoard's file format: simple_value scalars and TF2-style tensor scalars."""

    def __init__(self, directory):
        name = "events.out.tfevents.%d.%s" % (int(time.time()), socket.gethostname())
        self.file = open(os.path.join(directory, name), "wb")
        self.write(field(1, 1, struct.pack("<d", time.time())) + field(3, 2, b"brain.Event:2"))

    def write(self, event):
        length = struct.pack("<Q", len(event))
        self.file.write(length + struct.pack("<I", masked(crc32c(length))) + event
                        + struct.pack("<I", masked(crc32c(event))))
        self.file.flush()

    def scalars(self, step, simple, tensors):
        values = b""
        for tag, v in simple.items():
            values += field(1, 2, field(1, 2, tag.encode()) + field(2, 5, struct.pack("<f", v)))
        for tag, v in tensors.items():
            tensor = field(1, 0, varint(1)) + field(2, 2, b"") + field(5, 2, struct.pack("<f", v))
            metadata = field(1, 2, field(1, 2, b"scalars"))
            values += field(1, 2, field(1, 2, tag.encode()) + field(8, 2, tensor) + field(9, 2, metadata))
        self.write(field(1, 1, struct.pack("<d", time.time())) + field(2, 0, varint(step)) + field(5, 2, values))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--batches", type=int, default=5)
    args = parser.parse_args()
    rank = int(os.environ["RANK"])
    world = int(os.environ["WORLD_SIZE"])
    dist.init_process_group(backend=os.environ["AZ_BATCHAI_PYTORCH_BACKEND"],
                            init_method=os.environ["AZ_BATCHAI_PYTORCH_INIT_METHOD"], rank=rank, world_size=world)
    print("rank %d of %d on %s" % (rank, world, socket.gethostname()), flush=True)
    torch.manual_seed(0)
    model = nn.parallel.DistributedDataParallel(nn.Linear(8, 1))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05)
    generator = torch.Generator().manual_seed(1 + rank)
    target = torch.arange(8, dtype=torch.float32) / 8
    output = os.environ["AZ_BATCHAI_OUTPUT_TB"]
    writer = EventWriter(output) if rank == 0 else None
    expected = {"Loss": [], "train/loss": [], "lr": []}
    total = 0.0
    for epoch in range(args.epochs):
        for i in range(args.batches):
            start = time.time()
            x = torch.randn(16, 8, generator=generator)
            loss = ((model(x).squeeze(1) - x @ target) ** 2).mean()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            step = epoch * args.batches + i
            total += loss.item()
            printed = "%.4e" % loss.item()
            print("Epoch: [%d][%2d/%d]\tTime %6.3f (%6.3f)\tLoss %s (%.4e)"
                  % (epoch, i, args.batches, time.time() - start, time.time() - start, printed, total / (step + 1)),
                  flush=True)
            expected["Loss"].append([step, float(printed)])
            if writer:
                writer.scalars(step, {"train/loss": loss.item()}, {"lr": 0.05})
                expected["train/loss"].append([step, struct.unpack("<f", struct.pack("<f", loss.item()))[0]])
                expected["lr"].append([step, struct.unpack("<f", struct.pack("<f", 0.05))[0]])
    # The same weights on every rank: the gradients were averaged across the nodes.
    weights = torch.cat([p.detach().flatten() for p in model.parameters()])
    gathered = [torch.zeros_like(weights) for _ in range(world)]
    dist.all_gather(gathered, weights)
    assert all(torch.equal(g, gathered[0]) for g in gathered), "ranks disagree: DDP did not synchronise"
    print("rank %d done: weights %.6f" % (rank, weights.sum().item()), flush=True)
    with open(os.path.join(output, "expected-%d.json" % rank), "w") as f:
        json.dump(expected if rank == 0 else {"Loss": expected["Loss"]}, f)
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
