// SSH calls block, so the pool refuses them on a GUI application's main thread (the GUI
// runs them in worker threads). The application here is a stand-in named like Qt's GUI
// application class, which is what the pool looks for; QtGui itself is not linked.
#include "transport/SshConnectionPool.h"
#include "transport/SshTransport.h"

#include <QCoreApplication>
#include <QRegularExpression>
#include <QTest>
#include <QThread>

class QGuiApplication : public QCoreApplication
{
    Q_OBJECT

public:
    using QCoreApplication::QCoreApplication;
};

using namespace TrainDesk;

class TestGuiThread : public QObject
{
    Q_OBJECT

    static SshParameters unreachable()
    {
        SshParameters p;
        p.nodeName = QStringLiteral("n");
        p.host = QStringLiteral("127.0.0.1");
        p.port = 1;  // nothing listens there
        p.user = QStringLiteral("nobody");
        p.connectTimeoutMs = 2000;
        return p;
    }

private slots:
    void refusedOnTheGuiThread()
    {
        QVERIFY(QCoreApplication::instance()->inherits("QGuiApplication"));
        QTest::ignoreMessage(QtCriticalMsg, QRegularExpression(QStringLiteral("requested on the GUI thread")));
        const auto r = SshTransport(unreachable()).exec(QStringLiteral("true"));
        QVERIFY(!r);
        QVERIFY2(r.error().contains(QLatin1String("must not run on the GUI thread")), qPrintable(r.error()));
    }

    void allowedOnAWorkerThread()
    {
        QString error;
        QThread *worker = QThread::create([&] { error = SshTransport(unreachable()).exec(QStringLiteral("true")).error(); });
        worker->start();
        QVERIFY(worker->wait(15000));
        delete worker;
        QVERIFY2(error.contains(QLatin1String("cannot connect")), qPrintable(error));
    }
};

int main(int argc, char *argv[])
{
    QGuiApplication app(argc, argv);
    TestGuiThread test;
    return QTest::qExec(&test, argc, argv);
}

#include "tst_guithread.moc"
