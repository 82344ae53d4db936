#include "HttpDownload.h"

#include "common/SafeFiles.h"

#include <QCoreApplication>
#include <QEventLoop>
#include <QFile>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QRegularExpression>
#include <QTimer>

#include <cerrno>

namespace TrainDesk::HttpDownload {

namespace {

// "bytes START-END/TOTAL" or "bytes */TOTAL" (TOTAL may be "*"): start (-1 for "*") and total (-1 unknown).
bool parseContentRange(const QByteArray &header, qint64 &start, qint64 &total)
{
    static const QRegularExpression pattern(QStringLiteral(R"(^\s*bytes\s+(?:(\d+)-(\d+)|\*)/(\d+|\*)\s*$)"));
    const auto match = pattern.match(QString::fromLatin1(header));
    if (!match.hasMatch())
        return false;
    start = match.captured(1).isEmpty() ? -1 : match.captured(1).toLongLong();
    total = match.captured(3) == QLatin1String("*") ? -1 : match.captured(3).toLongLong();
    return true;
}

QString httpStatusText(QNetworkReply *reply)
{
    const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    const QString reason = reply->attribute(QNetworkRequest::HttpReasonPhraseAttribute).toString();
    return QStringLiteral("HTTP %1 %2").arg(status).arg(reason).trimmed();
}

} // namespace

Outcome toPartFile(const QUrl &url, const QString &partPath, const Options &options)
{
    const QString where = url.toString();
    QFile part(partPath);
    if (!part.open(QIODevice::ReadWrite))
        return {Status::Failed, QStringLiteral("cannot write %1: %2").arg(partPath, SafeFiles::errorText(errno))};
    qint64 offset = part.size();
    part.seek(offset);

    QNetworkAccessManager manager;
    QNetworkRequest request(url);
    request.setAttribute(QNetworkRequest::RedirectPolicyAttribute, QNetworkRequest::NoLessSafeRedirectPolicy);
    request.setHeader(QNetworkRequest::UserAgentHeader,
                      QStringLiteral("TrainDesk/%1").arg(QCoreApplication::applicationVersion()));
    // The bytes on disk must be the served file's: no transparent decompression of a .gz.
    request.setRawHeader("Accept-Encoding", "identity");
    if (offset > 0)
        request.setRawHeader("Range", "bytes=" + QByteArray::number(offset) + '-');
    QNetworkReply *reply = manager.get(request);

    QEventLoop loop;
    QTimer idle;
    idle.setSingleShot(true);
    QTimer cancelPoll;
    bool timedOut = false;
    bool cancelled = false;
    bool headersSeen = false;
    bool resumed = false;
    qint64 total = -1;
    qint64 received = 0;
    QString refusal;
    QString writeError;

    // Decides, once the final response's headers are in, where its body goes.
    const auto acceptHeaders = [&]() -> bool {
        if (headersSeen)
            return refusal.isEmpty();
        headersSeen = true;
        const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        if (status == 206) {
            qint64 start = 0;
            if (!parseContentRange(reply->rawHeader("Content-Range"), start, total) || start != offset) {
                refusal = QStringLiteral("%1: the server answered bytes from %2 when asked for bytes from %3")
                              .arg(where, QString::fromLatin1(reply->rawHeader("Content-Range")))
                              .arg(offset);
                return false;
            }
            resumed = offset > 0;
        } else if (status == 200) {
            if (offset > 0) {  // no Range support: the whole file comes again
                part.resize(0);
                part.seek(0);
                offset = 0;
            }
            const QVariant length = reply->header(QNetworkRequest::ContentLengthHeader);
            total = length.isValid() ? length.toLongLong() : -1;
        } else if (status != 416) {  // 416 is judged when the reply ends
            refusal = QStringLiteral("%1: %2").arg(where, httpStatusText(reply));
            return false;
        }
        return true;
    };
    const auto take = [&]() {
        if (!acceptHeaders()) {
            reply->abort();
            return;
        }
        const QByteArray data = reply->readAll();
        if (data.isEmpty())
            return;
        if (part.write(data) != data.size() || !part.flush()) {
            writeError = QStringLiteral("cannot write %1: %2").arg(partPath, SafeFiles::errorText(errno));
            reply->abort();
            return;
        }
        received += data.size();
        if (options.progress)
            options.progress(offset + received, total);
    };

    QObject::connect(reply, &QNetworkReply::readyRead, &loop, [&] {
        idle.start();
        take();
    });
    QObject::connect(reply, &QNetworkReply::downloadProgress, &loop, [&] { idle.start(); });
    QObject::connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
    QObject::connect(&idle, &QTimer::timeout, &loop, [&] {
        timedOut = true;
        reply->abort();
    });
    QObject::connect(&cancelPoll, &QTimer::timeout, &loop, [&] {
        if (options.cancel && options.cancel->isCancelled()) {
            cancelled = true;
            reply->abort();
        }
    });
    idle.start(options.inactivitySeconds * 1000);
    cancelPoll.start(100);
    loop.exec();
    if (reply->error() == QNetworkReply::NoError && writeError.isEmpty())
        take();
    const QNetworkReply::NetworkError error = reply->error();
    const QString errorText = reply->errorString();
    const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    const QByteArray contentRange = reply->rawHeader("Content-Range");
    reply->deleteLater();
    part.close();

    const auto outcome = [&](Status s, const QString &message) { return Outcome{s, message, resumed}; };
    if (cancelled)
        return outcome(Status::Cancelled, QStringLiteral("%1: cancelled").arg(where));
    if (!writeError.isEmpty())
        return outcome(Status::Failed, writeError);
    if (!refusal.isEmpty())
        return outcome(Status::Failed, refusal);
    if (status == 416) {
        // Asked for bytes past the end: the part is the whole file, or not this file at all.
        qint64 start = 0;
        qint64 size = -1;
        if (parseContentRange(contentRange, start, size) && size == offset)
            return outcome(Status::Complete, {});
        QFile::resize(partPath, 0);
        return outcome(Status::Interrupted, QStringLiteral("%1: the partial download does not fit the served file; starting over").arg(where));
    }
    if (timedOut) {
        return outcome(received > 0 ? Status::Interrupted : Status::Failed,
                       QStringLiteral("%1: no data for %2 s").arg(where).arg(options.inactivitySeconds));
    }
    if (error != QNetworkReply::NoError)
        return outcome(received > 0 ? Status::Interrupted : Status::Failed, QStringLiteral("%1: %2").arg(where, errorText));
    const qint64 size = QFile(partPath).size();
    if (total >= 0 && size != total) {
        return outcome(received > 0 ? Status::Interrupted : Status::Failed,
                       QStringLiteral("%1: the transfer ended after %2 of %3 bytes").arg(where).arg(size).arg(total));
    }
    return outcome(Status::Complete, {});
}

} // namespace TrainDesk::HttpDownload
