#pragma once

#include <QByteArray>

#include <cstdint>

namespace TrainDesk {

// CRC-32C (Castagnoli), as TFRecord files (TensorBoard's event files) check their records,
// and the "masked" form they store (a CRC of data holding CRCs would be weak otherwise).
namespace Crc32c {

std::uint32_t of(const char *data, qsizetype size);
inline std::uint32_t of(const QByteArray &data) { return of(data.constData(), data.size()); }
std::uint32_t masked(std::uint32_t crc);

} // namespace Crc32c
} // namespace TrainDesk
