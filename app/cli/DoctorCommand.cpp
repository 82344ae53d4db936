// doctor [--restore]: is the database whole, and the last good copy the agent keeps; puts
// that copy back in place of a damaged database.
#include "Command.h"

#include "agent/AgentClient.h"
#include "common/DataPaths.h"
#include "store/DatabaseCheck.h"
#include "store/Store.h"

#include <QJsonObject>

namespace TrainDesk::Cli {

namespace {

QString verdict(const QString &problems)
{
    return problems.isEmpty() ? QStringLiteral("ok") : QStringLiteral("damaged (%1)").arg(problems.split(QLatin1Char('\n')).join(QStringLiteral("; ")));
}

int doctor(Context &c)
{
    const QString database = DataPaths::databasePath();
    const QString backup = DatabaseCheck::backupPath(database);
    const QStringList tables = Store::tableNames();
    const QString problems = DatabaseCheck::problemsOfFile(database, tables);
    const QDateTime backupTime = DatabaseCheck::backupTime(database);
    const QString backupProblems = backupTime.isValid() ? DatabaseCheck::problemsOfFile(backup, tables) : QString();
    const QString backupState = !backupTime.isValid()
        ? QStringLiteral("none yet (the agent makes one while it runs)")
        : QStringLiteral("%1, from %2").arg(verdict(backupProblems), backupTime.toString(Qt::ISODate));

    if (!c.args.isSet(QStringLiteral("restore"))) {
        const Table t{{"File", "Path", "State"},
                      {{QStringLiteral("database"), database, verdict(problems)},
                       {QStringLiteral("last good copy"), backup, backupState}}};
        QString text = t.render();
        if (!problems.isEmpty())
            text += backupTime.isValid() && backupProblems.isEmpty()
                ? QStringLiteral("Run 'traindesk doctor --restore' to put the last good copy back.\n")
                : QStringLiteral("No usable copy: move %1 aside to start afresh.\n").arg(database);
        c.print(QJsonObject{{"database", database}, {"databaseOk", problems.isEmpty()}, {"databaseProblems", problems},
                            {"backup", backup}, {"backupTime", backupTime.isValid() ? backupTime.toString(Qt::ISODate) : QString()},
                            {"backupOk", backupTime.isValid() && backupProblems.isEmpty()}},
                text);
        return problems.isEmpty() ? 0 : 1;
    }
    if (problems.isEmpty())
        return c.print(QJsonObject{{"database", database}, {"restored", false}},
                       QStringLiteral("%1 passes the check: nothing to restore.\n").arg(database));
    qint64 pid = 0;
    if (AgentClient::isRunning(DataPaths::dataDirectory(), &pid))
        return c.error(QStringLiteral("the agent (pid %1) has the database open: stop it first with 'traindesk agent stop', "
                                      "then run 'traindesk doctor --restore' again")
                           .arg(pid));
    const auto kept = DatabaseCheck::restoreBackup(database, tables);
    if (!kept)
        return c.error(kept.error());
    return c.print(QJsonObject{{"database", database}, {"restored", true}, {"from", backup},
                               {"backupTime", backupTime.toString(Qt::ISODate)}, {"damagedKeptAs", *kept}},
                   QStringLiteral("Restored %1 from the last good copy of %2; the damaged file is kept as %3. What changed "
                                  "after that copy (jobs, metrics) is not in it.\n")
                       .arg(database, backupTime.toString(Qt::ISODate), *kept));
}

} // namespace

QList<Command> doctorCommands()
{
    Command doctorCommand{{"doctor"},
                          "Check the database and the last good copy the agent keeps; --restore puts the copy back "
                          "in place of a damaged database.",
                          {QCommandLineOption(QStringList{"restore"},
                                              "Replace a damaged database with the last good copy (the agent "
                                              "stopped; the damaged file is kept beside it).")},
                          doctor};
    doctorCommand.opensStore = false;
    return {doctorCommand};
}

} // namespace TrainDesk::Cli
