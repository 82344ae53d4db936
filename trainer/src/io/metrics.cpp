#include "io/metrics.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "util/check.h"
#include "util/timer.h"

namespace td {

void makeDirs(const std::string& dir) {
    if (dir.empty()) return;
    std::string cur;
    size_t i = 0;
    while (i <= dir.size()) {
        size_t j = dir.find('/', i);
        if (j == std::string::npos) j = dir.size();
        cur = dir.substr(0, j);
        if (!cur.empty() && ::mkdir(cur.c_str(), 0777) != 0 && errno != EEXIST)
            TD_FAIL(cur, ": cannot create directory: ", std::strerror(errno));
        i = j + 1;
    }
    struct stat st {};
    if (::stat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) TD_FAIL(dir, ": not a directory");
}

std::string parentDir(const std::string& path) {
    size_t s = path.find_last_of('/');
    if (s == std::string::npos) return "";
    return s == 0 ? "/" : path.substr(0, s);
}

MetricsWriter::MetricsWriter(const std::string& path) : m_path(path) {
    makeDirs(parentDir(path));
    m_file = std::fopen(path.c_str(), "a");
    if (!m_file) TD_FAIL(path, ": cannot open metrics file for appending: ", std::strerror(errno));
}

MetricsWriter::~MetricsWriter() {
    if (m_file) std::fclose(m_file);
}

void MetricsWriter::write(const char* kind, const JsonObject& fields) {
    if (!m_file) return;
    JsonObject head;
    head.add("time", wallClock(), "%.3f");
    head.add("kind", kind);
    std::string body = fields.str();
    std::string line = head.str();
    if (body.size() > 2) line = line.substr(0, line.size() - 1) + ", " + body.substr(1);
    line += '\n';
    if (std::fwrite(line.data(), 1, line.size(), m_file) != line.size() || std::fflush(m_file) != 0)
        TD_FAIL(m_path, ": write failed: ", std::strerror(errno));
}

}  // namespace td
