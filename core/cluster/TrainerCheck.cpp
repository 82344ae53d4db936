#include "TrainerCheck.h"

#include "common/ShellQuote.h"
#include "transport/Transport.h"

#include <QFileInfo>
#include <QProcess>
#include <QRegularExpression>

namespace TrainDesk::TrainerCheck {

QStringList Outcome::packageNames() const
{
    QStringList names;
    for (const QString &library : missingLibraries) {
        const QString package = packages.value(library);
        if (!package.isEmpty() && !names.contains(package))
            names << package;
    }
    return names;
}

QString Outcome::missingText() const
{
    QStringList parts;
    for (const QString &library : missingLibraries) {
        const QString package = packages.value(library);
        parts << QStringLiteral("%1 (%2)").arg(library, package.isEmpty() ? QStringLiteral("package unknown")
                                                                          : QStringLiteral("package ") + package);
    }
    return parts.join(QStringLiteral(", "));
}

Result<Outcome> run(Transport &transport, const QString &path)
{
    const QString t = shellQuote(path);
    const QString script = QStringLiteral("out=$(%1 --version 2>&1); rc=$?; echo \"rc=$rc\"; printf '%s\\n' \"$out\" | "
                                          "sed 's/^/out=/'; if [ $rc -ne 0 ]; then ldd %1 2>/dev/null | "
                                          "awk '/not found/ {print \"missing=\" $1}'; else gpu=$(%1 --gpu-info 2>&1); "
                                          "echo \"gpurc=$?\"; printf '%s\\n' \"$gpu\" | sed 's/^/gpu=/'; fi")
                               .arg(t);
    const auto result = transport.exec(script, 30000);
    if (!result)
        return result.failure();
    Outcome o;
    QStringList out;
    int rc = -1;
    for (const QString &line : QString::fromUtf8(result->stdOut).split(QLatin1Char('\n'))) {
        if (line.startsWith(QLatin1String("rc=")))
            rc = line.mid(3).toInt();
        else if (line.startsWith(QLatin1String("out=")))
            out << line.mid(4);
        else if (line.startsWith(QLatin1String("gpurc=")))
            o.gpuUsable = line.mid(6).toInt() == 0;
        else if (line.startsWith(QLatin1String("gpu=")) && !line.mid(4).trimmed().isEmpty())
            o.gpuInfo << line.mid(4).trimmed();
        else if (line.startsWith(QLatin1String("missing=")) && !o.missingLibraries.contains(line.mid(8)))
            o.missingLibraries << line.mid(8);
    }
    o.runs = rc == 0;
    if (o.runs) {
        o.version = out.value(0).trimmed();
        return o;
    }
    o.error = out.join(QLatin1Char('\n')).trimmed();
    // The loader names the first library it could not load, missing or broken.
    static const QRegularExpression loader(QStringLiteral("error while loading shared libraries: ([^:]+):"));
    if (const auto m = loader.match(o.error); m.hasMatch()) {
        const QString library = QFileInfo(m.captured(1).trimmed()).fileName();
        if (!o.missingLibraries.contains(library))
            o.missingLibraries.prepend(library);
    }
    o.packages = debianPackages(o.missingLibraries);
    return o;
}

QMap<QString, QString> debianPackages(const QStringList &libraries)
{
    QMap<QString, QString> packages;
    for (const QString &library : libraries) {
        QProcess query;
        query.start(QStringLiteral("dpkg-query"), {QStringLiteral("-S"), QStringLiteral("*/") + library});
        QString package;
        if (query.waitForFinished(10000) && query.exitCode() == 0) {
            // "libdnnl2:amd64: /usr/lib/x86_64-linux-gnu/libdnnl.so.2": the package, without its architecture.
            const QString first = QString::fromUtf8(query.readAllStandardOutput()).section(QLatin1Char('\n'), 0, 0);
            package = first.section(QStringLiteral(": "), 0, 0).section(QLatin1Char(':'), 0, 0).section(QLatin1Char(','), 0, 0);
        }
        packages.insert(library, package.trimmed());
    }
    return packages;
}

VoidResult installPackages(Transport &transport, const QString &nodeName, const QStringList &packages)
{
    if (packages.isEmpty())
        return {};
    const auto sudo = transport.exec(QStringLiteral("sudo -n true"), 15000);
    if (!sudo)
        return sudo.failure();
    const QString command = QStringLiteral("apt-get install -y %1").arg(shellJoin(packages));
    if (sudo->exitCode != 0) {
        return fail(QStringLiteral("node %1: the user may not use sudo without a password: install the packages there "
                                   "as root ('sudo %2')").arg(nodeName, command));
    }
    const auto installed = transport.exec(QStringLiteral("sudo -n env DEBIAN_FRONTEND=noninteractive ") + command, 600000);
    if (!installed)
        return installed.failure();
    if (installed->exitCode != 0) {
        return fail(QStringLiteral("node %1: '%2' failed (exit code %3): %4")
                        .arg(nodeName, command)
                        .arg(installed->exitCode)
                        .arg(QString::fromLocal8Bit(installed->stdErr).trimmed().right(500)));
    }
    return {};
}

} // namespace TrainDesk::TrainerCheck
