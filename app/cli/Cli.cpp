#include "Cli.h"

#include "Command.h"
#include "SweepCommands.h"

#include "cluster/ImportedRunNodes.h"
#include "common/DataDirectoryCheck.h"
#include "common/DataPaths.h"
#include "defaults/EmbeddedDefaults.h"
#include "store/Store.h"

#include <QCoreApplication>
#include <QTextStream>

namespace TrainDesk::Cli {

namespace {

QList<Command> allCommands()
{
    return workspaceCommands() + clusterCommands() + shareCommands() + jobCommands() + sweepCommands() + agentCommands()
        + dataCommands() + doctorCommands() + runsCommands();
}

// One line per command: its words, then its summary.
QString commandLines(const QList<Command> &commands)
{
    QString text;
    for (const Command &c : commands)
        text += QStringLiteral("  %1%2\n").arg(c.path.join(QLatin1Char(' ')).leftJustified(26), c.summary);
    return text;
}

QString usage(const QList<Command> &commands)
{
    QString text = QStringLiteral(
        "Usage: traindesk                 open the desktop app\n"
        "       traindesk COMMAND [OPTIONS] [-o table|json]\n\nCommands:\n");
    text += commandLines(commands);
    text += QStringLiteral("\nRun 'traindesk COMMAND --help' for a command's options.\n"
                           "The data directory is $TRAINDESK_HOME when set.\n");
    return text;
}

// The commands whose words start with `group` ("job", "cluster node"): a group of commands.
QList<Command> commandsIn(const QList<Command> &commands, const QStringList &group)
{
    QList<Command> in;
    for (const Command &c : commands) {
        if (c.path.size() > group.size() && c.path.mid(0, group.size()) == group)
            in << c;
    }
    return in;
}

// `traindesk job` (or `traindesk cluster node --help`) lists that group's commands, as
// `az batchai job` does, instead of every command.
QString groupUsage(const QList<Command> &commands, const QStringList &group)
{
    const QString name = group.join(QLatin1Char(' '));
    QString text = QStringLiteral("Usage: traindesk %1 COMMAND [OPTIONS] [-o table|json]\n\nCommands:\n").arg(name);
    text += commandLines(commandsIn(commands, group));
    text += QStringLiteral("\nRun 'traindesk %1 COMMAND --help' for a command's options.\n").arg(name);
    return text;
}

// No command named by `words`: the group they name (help, exit 0), or the group their first
// words name, or every command, after the error.
int answerUnknown(const QList<Command> &commands, const QStringList &words, const QStringList &arguments,
                  QTextStream &out, QTextStream &err)
{
    QStringList group = words;
    while (!group.isEmpty() && commandsIn(commands, group).isEmpty())
        group.removeLast();
    const QStringList rest = arguments.mid(words.size());
    const bool askedForHelp = rest.isEmpty() || rest == QStringList{QStringLiteral("--help")}
        || rest == QStringList{QStringLiteral("-h")};
    if (!group.isEmpty() && group == words && askedForHelp) {
        out << groupUsage(commands, group);
        return 0;
    }
    if (!group.isEmpty() && group == words)
        err << "error: 'traindesk " << group.join(QLatin1Char(' ')) << "' needs one of its commands\n";
    else
        err << "error: unknown command '" << words.join(QLatin1Char(' ')) << "'\n";
    err << (group.isEmpty() ? usage(commands) : groupUsage(commands, group));
    return 2;
}

// QCommandLineParser names the program as it was started ("Usage: /usr/bin/traindesk
// [options]"); a subcommand's help names the command to type instead.
QString helpText(const QCommandLineParser &parser, const Command &command)
{
    QString text = parser.helpText();
    const qsizetype lineEnd = text.indexOf(QLatin1Char('\n'));
    const QString usageLine = QStringLiteral("Usage: traindesk %1 [options]%2").arg(command.path.join(QLatin1Char(' ')), command.argument.isEmpty() ? QString() : QStringLiteral(" ") + command.argument);
    if (text.startsWith(QLatin1String("Usage: ")) && lineEnd > 0)
        text.replace(0, lineEnd, usageLine);
    return text;
}

// An option with two spellings (-n and -c for a cluster's name) given twice with
// different values: which one was meant is unknown.
QString conflictingAliases(const QCommandLineParser &parser, const Command &command)
{
    for (const QCommandLineOption &option : command.options) {
        if (option.names().size() < 3 || option.valueName().isEmpty())
            continue;
        QStringList values = parser.values(option.names().first());
        values.removeDuplicates();
        if (values.size() > 1) {
            QStringList spellings;
            for (const QString &name : option.names())
                spellings << (name.size() == 1 ? QStringLiteral("-") : QStringLiteral("--")) + name;
            return QStringLiteral("%1 name the same thing; give one value, not '%2'")
                .arg(spellings.join(QStringLiteral(", ")), values.join(QStringLiteral("' and '")));
        }
    }
    return {};
}

} // namespace

int run(const QStringList &arguments)
{
    // Runs imported from a node's folder are read there by every command (export, metrics).
    ImportedRunNodes::install();
    QTextStream out(stdout);
    QTextStream err(stderr);
    const QList<Command> commands = allCommands();

    // The command is the longest run of leading words that names one.
    QStringList words;
    for (const QString &a : arguments) {
        if (a.startsWith(QLatin1Char('-')))
            break;
        words << a;
    }
    const Command *command = nullptr;
    for (const Command &c : commands) {
        if (words.mid(0, c.path.size()) == c.path && (!command || c.path.size() > command->path.size()))
            command = &c;
    }
    if (!command) {
        if (!arguments.isEmpty() && arguments.first() == QLatin1String("--version")) {
            out << "traindesk " << QCoreApplication::applicationVersion() << '\n';
            return 0;
        }
        // `traindesk help job create` is `traindesk job create --help` (as git help does).
        if (arguments.size() > 1 && arguments.first() == QLatin1String("help"))
            return run(arguments.mid(1) + QStringList{QStringLiteral("--help")});
        if (arguments.isEmpty() || arguments.first() == QLatin1String("--help") || arguments.first() == QLatin1String("-h")
            || arguments.first() == QLatin1String("help")) {
            out << usage(commands);
            return 0;
        }
        return answerUnknown(commands, words, arguments, out, err);
    }

    QCommandLineParser parser;
    parser.setApplicationDescription(command->summary);
    parser.addOptions(command->options);
    parser.addOption({{QStringLiteral("o"), QStringLiteral("output")}, QStringLiteral("Output format: table or json."),
                      QStringLiteral("FORMAT"), QStringLiteral("table")});
    const QCommandLineOption help({QStringLiteral("h"), QStringLiteral("help")}, QStringLiteral("Show this help."));
    parser.addOption(help);
    QStringList toParse{QStringLiteral("traindesk")};
    toParse += arguments.mid(command->path.size());
    const QString commandName = command->path.join(QLatin1Char(' '));
    if (!parser.parse(toParse)) {
        err << "error: " << parser.errorText() << " See 'traindesk " << commandName << " --help'.\n";
        return 2;
    }
    if (parser.isSet(help)) {
        out << helpText(parser, *command);
        return 0;
    }
    if (const QString conflict = conflictingAliases(parser, *command); !conflict.isEmpty()) {
        err << "error: " << conflict << '\n';
        return 2;
    }
    if (parser.positionalArguments().size() > (command->argument.isEmpty() ? 0 : 1)) {
        err << "error: unexpected argument '" << parser.positionalArguments().last() << "'\n";
        return 2;
    }
    const QString format = parser.value(QStringLiteral("output"));
    if (format != QLatin1String("table") && format != QLatin1String("json")) {
        err << "error: --output: expected table or json, found '" << format << "'\n";
        return 2;
    }

    // Another user's (or a writable) data directory would let them act as this user.
    if (auto safe = DataDirectoryCheck::verify(DataPaths::dataDirectory()); !safe) {
        err << "error: " << safe.error() << '\n';
        return 1;
    }
    Store store;
    if (!command->opensStore) {
        Context context(parser, store, out, err);
        return command->run(context);
    }
    if (auto opened = store.open(DataPaths::databasePath()); !opened) {
        err << "error: " << opened.error() << '\n';
        return 1;
    }
    if (auto ensured = EmbeddedDefaults::ensure(store); !ensured) {
        err << "error: " << ensured.error() << '\n';
        return 1;
    }
    Context context(parser, store, out, err);
    return command->run(context);
}

} // namespace TrainDesk::Cli
