#pragma once
#include <chrono>

namespace td {

class Timer {
public:
    Timer() : m_start(std::chrono::steady_clock::now()) {}
    double seconds() const {
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - m_start).count();
    }
    void reset() { m_start = std::chrono::steady_clock::now(); }

private:
    std::chrono::steady_clock::time_point m_start;
};

double wallClock();  // seconds since the Unix epoch (for metrics "time")

}  // namespace td
