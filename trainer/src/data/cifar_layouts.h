#pragma once
// The four published forms of CIFAR: CIFAR-10 and CIFAR-100, each as a "binary version"
// (fixed-size records) and a "python version" (pickled dicts), with the folder each
// archive unpacks into and the file names inside it.
#include <string>
#include <vector>

namespace td {

enum class CifarSet { Any, Cifar10, Cifar100 };

struct CifarLayout {
    CifarSet set;
    bool python;                          // pickles, else binary records
    const char* title;                    // "CIFAR-10 python version"
    const char* folder;                   // "cifar-10-batches-py"
    const char* archive;                  // "cifar-10-python.tar.gz"
    std::vector<std::string> trainFiles;  // in the order they are concatenated
    std::string testFile;

    int classes(bool coarse) const { return set == CifarSet::Cifar10 ? 10 : coarse ? 20 : 100; }
    // "data_batch_1..5 and test_batch", for messages.
    std::string fileList() const;
};

// CIFAR-10 before CIFAR-100, binary before python: the order in which forms are preferred.
const std::vector<CifarLayout>& cifarLayouts();

}  // namespace td
