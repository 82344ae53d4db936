#include "Crc32c.h"

#include <array>

namespace TrainDesk::Crc32c {

namespace {

// The reflected polynomial 0x82F63B78, one byte at a time: event files are small.
std::array<std::uint32_t, 256> makeTable()
{
    std::array<std::uint32_t, 256> table{};
    for (std::uint32_t i = 0; i < 256; ++i) {
        std::uint32_t c = i;
        for (int k = 0; k < 8; ++k)
            c = (c & 1) ? (c >> 1) ^ 0x82F63B78u : c >> 1;
        table[i] = c;
    }
    return table;
}

} // namespace

std::uint32_t of(const char *data, qsizetype size)
{
    static const std::array<std::uint32_t, 256> table = makeTable();
    std::uint32_t crc = 0xFFFFFFFFu;
    for (qsizetype i = 0; i < size; ++i)
        crc = table[(crc ^ static_cast<unsigned char>(data[i])) & 0xFF] ^ (crc >> 8);
    return crc ^ 0xFFFFFFFFu;
}

std::uint32_t masked(std::uint32_t crc)
{
    return ((crc >> 15) | (crc << 17)) + 0xA282EAD8u;
}

} // namespace TrainDesk::Crc32c
