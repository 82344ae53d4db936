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

// Wall time and this process's CPU time (all threads) since construction or reset(). The
// profile keeps both: on a machine shared with other work wall time grows with the load, the
// CPU time of a single-threaded run (or of a run whose waiting threads sleep,
// OMP_WAIT_POLICY=PASSIVE) stays the cost of the work.
double processCpuSeconds();

class StepClock {
public:
    StepClock() : m_cpu0(processCpuSeconds()) {}
    double seconds() const { return m_wall.seconds(); }
    double cpuSeconds() const { return processCpuSeconds() - m_cpu0; }
    void reset() {
        m_wall.reset();
        m_cpu0 = processCpuSeconds();
    }

private:
    Timer m_wall;
    double m_cpu0;
};

double wallClock();  // seconds since the Unix epoch (for metrics "time")

}  // namespace td
