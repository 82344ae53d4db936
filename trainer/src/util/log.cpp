#include "util/log.h"

#include <cstdarg>
#include <ctime>

namespace td::log {

namespace {
int g_rank = 0;
int g_size = 1;
}  // namespace

void setRank(int rank, int size) {
    g_rank = rank;
    g_size = size;
}

int rank() { return g_rank; }

void info(const char* fmt, ...) {
    if (g_rank != 0) return;
    va_list ap;
    va_start(ap, fmt);
    std::vfprintf(stdout, fmt, ap);
    va_end(ap);
    std::fflush(stdout);
}

static void emit(const char* what, const std::string& msg) {
    if (g_size > 1)
        std::fprintf(stderr, "traindesk-trainer [rank %d]: %s: %s\n", g_rank, what, msg.c_str());
    else
        std::fprintf(stderr, "traindesk-trainer: %s: %s\n", what, msg.c_str());
    std::fflush(stderr);
}

void error(const std::string& msg) { emit("error", msg); }
void warn(const std::string& msg) { emit("warning", msg); }

}  // namespace td::log

#include <chrono>

#include "util/timer.h"

namespace td {

double wallClock() {
    return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

double processCpuSeconds() {
    timespec ts{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return double(ts.tv_sec) + double(ts.tv_nsec) * 1e-9;
}

}  // namespace td
