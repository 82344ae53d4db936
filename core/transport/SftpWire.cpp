#include "SftpWire.h"

#include <libssh/libssh.h>
#include <libssh/sftp.h>

#include <QElapsedTimer>

#include <algorithm>
#include <cstring>
#include <deque>

namespace TrainDesk::SftpWire {

namespace {

constexpr quint8 FXP_WRITE = 6;
constexpr quint8 FXP_STATUS = 101;
constexpr quint8 FXP_EXTENDED = 200;
constexpr qint64 chunkSize = 128 * 1024;  // well under sftp-server's 256 KiB message limit
constexpr int maxInFlight = 16;
// Ids far from libssh's own counter, so a stray reply is never mistaken for one of ours.
constexpr quint32 firstId = 0x54440000;

void put32(char *p, quint32 v)
{
    p[0] = char(v >> 24);
    p[1] = char(v >> 16);
    p[2] = char(v >> 8);
    p[3] = char(v);
}

void put64(char *p, quint64 v)
{
    put32(p, quint32(v >> 32));
    put32(p + 4, quint32(v));
}

quint32 get32(const char *p)
{
    const auto *u = reinterpret_cast<const unsigned char *>(p);
    return quint32(u[0]) << 24 | quint32(u[1]) << 16 | quint32(u[2]) << 8 | quint32(u[3]);
}

void appendString(QByteArray &packet, const QByteArray &s)
{
    char length[4];
    put32(length, quint32(s.size()));
    packet.append(length, 4);
    packet.append(s);
}

bool readExact(ssh_channel channel, char *buffer, int size, const QElapsedTimer &timer, int timeoutMs)
{
    int got = 0;
    while (got < size) {
        const int left = timeoutMs - int(timer.elapsed());
        if (left <= 0)
            return false;
        const int n = ssh_channel_read_timeout(channel, buffer + got, quint32(size - got), 0, qMin(left, 1000));
        if (n == SSH_ERROR || (n == 0 && ssh_channel_is_eof(channel)))
            return false;
        got += n;
    }
    return true;
}

struct Status
{
    quint32 id = 0;
    quint32 code = 0;
    QString message;
};

// Reads one reply; only STATUS replies are expected for writes and renames.
Result<Status> readStatus(ssh_channel channel, int timeoutMs)
{
    QElapsedTimer timer;
    timer.start();
    char header[9];
    if (!readExact(channel, header, 4, timer, timeoutMs))
        return fail(QStringLiteral("no reply from the SFTP server within %1 s").arg(timeoutMs / 1000.0));
    const quint32 length = get32(header);
    if (length < 9 || length > 256 * 1024)
        return fail(QStringLiteral("malformed SFTP reply (length %1)").arg(length));
    QByteArray body(int(length), Qt::Uninitialized);
    if (!readExact(channel, body.data(), int(length), timer, timeoutMs))
        return fail(QStringLiteral("the SFTP reply was cut off"));
    if (quint8(body.at(0)) != FXP_STATUS)
        return fail(QStringLiteral("unexpected SFTP reply type %1").arg(quint8(body.at(0))));
    Status status;
    status.id = get32(body.constData() + 1);
    status.code = get32(body.constData() + 5);
    if (length >= 13) {
        const quint32 messageLength = get32(body.constData() + 9);
        if (13 + qint64(messageLength) <= length)
            status.message = QString::fromUtf8(body.constData() + 13, int(messageLength));
    }
    return status;
}

QString statusText(const Status &s)
{
    switch (s.code) {
    case SSH_FX_NO_SUCH_FILE: return QStringLiteral("no such file");
    case SSH_FX_PERMISSION_DENIED: return QStringLiteral("permission denied");
    case SSH_FX_OP_UNSUPPORTED: return QStringLiteral("operation not supported");
    default: break;
    }
    return s.message.isEmpty() ? QStringLiteral("SFTP error %1").arg(s.code) : s.message;
}

} // namespace

WriteResult write(sftp_session_struct *sftp, sftp_file_struct *file, qint64 start, qint64 end, const Source &source,
                  const ProgressCallback &progress, const CancelFlag *cancel, int timeoutMs)
{
    struct Request
    {
        quint32 id;
        qint64 offset;
        qint64 length;
        bool done = false;
        bool ok = false;
    };
    const QByteArray handle(static_cast<const char *>(ssh_string_data(file->handle)), int(ssh_string_len(file->handle)));
    const int headerSize = 4 + 1 + 4 + 4 + int(handle.size()) + 8 + 4;
    QByteArray packet(headerSize + int(chunkSize), Qt::Uninitialized);
    std::deque<Request> inFlight;
    quint32 nextId = firstId;
    qint64 next = start;
    bool prefixBroken = false;
    WriteResult result;

    // Counts only the gap-free prefix, so that a resume never skips a hole.
    auto settle = [&]() {
        while (!inFlight.empty() && inFlight.front().done) {
            if (inFlight.front().ok && !prefixBroken)
                result.written += inFlight.front().length;
            else
                prefixBroken = true;
            inFlight.pop_front();
        }
    };
    // False when the channel can no longer be trusted (no reply, a malformed one).
    auto receiveOne = [&]() -> bool {
        const auto status = readStatus(sftp->channel, timeoutMs);
        if (!status) {
            if (result.error.isEmpty())
                result.error = status.error();
            return false;
        }
        auto it = std::find_if(inFlight.begin(), inFlight.end(), [&](const Request &r) { return r.id == status->id; });
        if (it == inFlight.end()) {
            if (result.error.isEmpty())
                result.error = QStringLiteral("SFTP reply to an unknown request");
            return false;
        }
        it->done = true;
        it->ok = status->code == SSH_FX_OK;
        if (!it->ok && result.error.isEmpty())
            result.error = QStringLiteral("write at offset %1 failed: %2").arg(it->offset).arg(statusText(*status));
        settle();
        if (progress && result.error.isEmpty())
            progress(start + result.written, end);
        return true;
    };

    bool channelOk = true;
    while (channelOk && result.error.isEmpty() && (next < end || !inFlight.empty())) {
        if (cancel && cancel->isCancelled()) {
            result.cancelled = true;
            break;
        }
        if (next < end && int(inFlight.size()) < maxInFlight) {
            const qint64 length = qMin(chunkSize, end - next);
            const qint64 got = source(next, packet.data() + headerSize, length);
            if (got != length) {
                result.error = QStringLiteral("cannot read the source at offset %1").arg(next);
                break;
            }
            char *p = packet.data();
            put32(p, quint32(headerSize - 4 + length));
            p[4] = char(FXP_WRITE);
            put32(p + 5, nextId);
            put32(p + 9, quint32(handle.size()));
            memcpy(p + 13, handle.constData(), size_t(handle.size()));
            put64(p + 13 + handle.size(), quint64(next));
            put32(p + 21 + handle.size(), quint32(length));
            if (ssh_channel_write(sftp->channel, p, quint32(headerSize + length)) == SSH_ERROR) {
                result.error = QStringLiteral("the connection broke while writing: %1")
                                   .arg(QString::fromUtf8(ssh_get_error(sftp->session)));
                result.broken = true;  // nothing more can be read from a broken channel
                return result;
            }
            inFlight.push_back({nextId++, next, length});
            next += length;
            // Take the replies that are already here without waiting.
            while (channelOk && result.error.isEmpty() && !inFlight.empty() && ssh_channel_poll(sftp->channel, 0) >= 4)
                channelOk = receiveOne();
            continue;
        }
        channelOk = receiveOne();
    }
    // Collect the replies still due, so that the channel is clean for the next request.
    while (channelOk && !inFlight.empty())
        channelOk = receiveOne();
    result.broken = !channelOk;
    return result;
}

VoidResult posixRename(sftp_session_struct *sftp, const QString &from, const QString &to, int timeoutMs,
                       bool *unsupported)
{
    *unsupported = !sftp_extension_supported(sftp, "posix-rename@openssh.com", "1");
    if (*unsupported)
        return fail(QStringLiteral("the SFTP server lacks posix-rename@openssh.com"));
    QByteArray packet(4, '\0');
    packet.append(char(FXP_EXTENDED));
    char id[4];
    put32(id, firstId - 1);
    packet.append(id, 4);
    appendString(packet, QByteArrayLiteral("posix-rename@openssh.com"));
    appendString(packet, from.toUtf8());
    appendString(packet, to.toUtf8());
    put32(packet.data(), quint32(packet.size() - 4));
    if (ssh_channel_write(sftp->channel, packet.constData(), quint32(packet.size())) == SSH_ERROR)
        return fail(QStringLiteral("the connection broke: %1").arg(QString::fromUtf8(ssh_get_error(sftp->session))));
    const auto status = readStatus(sftp->channel, timeoutMs);
    if (!status)
        return status.failure();
    if (status->code != SSH_FX_OK)
        return fail(statusText(*status));
    return {};
}

} // namespace TrainDesk::SftpWire
