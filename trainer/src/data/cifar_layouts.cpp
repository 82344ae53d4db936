#include "data/cifar_layouts.h"

#include "util/check.h"

namespace td {

const std::vector<CifarLayout>& cifarLayouts() {
    static const std::vector<CifarLayout> layouts = {
        {CifarSet::Cifar10, false, "CIFAR-10 binary version", "cifar-10-batches-bin", "cifar-10-binary.tar.gz",
         {"data_batch_1.bin", "data_batch_2.bin", "data_batch_3.bin", "data_batch_4.bin", "data_batch_5.bin"},
         "test_batch.bin"},
        {CifarSet::Cifar10, true, "CIFAR-10 python version", "cifar-10-batches-py", "cifar-10-python.tar.gz",
         {"data_batch_1", "data_batch_2", "data_batch_3", "data_batch_4", "data_batch_5"}, "test_batch"},
        {CifarSet::Cifar100, false, "CIFAR-100 binary version", "cifar-100-binary", "cifar-100-binary.tar.gz",
         {"train.bin"}, "test.bin"},
        {CifarSet::Cifar100, true, "CIFAR-100 python version", "cifar-100-python", "cifar-100-python.tar.gz",
         {"train"}, "test"},
    };
    return layouts;
}

std::string CifarLayout::fileList() const {
    if (trainFiles.size() == 1) return cat(trainFiles[0], " and ", testFile);
    const std::string& first = trainFiles.front();
    std::string ext = python ? "" : ".bin";
    return cat(first.substr(0, first.size() - ext.size()), "..", trainFiles.size(), ext, " and ", testFile);
}

}  // namespace td
