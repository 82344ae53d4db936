#pragma once

// A process as a container's seccomp profile leaves it: openat2 answers ENOSYS, as on
// Docker's default profile before it knew the call and on kernels older than 5.6.
// BeneathFiles then walks paths one component at a time; the tests that install this
// filter run that walk against the same races as the openat2 path.
#include <cerrno>
#include <cstddef>
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/openat2.h>
#include <linux/seccomp.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace TrainDesk::Testing {

// Installs the filter for this process and its threads to come; false when the kernel
// refuses it. Irreversible: only for a test process of its own.
inline bool refuseOpenat2()
{
#if defined(SYS_openat2) && defined(__x86_64__)
    sock_filter program[] = {
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, arch)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 1, 0),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, nr)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_openat2, 0, 1),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (ENOSYS & SECCOMP_RET_DATA)),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
    };
    sock_fprog filter{static_cast<unsigned short>(sizeof program / sizeof program[0]), program};
    if (::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
        return false;
    if (::prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &filter) != 0)
        return false;
    // Seen to work: the call itself now says the kernel lacks it.
    open_how how{};
    return ::syscall(SYS_openat2, AT_FDCWD, ".", &how, sizeof how) < 0 && errno == ENOSYS;
#else
    return false;
#endif
}

} // namespace TrainDesk::Testing
