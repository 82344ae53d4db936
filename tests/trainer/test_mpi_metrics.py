"""Two MPI ranks on the synthetic set: the run succeeds and metrics.jsonl follows the contract."""
import math
import os

import tdtest as t

a = t.parse_args()
out = os.path.join(a.work, "run")
mfile = os.path.join(a.work, "stdouterr", "metrics.jsonl")
for p in (mfile,):
    if os.path.exists(p):
        os.remove(p)
# The default metrics path comes from $AZ_BATCHAI_STDOUTERR_DIR, as in a Batch AI job.
r = t.run(t.mpi_cmd(a, 2) + [a.trainer, "--synthetic-train", "1024", "--synthetic-test", "200", "--epochs", "2",
                             "--seed", "5", "--log-every", "4", "--dir", out],
          env={"AZ_BATCHAI_STDOUTERR_DIR": os.path.join(a.work, "stdouterr")})
t.check("Epoch 1/2" in r.stdout and "Epoch 2/2" in r.stdout, "no Keras-style epoch lines on stdout")
t.check(r.stdout.count("Epoch 1/2") == 1, "progress printed by more than one rank")
t.check("img/s" in r.stdout, "no throughput on stdout")
t.check(not os.path.exists(os.path.join(out, "metrics.jsonl")), "metrics written to --dir despite the env var")

recs = t.read_metrics(mfile)
kinds = [r["kind"] for r in recs]
t.check(kinds[0] == "info" and kinds[-1] == "done", f"first/last kinds: {kinds[0]}, {kinds[-1]}")
info = recs[0]
for k in ("model", "dataset", "train_size", "test_size", "workers", "device", "threads", "epochs", "batch_size"):
    t.check(k in info, f"info lacks {k}")
t.check(info["workers"] == 2 and info["epochs"] == 2 and info["batch_size"] == 32, f"info: {info}")
t.check(abs(info["lr"] - 2e-4) < 1e-12, "default lr is not 1e-4 x workers")

steps_per_epoch = 1024 // (32 * 2)
prev_time, prev_gs = 0, 0
for r in recs:
    t.check(isinstance(r["time"], float) and r["time"] >= prev_time - 1e-3, f"time not increasing: {r}")
    prev_time = r["time"]
    if r["kind"] == "train":
        for k in ("epoch", "step", "global_step", "loss", "acc", "lr", "images_per_sec", "workers"):
            t.check(k in r, f"train record lacks {k}: {r}")
        t.check(r["workers"] == 2 and 1 <= r["step"] <= steps_per_epoch, f"bad train record {r}")
        t.check(r["global_step"] == (r["epoch"] - 1) * steps_per_epoch + r["step"], f"global_step mismatch {r}")
        t.check(r["global_step"] > prev_gs, "global_step not increasing")
        prev_gs = r["global_step"]
        t.check(math.isfinite(r["loss"]) and 0 <= r["acc"] <= 1 and r["images_per_sec"] > 0, f"values: {r}")
val = [r for r in recs if r["kind"] == "val"]
ep = [r for r in recs if r["kind"] == "epoch"]
t.check([v["epoch"] for v in val] == [1, 2], f"val records: {val}")
t.check([e["epoch"] for e in ep] == [1, 2] and all(e["seconds"] > 0 for e in ep), f"epoch records: {ep}")
t.check(all(0 <= v["val_acc"] <= 1 and "val_loss" in v for v in val), "val fields")
done = recs[-1]
t.check(done["val_acc"] == val[-1]["val_acc"] and done["seconds"] > 0, f"done record: {done}")
t.check(len([r for r in recs if r["kind"] == "train"]) == 2 * (steps_per_epoch // 4), "train record count")
# Per-rank records: after each train record, one per rank with that rank's own values;
# the ranks' losses and accuracies average to the train record's (equal batch counts).
train = [r for r in recs if r["kind"] == "train"]
ranks = [r for r in recs if r["kind"] == "rank"]
t.check(len(ranks) == 2 * len(train), f"{len(ranks)} rank records for {len(train)} train records")
for tr in train:
    mine = [r for r in ranks if r["global_step"] == tr["global_step"]]
    t.check(sorted(r["rank"] for r in mine) == [0, 1], f"ranks at step {tr['global_step']}: {mine}")
    for r in mine:
        t.check(r["epoch"] == tr["epoch"] and r["step"] == tr["step"], f"rank record position: {r} vs {tr}")
        t.check(math.isfinite(r["loss"]) and 0 <= r["acc"] <= 1 and r["images_per_sec"] > 0, f"rank values: {r}")
    mean_loss = sum(r["loss"] for r in mine) / 2
    mean_acc = sum(r["acc"] for r in mine) / 2
    t.check(abs(mean_loss - tr["loss"]) <= 1e-4 * max(1.0, abs(tr["loss"])), f"rank losses {mine} vs {tr}")
    t.check(abs(mean_acc - tr["acc"]) <= 1e-6, f"rank accuracies {mine} vs {tr}")
t.check(len({r["loss"] for r in ranks if r["global_step"] == train[0]["global_step"]}) == 2,
        "both ranks reported the same loss: not their own shards")
for f in ("saved_models/keras_cifar10_trained_model.h5", "saved_models/model.onnx", "checkpoints/epoch-0002.ckpt"):
    t.check(os.path.exists(os.path.join(out, f)), f"missing output {f}")
print("ok")
