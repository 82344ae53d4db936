#pragma once
// --gpu-memory-test: each GPU's memory written and read back (train/cuda_plugin.h's
// cudaMemoryTest); one JSON line per GPU:
//   {"kind": "gpu_memory", "device": 0, "bytes": ..., "bad_words": 0, "seconds": ...}
// Exit 0 when every word read back right, 1 otherwise or without a usable GPU (said why).
namespace td {

int runGpuMemoryTest();

}  // namespace td
