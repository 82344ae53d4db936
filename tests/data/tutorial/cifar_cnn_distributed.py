# Stands in for the tutorial's cifar_cnn_distributed.py on test nodes: one MPI world
# (Debian's mpi4py, as Horovod would make it), each rank says where it runs, and rank 0
# prints Keras-style progress (as model.fit(verbose=1) does) for TrainDesk to chart.
import socket
import sys
import time

from mpi4py import MPI

comm = MPI.COMM_WORLD
rank, size = comm.Get_rank(), comm.Get_size()
print(f"rank {rank} of {size} on {socket.gethostname()} args {' '.join(sys.argv[1:])}", flush=True)
assert comm.allreduce(1) == size  # the ranks really are one world
epochs, steps, batch = 2, 4, 32
for epoch in range(1, epochs + 1):
    if rank == 0:
        print(f"Epoch {epoch}/{epochs}", flush=True)
    for step in range(1, steps + 1):
        loss = 2.0 / ((epoch - 1) * steps + step + 1)
        acc = 0.3 + 0.1 * ((epoch - 1) * steps + step) / steps
        last = step == steps
        val = f" - val_loss: {loss * 1.1:.4f} - val_acc: {acc - 0.05:.4f}" if last else ""
        if rank == 0:
            print(f"{step * batch}/{steps * batch} [{'=' * step}{'.' * (steps - step)}] - 1s - loss: {loss:.4f} "
                  f"- acc: {acc:.4f}{val}", end="\n" if last else "\r", flush=True)
        comm.Barrier()
        time.sleep(0.05)
