"""One rank fails alone (rank 0's checkpoint write after epoch 1, peers then block in the next
all-reduce): every rank must end within seconds with that rank's message, not hang."""
import os
import shutil
import time

import tdtest as t

a = t.parse_args()
out = os.path.join(a.work, "abort_run")
shutil.rmtree(out, ignore_errors=True)
os.makedirs(out)
# A regular file where rank 0 creates checkpoints/: only rank 0 writes checkpoints, so only
# rank 0 fails, while rank 1 goes on into epoch 2's collectives.
with open(os.path.join(out, "checkpoints"), "w") as f:
    f.write("not a directory\n")
for np in (2, 3):
    start = time.monotonic()
    r = t.run(t.mpi_cmd(a, np) + [a.trainer, "--synthetic-train", "512", "--synthetic-test", "64",
                                  "--epochs", "3", "--seed", "3", "--dir", out],
              expect_rc=None, timeout=120)
    took = time.monotonic() - start
    t.check(r.returncode != 0, f"{np} ranks: exit 0 although rank 0 could not write its checkpoint")
    t.check("Epoch 1/3" in r.stdout, f"{np} ranks: failed before training started:\n{r.stderr}")
    t.check("[rank 0]" in r.stderr and "checkpoints: not a directory" in r.stderr, f"{np} ranks: the failing rank's message is missing:\n{r.stderr}")
    t.check("Epoch 3/3" not in r.stdout, f"{np} ranks: training went on after the failure")
    t.check(took < 60, f"{np} ranks: took {took:.1f}s to end after one rank failed")
    print(f"{np} ranks ended in {took:.1f}s, rc {r.returncode}")
print("ok")
