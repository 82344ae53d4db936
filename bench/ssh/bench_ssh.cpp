// SshTransport timings for bench/ssh/run_bench.sh: one SFTP transfer, or the round trip of
// an exec on a pooled connection. Prints one line: what, bytes or count, seconds.
#include "transport/SshConnectionPool.h"
#include "transport/SshTransport.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFileInfo>

#include <algorithm>
#include <cstdio>
#include <vector>

using namespace TrainDesk;

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    const QStringList a = app.arguments();
    if (a.size() < 8) {
        fprintf(stderr, "usage: %s HOST PORT USER KEY KNOWN_HOSTS upload LOCAL REMOTE | download REMOTE LOCAL | rtt N\n",
                argv[0]);
        return 2;
    }
    SshParameters p;
    p.nodeName = QStringLiteral("bench");
    p.host = a.at(1);
    p.port = a.at(2).toInt();
    p.user = a.at(3);
    p.credentials.keyFile = a.at(4);
    p.credentials.useAgent = false;
    p.knownHostsPath = a.at(5);
    p.hostKeyPolicy = HostKeyPolicy::AcceptNew;
    SshTransport t(p);
    if (auto ok = t.connect(); !ok) {
        fprintf(stderr, "%s\n", qPrintable(ok.error()));
        return 1;
    }
    const QString what = a.at(6);
    TransferOptions options;
    options.resume = false;
    QElapsedTimer timer;
    if (what == QLatin1String("upload") || what == QLatin1String("download")) {
        timer.start();
        const auto r = what == QLatin1String("upload") ? t.upload(a.at(7), a.at(8), options)
                                                       : t.download(a.at(7), a.at(8), options);
        const double seconds = timer.nsecsElapsed() / 1e9;
        if (!r) {
            fprintf(stderr, "%s\n", qPrintable(r.error()));
            return 1;
        }
        const qint64 bytes = QFileInfo(what == QLatin1String("upload") ? a.at(7) : a.at(8)).size();
        printf("%s %lld %.3f\n", qPrintable(what), bytes, seconds);
        return 0;
    }
    if (what == QLatin1String("rtt")) {
        const int n = a.at(7).toInt();
        t.exec(QStringLiteral("true"));  // the connection is pooled from here on
        std::vector<double> ms;
        for (int i = 0; i < n; ++i) {
            timer.start();
            const auto r = t.exec(QStringLiteral("true"));
            ms.push_back(timer.nsecsElapsed() / 1e6);
            if (!r || r->exitCode != 0) {
                fprintf(stderr, "exec failed: %s\n", qPrintable(r.error()));
                return 1;
            }
        }
        std::sort(ms.begin(), ms.end());
        printf("rtt %d median %.2f ms p90 %.2f ms connections %lld\n", n, ms[ms.size() / 2], ms[ms.size() * 9 / 10],
               SshConnectionPool::instance().connectionsOpened());
        return 0;
    }
    fprintf(stderr, "unknown measurement '%s'\n", qPrintable(what));
    return 2;
}
