#pragma once
// Rank-0 logging: only rank 0 prints progress; errors print on every rank.
#include <cstdio>
#include <string>

namespace td::log {

void setRank(int rank, int size);
int rank();

// printf-style, rank 0 only, flushed (stdout is usually a file the GUI tails).
void info(const char* fmt, ...) __attribute__((format(printf, 1, 2)));
// Always printed, to stderr, prefixed with the rank when there are several.
void error(const std::string& msg);
void warn(const std::string& msg);

}  // namespace td::log
