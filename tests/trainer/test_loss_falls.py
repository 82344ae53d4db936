"""One rank on the synthetic set: the training loss clearly falls and the model learns."""
import os

import tdtest as t

a = t.parse_args()
out = os.path.join(a.work, "run")
metrics = os.path.join(out, "metrics.jsonl")
if os.path.exists(metrics):
    os.remove(metrics)
t.run([a.trainer, "--format", "synthetic", "--synthetic-train", "1024", "--synthetic-test", "256", "--epochs", "3",
       "--seed", "7", "--log-every", "4", "--threads", "2", "--dir", out])
recs = t.read_metrics(metrics)
train = [r for r in recs if r["kind"] == "train"]
val = [r for r in recs if r["kind"] == "val"]
t.check(len(train) >= 10, f"only {len(train)} train records")
first, last = train[0]["loss"], train[-1]["loss"]
print(f"first loss {first:.4f}, last loss {last:.4f}, val_acc {[v['val_acc'] for v in val]}")
t.check(first > 2.0, f"first logged loss {first} is not near ln(10)")
t.check(last < 0.75 * first, f"loss did not fall enough: {first} -> {last}")
t.check(val[-1]["val_acc"] > 0.6, f"val_acc {val[-1]['val_acc']} too low on a learnable set")
t.check(val[-1]["val_loss"] < val[0]["val_loss"] or val[0]["val_acc"] > 0.9, "validation loss did not improve")
print("ok")
