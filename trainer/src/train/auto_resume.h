#pragma once
// A retried TrainDesk job resumes by itself. TrainDesk runs each attempt of a job in its own
// directory and tells the script TRAINDESK_ATTEMPT (1, 2, ...) and, for each output folder
// AZ_BATCHAI_OUTPUT_<ID>, the same folder of the attempt before as AZ_BATCHAI_PREV_OUTPUT_<ID>.
// From attempt 2 on the trainer resumes as with --resume: from its own --dir's checkpoints,
// else from the previous attempt's folder whose AZ_BATCHAI_OUTPUT_<ID> is --dir.
#include <functional>
#include <optional>
#include <string>

namespace td {

// `env` looks a variable up (std::getenv in the trainer, a map in the tests); `environment`
// lists every NAME=VALUE (for the AZ_BATCHAI_OUTPUT_<ID> whose value is outDir).
struct AutoResumeInput {
    std::string outDir;
    std::function<const char*(const char*)> env;
    std::function<void(const std::function<void(const std::string&, const std::string&)>&)> environment;
};

struct AutoResumeChoice {
    bool resume = false;        // TRAINDESK_ATTEMPT > 1
    std::string checkpointDir;  // where to look: outDir/checkpoints or the previous attempt's
    bool fromPreviousAttempt = false;
};

// The checkpoints folder to resume from for a job attempt, or resume=false for a first run.
AutoResumeChoice chooseAutoResume(const AutoResumeInput& in);
// The process's own environment.
AutoResumeInput processAutoResumeInput(const std::string& outDir);

// Copies the checkpoint resumed from into this attempt's own checkpoints folder (written to a
// temporary name and renamed), so that the attempt after this one finds it even when this
// one ends before its first epoch.
void adoptCheckpoint(const std::string& checkpointFile, const std::string& ownCheckpointDir);

}  // namespace td
