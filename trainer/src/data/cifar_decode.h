#pragma once
// Decodes one CIFAR batch file (binary records or a python pickle) into NHWC uint8 images
// and labels. Any number of images is accepted (the published batches hold 10000 each);
// sizes, shapes and label ranges are checked, and errors name `origin` and the offset.
#include <cstdint>
#include <string>
#include <vector>

#include "data/cifar_layouts.h"
#include "data/dataset.h"

namespace td {

Dataset decodeCifarBatch(const std::vector<uint8_t>& bytes, const std::string& origin, const CifarLayout& layout,
                         bool coarse);

// Appends `part`'s images and labels to `into` (same image shape).
void appendImages(Dataset& into, const Dataset& part);

}  // namespace td
