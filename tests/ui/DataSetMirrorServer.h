#pragma once

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTest>

// A data set mirror of the test's own: CIFAR-10 archives written by tests/trainer/cifar_sets.py
// in the published layouts (small: 5 x 40 training and 40 test images, enough for 4 workers x
// 32 a step), served on 127.0.0.1 by tests/e2e/range_http_server.py, with
// TRAINDESK_DATASET_MIRROR pointing at it and TRAINDESK_DATASET_CHECKSUMS at the archives' own
// MD5s (honoured only with a mirror).
class DataSetMirrorServer
{
public:
    explicit DataSetMirrorServer(const QString &folder) : m_folder(folder) {}
    ~DataSetMirrorServer() { stop(); }

    // Writes cifar10/cifar-10-python.tar.gz and cifar10-binary/cifar-10-binary.tar.gz under
    // the folder, and the checksum file.
    bool writeArchives()
    {
        QDir().mkpath(m_folder + QStringLiteral("/mirror/cifar10"));
        QDir().mkpath(m_folder + QStringLiteral("/mirror/cifar10-binary"));
        QProcess py;
        py.setProcessChannelMode(QProcess::ForwardedChannels);
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("PYTHONPATH"), QStringLiteral(TRAINDESK_SOURCE_DIR "/tests/trainer"));
        env.insert(QStringLiteral("PYTHONDONTWRITEBYTECODE"), QStringLiteral("1"));
        py.setProcessEnvironment(env);
        py.start(QStringLiteral(TRAINDESK_TEST_PYTHON), {QStringLiteral("-c"), QStringLiteral(R"(
import os, sys
import numpy as np
import cifar_sets as cs
work = sys.argv[1]
s = cs.CifarSet(np.random.default_rng(7), hundred=False, train_files=5, per_file=40, n_test=40)
cs.write_archive(s, os.path.join(work, "mirror/cifar10/cifar-10-python.tar.gz"), True, os.path.join(work, "scratch-py"))
cs.write_archive(s, os.path.join(work, "mirror/cifar10-binary/cifar-10-binary.tar.gz"), False, os.path.join(work, "scratch-bin"))
)"), m_folder});
        if (!py.waitForFinished(60000) || py.exitCode() != 0)
            return false;
        QByteArray sums;
        for (const QString &file : {QStringLiteral("cifar10/cifar-10-python.tar.gz"),
                                    QStringLiteral("cifar10-binary/cifar-10-binary.tar.gz")}) {
            QFile f(archive(file));
            if (!f.open(QIODevice::ReadOnly))
                return false;
            sums += QCryptographicHash::hash(f.readAll(), QCryptographicHash::Md5).toHex() + "  " + file.toUtf8() + '\n';
        }
        QFile md5(m_folder + QStringLiteral("/MD5SUMS"));
        if (!md5.open(QIODevice::WriteOnly) || md5.write(sums) != sums.size())
            return false;
        md5.close();
        qputenv("TRAINDESK_DATASET_CHECKSUMS", md5.fileName().toUtf8());
        return true;
    }

    QString archive(const QString &relative) const { return m_folder + QStringLiteral("/mirror/") + relative; }

    // Starts the server and points TRAINDESK_DATASET_MIRROR at it; `options`: the server's
    // (--stall-after N: it sends N bytes of a file, then nothing).
    bool start(const QStringList &options = {})
    {
        stop();
        const QString portFile = m_folder + QStringLiteral("/port");
        QFile::remove(portFile);
        m_server.setProcessChannelMode(QProcess::ForwardedChannels);
        const QStringList arguments = QStringList{QStringLiteral(TRAINDESK_SOURCE_DIR "/tests/e2e/range_http_server.py"),
                                                  m_folder + QStringLiteral("/mirror"), QStringLiteral("--port-file"),
                                                  portFile, QStringLiteral("--log"), logPath()}
            + options;
        m_server.start(QStringLiteral(TRAINDESK_TEST_PYTHON), arguments);
        if (!QTest::qWaitFor([&portFile] { return QFile::exists(portFile); }, 10000))
            return false;
        QFile f(portFile);
        if (!f.open(QIODevice::ReadOnly))
            return false;
        m_port = f.readAll().trimmed().toInt();
        qputenv("TRAINDESK_DATASET_MIRROR", QStringLiteral("http://127.0.0.1:%1/").arg(m_port).toUtf8());
        return m_port > 0;
    }

    // Stops the server; the mirror address stays, so fetches find nobody there.
    void stop()
    {
        if (m_server.state() == QProcess::NotRunning)
            return;
        m_server.kill();
        m_server.waitForFinished(5000);
    }

    int port() const { return m_port; }
    QString logPath() const { return m_folder + QStringLiteral("/requests.log"); }
    // GET requests the server answered so far.
    int requests() const
    {
        QFile log(m_folder + QStringLiteral("/requests.log"));
        return log.open(QIODevice::ReadOnly) ? int(log.readAll().count("GET ")) : 0;
    }

private:
    QString m_folder;
    QProcess m_server;
    int m_port = 0;
};
