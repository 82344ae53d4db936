#pragma once
// metrics.jsonl: one JSON object per line, appended and flushed after every record so
// the GUI can tail it live. Only rank 0 holds an open writer.
#include <cstdio>
#include <string>

#include "io/json.h"

namespace td {

class MetricsWriter {
public:
    MetricsWriter() = default;
    explicit MetricsWriter(const std::string& path);  // opens for append, creating parent dirs
    ~MetricsWriter();
    MetricsWriter(const MetricsWriter&) = delete;
    MetricsWriter& operator=(const MetricsWriter&) = delete;

    // Writes {"time": now, "kind": kind, <fields>}.
    void write(const char* kind, const JsonObject& fields);
    const std::string& path() const { return m_path; }

private:
    std::string m_path;
    std::FILE* m_file = nullptr;
};

// mkdir -p; throws naming the directory on failure.
void makeDirs(const std::string& dir);
std::string parentDir(const std::string& path);

}  // namespace td
