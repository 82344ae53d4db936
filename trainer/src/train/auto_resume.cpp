#include "train/auto_resume.h"

#include <unistd.h>  // environ (a C declaration: a C++ one clashes in unity batches with unistd.h)

#include <cstdlib>
#include <filesystem>
#include <system_error>

#include "io/checkpoint.h"
#include "util/log.h"

namespace td {

namespace fs = std::filesystem;

namespace {

std::string normal(const std::string& path) {
    std::error_code ec;
    const fs::path p = fs::weakly_canonical(fs::path(path), ec);
    return (ec ? fs::path(path).lexically_normal() : p).string();
}

}  // namespace

AutoResumeChoice chooseAutoResume(const AutoResumeInput& in) {
    AutoResumeChoice c;
    const char* attempt = in.env("TRAINDESK_ATTEMPT");
    if (!attempt || std::atoi(attempt) < 2) return c;
    c.resume = true;
    c.checkpointDir = in.outDir + "/checkpoints";
    if (latestCheckpoint(c.checkpointDir)) return c;
    // The output folder --dir is, by its id: AZ_BATCHAI_OUTPUT_<ID> -> AZ_BATCHAI_PREV_OUTPUT_<ID>.
    const std::string prefix = "AZ_BATCHAI_OUTPUT_";
    const std::string own = normal(in.outDir);
    std::string previous;
    in.environment([&](const std::string& name, const std::string& value) {
        if (!previous.empty() || name.rfind(prefix, 0) != 0 || normal(value) != own) return;
        const std::string prevName = "AZ_BATCHAI_PREV_OUTPUT_" + name.substr(prefix.size());
        if (const char* p = in.env(prevName.c_str()); p && *p) previous = p;
    });
    if (!previous.empty() && latestCheckpoint(previous + "/checkpoints")) {
        c.checkpointDir = previous + "/checkpoints";
        c.fromPreviousAttempt = true;
    }
    return c;
}

AutoResumeInput processAutoResumeInput(const std::string& outDir) {
    AutoResumeInput in;
    in.outDir = outDir;
    in.env = [](const char* name) { return static_cast<const char*>(std::getenv(name)); };
    in.environment = [](const std::function<void(const std::string&, const std::string&)>& visit) {
        for (char** e = environ; e && *e; ++e) {
            const std::string entry = *e;
            const size_t eq = entry.find('=');
            if (eq != std::string::npos) visit(entry.substr(0, eq), entry.substr(eq + 1));
        }
    };
    return in;
}

void adoptCheckpoint(const std::string& checkpointFile, const std::string& ownCheckpointDir) {
    std::error_code ec;
    fs::create_directories(ownCheckpointDir, ec);
    const fs::path target = fs::path(ownCheckpointDir) / fs::path(checkpointFile).filename();
    const fs::path part = fs::path(target.string() + ".adopt-tmp");
    if (!ec) fs::copy_file(checkpointFile, part, fs::copy_options::overwrite_existing, ec);
    if (!ec) fs::rename(part, target, ec);
    if (ec) {
        const std::string why = ec.message();
        fs::remove(part, ec);
        log::info("could not copy %s into %s (%s): a later attempt resumes from the previous one's\n",
                  checkpointFile.c_str(), ownCheckpointDir.c_str(), why.c_str());
    }
}

}  // namespace td
