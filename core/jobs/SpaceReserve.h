#pragma once

#include <QString>

namespace TrainDesk {

// Space held back on the data directory's disk for the few writes that say what happened:
// when the disk fills up, the agent lets the reserve go so that job states and the DiskFull
// error can still be stored (a job's state follows its exit code whatever else fails), and
// takes it again once space has returned.
class SpaceReserve
{
public:
    static constexpr qint64 defaultBytes = 4 * 1024 * 1024;

    explicit SpaceReserve(const QString &directory, qint64 bytes = defaultBytes);

    // Takes the reserve when it is not held and the disk has room for it twice over; true
    // when it is held afterwards.
    bool ensure();
    // Lets it go; true when space was freed.
    bool release();
    bool held() const;
    // Let go since it was last taken: the disk filled up.
    bool released() const { return m_released; }
    QString path() const { return m_path; }

    // Bytes an unprivileged writer may still use on the disk of `directory`; -1 when unknown.
    static qint64 freeBytes(const QString &directory);

private:
    QString m_directory;
    QString m_path;
    qint64 m_bytes;
    bool m_released = false;
};

} // namespace TrainDesk
