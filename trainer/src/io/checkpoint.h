#pragma once
// Per-epoch checkpoints written by rank 0: DIR/checkpoints/epoch-NNNN.ckpt, written to a
// temporary file, fsync'ed and renamed so a crash never leaves a half-written checkpoint
// under the final name. A CRC-32 trailer catches corruption; the newest valid one wins.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace td {

struct CheckpointState {
    int h = 0, w = 0, c = 0, classes = 0;
    int epochsDone = 0;       // completed epochs
    int64_t iterations = 0;   // optimizer updates applied (global steps)
    uint64_t seed = 0;
    int batch = 0, workers = 0;
    double lr = 0, decay = 0;
    std::vector<float> weights;       // canonical parameter buffer
    std::vector<float> accumulators;  // RMSprop state, same layout
};

// Writes atomically; returns the final path. Keeps the `keep` newest checkpoints. A `dir`
// that is a symbolic link is refused: the write, and the removal of older checkpoints,
// would happen wherever it points.
std::string writeCheckpoint(const std::string& dir, const CheckpointState& s, int keep = 2);
// Reads and validates one file; throws naming the file and what is wrong.
CheckpointState readCheckpoint(const std::string& path);
// Newest checkpoint file in dir (by epoch number), if any.
std::optional<std::string> latestCheckpoint(const std::string& dir);

// The newest checkpoint in dir that reads whole (a truncated or corrupt newer one, say from
// a disk that filled up, is passed over for the one before it); `skipped` gets each file
// passed over with why. Nothing when none reads.
struct IntactCheckpoint {
    std::string path;
    CheckpointState state;
};
std::optional<IntactCheckpoint> newestIntactCheckpoint(const std::string& dir, std::vector<std::string>* skipped);

}  // namespace td
