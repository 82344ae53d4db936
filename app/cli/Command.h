#pragma once

#include "OutputFormat.h"
#include "common/Result.h"
#include "transport/TransferOptions.h"
#include "store/Entities.h"

#include <QCommandLineOption>
#include <QCommandLineParser>
#include <QJsonValue>
#include <QTextStream>

#include <functional>

namespace TrainDesk {
class Store;
}

namespace TrainDesk::Cli {

// The experiment -w and -e name, with its workspace, and the name an option gives: what a
// command about one job or sweep looks up first.
struct NamedInExperiment
{
    Workspace workspace;
    Experiment experiment;
    QString name;
};

// What a command handler gets: its parsed options, the store, and the two streams.
class Context
{
public:
    Context(QCommandLineParser &args, Store &store, QTextStream &out, QTextStream &err)
        : args(args), store(store), out(out), err(err) {}

    QCommandLineParser &args;
    Store &store;
    QTextStream &out;
    QTextStream &err;

    bool json() const { return args.value(QStringLiteral("output")) == QLatin1String("json"); }
    // Whether print() will use its JSON (-o json or a --query): lists build it only then.
    bool printsJson() const { return json() || args.optionNames().contains(QStringLiteral("query")); }
    QString workspaceName() const;
    // The option's value, or a failure naming the missing option.
    Result<QString> required(const QString &option) const;

    Result<Workspace> workspace() const;
    Result<Experiment> experiment() const;  // -w and -e
    Result<NamedInExperiment> namedInExperiment(const QString &option) const;  // -w, -e and `option`

    // Prints `json` with -o json, else `table`; returns 0. With --query, only the part of
    // `json` it names (a string bare unless -o json), or an error.
    int print(const QJsonValue &json, const Table &table);
    int print(const QJsonValue &json, const QString &text);
    // Prints "error: <message>" on stderr; returns 1.
    int error(const QString &message);
};

struct Command
{
    QStringList path;  // e.g. {"job", "file", "stream"}
    QString summary;
    QList<QCommandLineOption> options;
    std::function<int(Context &)> run;
    // false: the command works on the database file itself (doctor), so it is not opened.
    bool opensStore = true;
    // The one word the command takes after its options (`runs import DIR`); empty: none.
    QString argument = {};
};

// While one lives, Ctrl-C cancels `flag`: a remote command ends (its whole process group
// too) or a transfer stops, and the call returns, so that what happened is recorded. A
// second Ctrl-C ends TrainDesk at once.
class CancelOnInterrupt
{
public:
    explicit CancelOnInterrupt(CancelFlag &flag);
    ~CancelOnInterrupt();
    CancelOnInterrupt(const CancelOnInterrupt &) = delete;
    CancelOnInterrupt &operator=(const CancelOnInterrupt &) = delete;

private:
    void (*m_previous)(int) = nullptr;
};

// Options shared by many commands.
// An option with a value when `value` names it (e.g. "NAME"), a flag otherwise.
QCommandLineOption option(const QStringList &names, const QString &description, const QString &value = {});
QCommandLineOption workspaceOption();
QCommandLineOption experimentOption();
QCommandLineOption nameOption(const QString &what);
// The name of the command's own object under both spellings users of `az batchai` meet:
// -n/--name and the letter other commands give that kind of object (-w, -e, -c, -j, -s),
// e.g. `cluster show -n C` and `cluster show -c C`. Read it as "name".
QCommandLineOption nameOption(const QString &what, const QString &letter, const QString &longName);
QCommandLineOption queryOption();
QCommandLineOption clusterOption();
QCommandLineOption fileOption(const QString &description);
// The job.json that -f names (`job create`, `job validate`, `sweep create`, ...), refused
// when missing or larger than a job.json may be.
Result<QByteArray> readSpecFile(Context &c);

QList<Command> workspaceCommands();
QList<Command> clusterCommands();
QList<Command> jobCommands();
QList<Command> shareCommands();
QList<Command> agentCommands();
QList<Command> dataCommands();
QList<Command> doctorCommands();
QList<Command> runsCommands();

// Starts the agent when none runs and asks it to look at the jobs now (after a job was
// queued, a draft started, or a cluster changed).
VoidResult wakeAgent();
// Starts the agent when none runs, without asking it anything: what a read needs (`job show`
// must not wait out a tick that waits on an unreachable node).
VoidResult ensureAgentRuns();

} // namespace TrainDesk::Cli
