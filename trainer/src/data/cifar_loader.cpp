// Finds CIFAR in --data (a folder, the folders its archives unpack into, the archives
// themselves, or an archive given directly) and loads it.
#include <map>
#include <optional>

#include "data/cifar_decode.h"
#include "data/cifar_layouts.h"
#include "data/gzfile.h"
#include "data/loaders.h"
#include "data/tar_reader.h"
#include "util/check.h"
#include "util/log.h"

namespace td {

namespace {

bool wanted(const CifarLayout& l, CifarSet want) { return want == CifarSet::Any || l.set == want; }

// A data set file as published, or gzipped on its own.
std::optional<std::string> findFile(const std::string& folder, const std::string& name) {
    for (const std::string& p : {folder + "/" + name, folder + "/" + name + ".gz"})
        if (fileExists(p)) return p;
    return std::nullopt;
}

std::string setName(const CifarLayout& l, bool coarse) {
    return l.set == CifarSet::Cifar10 ? "cifar10" : coarse ? "cifar100-coarse" : "cifar100";
}

void checkLabelOption(const CifarLayout& l, const std::string& label, const std::string& where) {
    if (!label.empty() && l.set != CifarSet::Cifar100)
        throw UsageError(cat("--label ", label, ": only CIFAR-100 has fine and coarse labels; ", where, " holds the ",
                             l.title));
}

DataSplit emptySplit(const CifarLayout& l, bool coarse) {
    DataSplit s;
    s.name = setName(l, coarse);
    for (Dataset* d : {&s.train, &s.test}) {
        d->h = d->w = 32;
        d->c = 3;
        d->numClasses = l.classes(coarse);
    }
    return s;
}

DataSplit loadFolder(const CifarLayout& l, const std::string& folder, bool coarse) {
    DataSplit s = emptySplit(l, coarse);
    auto load = [&](Dataset& into, const std::string& name) {
        std::optional<std::string> path = findFile(folder, name);
        if (!path)
            throw RuntimeError(cat(folder, "/", name, ": missing (the ", l.title, " has ", l.fileList(),
                                   "; found ", l.trainFiles[0], " here)"));
        appendImages(into, decodeCifarBatch(readWholeFile(*path), *path, l, coarse));
    };
    for (const std::string& name : l.trainFiles) load(s.train, name);
    load(s.test, l.testFile);
    return s;
}

// One pass over the archive: the first CIFAR file found decides the form; each file is
// decoded as it is read, so only one file's bytes are held at a time.
DataSplit loadArchive(const std::string& archive, CifarSet want, bool coarse, const std::string& label,
                      const CifarLayout*& found) {
    TarReader tar(archive);
    found = nullptr;
    std::map<std::string, Dataset> parts;  // by file name
    std::map<std::string, std::string> members;
    std::vector<std::string> otherForms, firstNames;
    TarMember m;
    while (tar.next(m)) {
        if (firstNames.size() < 5) firstNames.push_back(m.name);
        // The files sit at the top or in one folder (cifar-10-batches-py/data_batch_1), maybe
        // spelled ./cifar-10-batches-py/data_batch_1 (tar czf x.tar.gz ./folder).
        std::string name = m.name;
        while (name.rfind("./", 0) == 0) name.erase(0, 2);
        size_t slash = name.find('/');
        if (slash != std::string::npos && name.find('/', slash + 1) != std::string::npos) continue;
        const std::string base = slash == std::string::npos ? name : name.substr(slash + 1);
        const CifarLayout* layout = nullptr;
        for (const CifarLayout& l : cifarLayouts()) {
            if (!wanted(l, want)) continue;
            bool named = base == l.testFile;
            for (const std::string& t : l.trainFiles) named = named || base == t;
            if (named) layout = &l;
        }
        if (!layout) continue;
        if (!found) {
            checkLabelOption(*layout, label, archive);
            found = layout;
        }
        if (layout != found) {
            otherForms.push_back(m.name);
            continue;
        }
        if (members.count(base))
            TD_FAIL(archive, ": holds ", base, " twice (", members[base], " and ", m.name, ")");
        members[base] = m.name;
        parts[base] = decodeCifarBatch(tar.readContent(), archive + ":" + m.name, *found, coarse);
    }
    if (!found) {
        std::string names;
        for (const CifarLayout& l : cifarLayouts())
            if (wanted(l, want)) names += cat(names.empty() ? "" : "; ", l.title, ": ", l.fileList());
        std::string seen;
        for (const std::string& n : firstNames) seen += (seen.empty() ? "" : ", ") + n;
        throw RuntimeError(cat(archive, ": no CIFAR batch files in this archive (looked for ", names,
                               "; its first members: ", seen.empty() ? "none" : seen, ")"));
    }
    if (!otherForms.empty())
        log::info("data: %s also holds %s (%zu files), not used\n", archive.c_str(), otherForms.front().c_str(),
                  otherForms.size());
    DataSplit s = emptySplit(*found, coarse);
    auto take = [&](Dataset& into, const std::string& name) {
        auto it = parts.find(name);
        if (it == parts.end())
            throw RuntimeError(cat(archive, ": no member ", name, " (the ", found->title, " has ", found->fileList(),
                                   ")"));
        appendImages(into, it->second);
        it->second = Dataset();
    };
    for (const std::string& name : found->trainFiles) take(s.train, name);
    take(s.test, found->testFile);
    return s;
}

struct Candidate {
    const CifarLayout* layout;
    std::string path;  // the folder holding the files, or the archive
    bool archive;
};

// Unpacked files before archives (faster to read); within each, CIFAR-10 before CIFAR-100
// and the binary version before the python one.
std::vector<Candidate> candidates(const std::string& dir, CifarSet want) {
    std::vector<Candidate> out;
    for (const CifarLayout& l : cifarLayouts())
        if (wanted(l, want) && findFile(dir, l.trainFiles[0])) out.push_back({&l, dir, false});
    for (const CifarLayout& l : cifarLayouts())
        if (wanted(l, want) && findFile(dir + "/" + l.folder, l.trainFiles[0]))
            out.push_back({&l, dir + "/" + l.folder, false});
    for (const CifarLayout& l : cifarLayouts())
        if (wanted(l, want) && fileExists(dir + "/" + l.archive)) out.push_back({&l, dir + "/" + l.archive, true});
    return out;
}

}  // namespace

bool cifarPresent(const std::string& path, CifarSet want) {
    return fileExists(path) || !candidates(path, want).empty();
}

std::string cifarLookedFor(const std::string& dir, CifarSet want) {
    std::string out;
    for (const CifarLayout& l : cifarLayouts()) {
        if (!wanted(l, want)) continue;
        const std::string& f = l.trainFiles[0];
        out += cat("\n  ", l.title, ": ", dir, "/", f, "[.gz], ", dir, "/", l.folder, "/", f, "[.gz], ", dir, "/",
                   l.archive);
    }
    return out;
}

DataSplit loadCifar(const std::string& path, CifarSet want, const std::string& label) {
    const bool coarse = label == "coarse";
    Candidate c{nullptr, path, true};  // an archive given directly
    if (!fileExists(path)) {
        std::vector<Candidate> found = candidates(path, want);
        if (found.empty()) {
            const char* which = want == CifarSet::Cifar10    ? "CIFAR-10"
                                : want == CifarSet::Cifar100 ? "CIFAR-100"
                                                             : "CIFAR";
            throw UsageError(cat("--data ", path, ": no ", which, " data set found; looked for:",
                                 cifarLookedFor(path, want)));
        }
        c = found.front();
        for (size_t i = 1; i < found.size(); ++i)
            log::info("data: also found %s at %s (not used%s)\n", found[i].layout->title, found[i].path.c_str(),
                      found[i].layout->set != c.layout->set ? "; --format cifar100 picks CIFAR-100" : "");
    }
    DataSplit s;
    const CifarLayout* layout = c.layout;
    if (c.archive) {
        s = loadArchive(c.path, want, coarse, label, layout);  // the form is what the archive holds
    } else {
        checkLabelOption(*layout, label, c.path);
        s = loadFolder(*layout, c.path, coarse);
    }
    log::info("data: %s from %s %s: %lld training and %lld test images, %d classes%s\n", layout->title,
              c.archive ? "archive" : "folder", c.path.c_str(), (long long)s.train.n, (long long)s.test.n,
              s.train.numClasses,
              layout->set == CifarSet::Cifar100 ? (coarse ? " (coarse labels)" : " (fine labels)") : "");
    return s;
}

}  // namespace td
