#include "HttpDownload.h"

#include "common/ErrnoText.h"

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

// One GET of `url` appended to the part file: the request (a Range from what the part
// holds), the response's headers judged once (206 from where asked, 200 starts over, any
// other refused), the body written as it comes, and what the ended transfer amounts to.
class PartTransfer
{
public:
    PartTransfer(const QUrl &url, const QString &partPath, const Options &options)
        : m_where(url.toString()), m_url(url), m_part(partPath), m_partPath(partPath), m_options(options)
    {
    }

    Outcome run()
    {
        if (!m_part.open(QIODevice::ReadWrite))
            return {Status::Failed, QStringLiteral("cannot write %1: %2").arg(m_partPath, errnoText(errno))};
        m_offset = m_part.size();
        m_part.seek(m_offset);
        QNetworkAccessManager manager;
        m_reply = manager.get(request());
        waitForEnd();
        if (m_reply->error() == QNetworkReply::NoError && m_writeError.isEmpty())
            take();
        const Outcome result = judge();
        m_reply->deleteLater();
        return result;
    }

private:
    QNetworkRequest request() const
    {
        QNetworkRequest request(m_url);
        request.setAttribute(QNetworkRequest::RedirectPolicyAttribute, QNetworkRequest::NoLessSafeRedirectPolicy);
        request.setHeader(QNetworkRequest::UserAgentHeader,
                          QStringLiteral("TrainDesk/%1").arg(QCoreApplication::applicationVersion()));
        // The bytes on disk must be the served file's: no transparent decompression of a .gz.
        request.setRawHeader("Accept-Encoding", "identity");
        if (m_offset > 0)
            request.setRawHeader("Range", "bytes=" + QByteArray::number(m_offset) + '-');
        return request;
    }

    // The reply's events until it has finished, the inactivity limit passed or the caller
    // cancelled.
    void waitForEnd()
    {
        QEventLoop loop;
        QTimer idle;
        idle.setSingleShot(true);
        QTimer cancelPoll;
        QObject::connect(m_reply, &QNetworkReply::readyRead, &loop, [&] {
            idle.start();
            take();
        });
        QObject::connect(m_reply, &QNetworkReply::downloadProgress, &loop, [&] { idle.start(); });
        QObject::connect(m_reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
        QObject::connect(&idle, &QTimer::timeout, &loop, [&] {
            m_timedOut = true;
            m_reply->abort();
        });
        QObject::connect(&cancelPoll, &QTimer::timeout, &loop, [&] {
            if (m_options.cancel && m_options.cancel->isCancelled()) {
                m_cancelled = true;
                m_reply->abort();
            }
        });
        idle.start(m_options.inactivitySeconds * 1000);
        cancelPoll.start(100);
        loop.exec();
    }

    // Decides, once the final response's headers are in, where its body goes.
    bool acceptHeaders()
    {
        if (m_headersSeen)
            return m_refusal.isEmpty();
        m_headersSeen = true;
        const int status = m_reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        if (status == 206) {
            qint64 start = 0;
            if (!parseContentRange(m_reply->rawHeader("Content-Range"), start, m_total) || start != m_offset) {
                m_refusal = QStringLiteral("%1: the server answered bytes from %2 when asked for bytes from %3")
                                .arg(m_where, QString::fromLatin1(m_reply->rawHeader("Content-Range")))
                                .arg(m_offset);
                return false;
            }
            m_resumed = m_offset > 0;
        } else if (status == 200) {
            if (m_offset > 0) {  // no Range support: the whole file comes again
                m_part.resize(0);
                m_part.seek(0);
                m_offset = 0;
            }
            const QVariant length = m_reply->header(QNetworkRequest::ContentLengthHeader);
            m_total = length.isValid() ? length.toLongLong() : -1;
        } else if (status != 416) {  // 416 is judged when the reply ends
            m_refusal = QStringLiteral("%1: %2").arg(m_where, httpStatusText(m_reply));
            return false;
        }
        return true;
    }

    void take()
    {
        if (!acceptHeaders()) {
            m_reply->abort();
            return;
        }
        const QByteArray data = m_reply->readAll();
        if (data.isEmpty())
            return;
        if (m_part.write(data) != data.size() || !m_part.flush()) {
            m_writeError = QStringLiteral("cannot write %1: %2").arg(m_partPath, errnoText(errno));
            m_reply->abort();
            return;
        }
        m_received += data.size();
        if (m_options.progress)
            m_options.progress(m_offset + m_received, m_total);
    }

    // What the ended transfer amounts to: complete, worth resuming, or failed.
    Outcome judge()
    {
        m_part.close();
        const auto outcome = [&](Status s, const QString &message) { return Outcome{s, message, m_resumed}; };
        // Data came: what is on disk is worth a resume; none came: the server or the network failed.
        const Status cut = m_received > 0 ? Status::Interrupted : Status::Failed;
        if (m_cancelled)
            return outcome(Status::Cancelled, QStringLiteral("%1: cancelled").arg(m_where));
        if (!m_writeError.isEmpty())
            return outcome(Status::Failed, m_writeError);
        if (!m_refusal.isEmpty())
            return outcome(Status::Failed, m_refusal);
        if (m_reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt() == 416) {
            // Asked for bytes past the end: the part is the whole file, or not this file at all.
            qint64 start = 0;
            qint64 size = -1;
            if (parseContentRange(m_reply->rawHeader("Content-Range"), start, size) && size == m_offset)
                return outcome(Status::Complete, {});
            QFile::resize(m_partPath, 0);
            return outcome(Status::Interrupted,
                           QStringLiteral("%1: the partial download does not fit the served file; starting over").arg(m_where));
        }
        if (m_timedOut)
            return outcome(cut, QStringLiteral("%1: no data for %2 s").arg(m_where).arg(m_options.inactivitySeconds));
        if (m_reply->error() != QNetworkReply::NoError)
            return outcome(cut, QStringLiteral("%1: %2").arg(m_where, m_reply->errorString()));
        const qint64 size = QFile(m_partPath).size();
        if (m_total >= 0 && size != m_total) {
            return outcome(cut, QStringLiteral("%1: the transfer ended after %2 of %3 bytes").arg(m_where).arg(size).arg(m_total));
        }
        return outcome(Status::Complete, {});
    }

    const QString m_where;
    const QUrl m_url;
    QFile m_part;
    const QString m_partPath;
    const Options &m_options;
    QNetworkReply *m_reply = nullptr;
    qint64 m_offset = 0;
    qint64 m_total = -1;
    qint64 m_received = 0;
    bool m_timedOut = false;
    bool m_cancelled = false;
    bool m_headersSeen = false;
    bool m_resumed = false;
    QString m_refusal;
    QString m_writeError;
};

} // namespace

Outcome toPartFile(const QUrl &url, const QString &partPath, const Options &options)
{
    return PartTransfer(url, partPath, options).run();
}

} // namespace TrainDesk::HttpDownload
