#pragma once
// Errors and checked-call macros. Every failure carries file:line and context so a
// user reading stderr.txt of a job knows which call, file or flag went wrong.
#include <stdexcept>
#include <string>
#include <sstream>

namespace td {

// Bad command line: exit code 2.
struct UsageError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// Anything else at run time (data, I/O, MPI, oneDNN): exit code 1.
struct RuntimeError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// The same error on every rank, decided together (dist/agree.h): rank 0 reports it and
// every rank ends normally, no MPI_Abort needed. Exit code 1.
// Default visibility: the GPU plugin (built with hidden symbols) throws it too.
struct __attribute__((visibility("default"))) AgreedError : RuntimeError {
    using RuntimeError::RuntimeError;
};

template <typename... Args>
std::string cat(const Args&... args) {
    std::ostringstream os;
    (os << ... << args);
    return os.str();
}

[[noreturn]] inline void fail(const char* file, int line, const std::string& msg) {
    throw RuntimeError(cat(msg, " [", file, ":", line, "]"));
}

}  // namespace td

#define TD_FAIL(...) ::td::fail(__FILE__, __LINE__, ::td::cat(__VA_ARGS__))
#define TD_CHECK(cond, ...)                                                        \
    do {                                                                           \
        if (!(cond)) TD_FAIL(__VA_ARGS__);                                         \
    } while (0)

// MPI calls: report the MPI error string.
#define MPI_CHECK(call)                                                            \
    do {                                                                           \
        int mpi_rc_ = (call);                                                      \
        if (mpi_rc_ != MPI_SUCCESS) {                                              \
            char mpi_msg_[MPI_MAX_ERROR_STRING];                                   \
            int mpi_len_ = 0;                                                      \
            MPI_Error_string(mpi_rc_, mpi_msg_, &mpi_len_);                        \
            TD_FAIL("MPI call failed: ", #call, ": ", std::string(mpi_msg_, mpi_len_)); \
        }                                                                          \
    } while (0)

// HDF5 calls return negative on failure.
#define H5_CHECK(call, ...)                                                        \
    ([&]() {                                                                       \
        auto h5_rc_ = (call);                                                      \
        if (h5_rc_ < 0) TD_FAIL("HDF5 call failed: ", #call, ": ", __VA_ARGS__);   \
        return h5_rc_;                                                             \
    }())

// oneDNN C++ API throws dnnl::error; rethrow with the call site and status.
#define DNNL_CHECK(stmt)                                                           \
    do {                                                                           \
        try {                                                                      \
            stmt;                                                                  \
        } catch (const dnnl::error& e_) {                                          \
            TD_FAIL("oneDNN call failed: ", #stmt, ": ", e_.what(), " (status ",   \
                    static_cast<int>(e_.status), ")");                             \
        }                                                                          \
    } while (0)
