#include "train/cuda_libraries.h"

#include <dlfcn.h>
#include <glob.h>
#include <link.h>
#include <sys/stat.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <set>

#include "util/check.h"
#include "util/elf_needed.h"

namespace td {

namespace {

struct Folder {
    std::string path, source;
};

bool isFile(const std::string& p) {
    struct stat st{};
    return stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}
bool isDir(const std::string& p) {
    struct stat st{};
    return stat(p.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

std::vector<std::string> globAll(const std::string& pattern) {
    std::vector<std::string> out;
    glob_t g{};
    if (glob(pattern.c_str(), GLOB_NOSORT, nullptr, &g) == 0)
        for (size_t i = 0; i < g.gl_pathc; ++i) out.emplace_back(g.gl_pathv[i]);
    globfree(&g);
    std::sort(out.begin(), out.end(), std::greater<>());  // newest version first (cuda-13.1 before cuda-13.0)
    return out;
}

std::string env(const char* name) {
    const char* v = std::getenv(name);
    return v ? v : "";
}

std::vector<std::string> splitColons(const std::string& s) {
    std::vector<std::string> out;
    size_t start = 0;
    while (start <= s.size()) {
        const size_t end = std::min(s.find(':', start), s.size());
        if (end > start) out.push_back(s.substr(start, end - start));
        start = end + 1;
    }
    return out;
}

// /etc/ld.so.conf with its `include` globs, as ldconfig reads it.
void readLdConf(const std::string& file, std::vector<std::string>& dirs, int depth = 0) {
    std::ifstream in(file);
    std::string line;
    while (depth < 8 && std::getline(in, line)) {
        line = line.substr(0, line.find('#'));
        const size_t b = line.find_first_not_of(" \t"), e = line.find_last_not_of(" \t\r");
        if (b == std::string::npos) continue;
        line = line.substr(b, e - b + 1);
        if (line.rfind("include", 0) == 0) {
            std::string pattern = line.substr(7);
            pattern = pattern.substr(pattern.find_first_not_of(" \t"));
            if (pattern[0] != '/') pattern = file.substr(0, file.rfind('/') + 1) + pattern;
            std::vector<std::string> files = globAll(pattern);
            std::sort(files.begin(), files.end());
            for (const std::string& f : files) readLdConf(f, dirs, depth + 1);
        } else {
            dirs.push_back(line);
        }
    }
}

std::vector<std::string> toolkitRoots() {
    std::vector<std::string> roots;
    for (const char* v : {"CUDA_HOME", "CUDA_PATH"})
        if (!env(v).empty()) roots.push_back(env(v));
    roots.push_back("/usr/local/cuda");
    for (const std::string& r : globAll("/usr/local/cuda-*")) roots.push_back(r);
    roots.push_back("/opt/cuda");
    return roots;
}

std::vector<std::string> sitePackages() {
    const std::string home = env("HOME");
    std::vector<std::string> patterns;
    for (const std::string& p : splitColons(env("PYTHONPATH"))) patterns.push_back(p);
    for (const char* v : {"VIRTUAL_ENV", "CONDA_PREFIX"})
        if (!env(v).empty()) patterns.push_back(env(v) + "/lib/python3*/site-packages");
    if (!home.empty()) {
        patterns.push_back(home + "/.local/lib/python3*/site-packages");
        for (const char* d : {"miniconda3", "anaconda3", "miniforge3"})
            patterns.push_back(home + "/" + d + "/lib/python3*/site-packages");
        patterns.push_back(home + "/.pyenv/versions/*/lib/python3*/site-packages");
    }
    for (const char* p : {"/usr/local/lib/python3*/site-packages", "/usr/local/lib/python3*/dist-packages",
                          "/usr/lib/python3/dist-packages", "/usr/lib/python3*/site-packages",
                          "/opt/conda/lib/python3*/site-packages", "/opt/*/lib/python3*/site-packages"})
        patterns.push_back(p);
    std::vector<std::string> out;
    for (const std::string& p : patterns)
        for (const std::string& dir : globAll(p))
            if (isDir(dir) && std::find(out.begin(), out.end(), dir) == out.end()) out.push_back(dir);
    return out;
}

std::vector<Folder> searchFolders() {
    std::vector<Folder> folders;
    auto add = [&](const std::string& path, const std::string& source) {
        if (path.empty()) return;
        for (const Folder& f : folders)
            if (f.path == path) return;
        folders.push_back({path, source});
    };
    for (const std::string& d : splitColons(env("TRAINDESK_CUDA_LIBRARY_PATH"))) add(d, "TRAINDESK_CUDA_LIBRARY_PATH");
    for (const std::string& d : splitColons(env("LD_LIBRARY_PATH"))) add(d, "LD_LIBRARY_PATH");
    std::vector<std::string> conf;
    readLdConf("/etc/ld.so.conf", conf);
    for (const char* d : {"/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu", "/lib64", "/usr/lib64", "/lib", "/usr/lib"})
        conf.emplace_back(d);
    for (const std::string& d : conf) add(d, "system library path");
    for (const std::string& root : toolkitRoots())
        for (const char* sub : {"/lib64", "/lib", "/targets/x86_64-linux/lib"}) add(root + sub, "CUDA toolkit");
    for (const std::string& sp : sitePackages())
        for (const std::string& lib : globAll(sp + "/nvidia/*/lib")) add(lib, "Python wheel (" + sp + ")");
    return folders;
}

// The CUDA libraries among a library's needs: the driver (libcuda) is not one of them.
bool isCudaLibrary(const std::string& soname) {
    if (soname.rfind("libcuda.so", 0) == 0) return false;
    for (const char* prefix : {"libcudart", "libcublas", "libcudnn", "libnccl", "libcufft", "libcurand", "libcusolver",
                               "libcusparse", "libnvrtc", "libnvJitLink", "libnvToolsExt", "libnvrtc"})
        if (soname.rfind(prefix, 0) == 0) return true;
    return false;
}

std::string loadedPath(void* handle) {
    link_map* lm = nullptr;
    if (dlinfo(handle, RTLD_DI_LINKMAP, &lm) == 0 && lm && lm->l_name && *lm->l_name) return lm->l_name;
    return "?";
}

std::string dlerrorText() {
    const char* e = dlerror();
    return e ? e : "unknown dlopen error";
}

}  // namespace

std::string CudaLibraryLookup::missing() const {
    std::string s;
    for (const CudaLibrary& l : libraries)
        if (l.path.empty()) s += (s.empty() ? "" : ", ") + l.soname;
    return s;
}

std::string CudaLibraryLookup::report() const {
    std::string s;
    if (!error.empty()) s += error + "\n";
    for (const CudaLibrary& l : libraries)
        s += l.path.empty() ? cat(l.soname, ": not found\n") : cat(l.soname, ": ", l.path, " (", l.source, ")\n");
    if (!missing().empty()) {
        std::string where;
        for (const std::string& d : searched) where += (where.empty() ? "" : ", ") + d;
        s += cat("looked for ", missing(), " in: ", where.empty() ? "no folder" : where,
                 " (add a folder with $TRAINDESK_CUDA_LIBRARY_PATH)\n");
    }
    if (!s.empty()) s.pop_back();
    return s;
}

CudaLibraryLookup locateCudaLibraries(const std::string& plugin) {
    CudaLibraryLookup r;
    const std::vector<Folder> folders = searchFolders();
    for (const Folder& f : folders) r.searched.push_back(f.path);
    std::set<std::string> seen;
    // Depth first, a library after everything it needs.
    std::function<void(const std::string&)> visit = [&](const std::string& soname) {
        if (!seen.insert(soname).second) return;
        CudaLibrary lib{soname, "", ""};
        for (const Folder& f : folders)
            if (isFile(f.path + "/" + soname)) {
                lib.path = f.path + "/" + soname, lib.source = f.source;
                break;
            }
        if (!lib.path.empty()) {
            std::string ignored;
            for (const std::string& dep : elfNeeded(lib.path, &ignored))
                if (isCudaLibrary(dep)) visit(dep);
        }
        r.libraries.push_back(lib);
    };
    std::string error;
    const std::vector<std::string> needed = elfNeeded(plugin, &error);
    if (!error.empty()) r.error = "cannot read the CUDA backend's library list: " + error;
    for (const std::string& soname : needed)
        if (isCudaLibrary(soname)) visit(soname);
    return r;
}

bool preloadCudaLibraries(const CudaLibraryLookup& lookup, std::string* error) {
    for (const CudaLibrary& l : lookup.libraries) {
        if (l.path.empty()) continue;
        if (!dlopen(l.path.c_str(), RTLD_NOW | RTLD_GLOBAL)) {
            *error = cat("cannot load ", l.path, ": ", dlerrorText());
            return false;
        }
    }
    return true;
}

bool loadCudaDriver(int neededVersion, std::string* description, std::string* error) {
    void* h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_GLOBAL);
    if (!h) {
        *error = "no NVIDIA driver (" + dlerrorText() + ")";
        return false;
    }
    auto versionOf = [](void* handle) {
        int v = 0;
        using Fn = int (*)(int*);
        if (auto fn = reinterpret_cast<Fn>(dlsym(handle, "cuDriverGetVersion")); fn && fn(&v) != 0) v = 0;
        return v;
    };
    auto cudaVersion = [](int v) { return cat(v / 1000, ".", (v % 1000) / 10); };
    const std::string path = loadedPath(h);
    const int version = versionOf(h);
    *description = cat("libcuda.so.1: ", path, version > 0 ? " (supports CUDA " + cudaVersion(version) + ")" : "");
    if (version <= 0 || version >= neededVersion || path.find("/compat/") != std::string::npos) return true;
    // The node's driver is older than this backend's CUDA: a toolkit's forward-compatibility
    // driver (for data-center GPUs) may bridge that.
    for (const std::string& root : toolkitRoots()) {
        const std::string compat = root + "/compat/libcuda.so.1";
        if (!isFile(compat)) continue;
        dlclose(h);
        if (void* c = dlopen(compat.c_str(), RTLD_NOW | RTLD_GLOBAL)) {
            *description = cat("libcuda.so.1: ", compat, " (forward-compatibility driver: the node's ", path,
                               " supports CUDA ", cudaVersion(version), ", this backend needs ", cudaVersion(neededVersion),
                               ")");
            (void)c;
            return true;
        }
        const std::string why = dlerrorText();
        dlopen("libcuda.so.1", RTLD_NOW | RTLD_GLOBAL);
        *description += cat("; older than the CUDA ", cudaVersion(neededVersion), " this backend needs, and ", compat,
                            " does not load: ", why);
        return true;
    }
    *description += cat("; older than the CUDA ", cudaVersion(neededVersion),
                        " this backend needs (update the driver; no toolkit compat/ driver was found)");
    return true;
}

}  // namespace td
