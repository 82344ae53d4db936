#include "RunParameters.h"

#include <QJsonDocument>
#include <QJsonObject>

namespace TrainDesk::RunParameters {

namespace {

const char *const toolkits[] = {"customMpiSettings", "customToolkitSettings", "horovodSettings", "pyTorchSettings",
                                "tensorFlowSettings", "cntkSettings", "caffeSettings", "caffe2Settings",
                                "chainerSettings"};

QJsonObject propertiesOf(const QByteArray &spec)
{
    const QJsonObject root = QJsonDocument::fromJson(spec).object();
    // job.json files have "properties"; bare ones (the CLI accepts them) have the fields at the top.
    return root.contains(QLatin1String("properties")) ? root.value(QLatin1String("properties")).toObject() : root;
}

// The words of a command line as sh splits them: quotes ('...' literal, "..." with
// backslash escapes) and backslashes; variables stay as written.
QStringList shellWords(const QString &line)
{
    QStringList words;
    QString word;
    bool inWord = false;
    QChar quote;
    for (qsizetype i = 0; i < line.size(); ++i) {
        const QChar c = line.at(i);
        if (!quote.isNull()) {
            if (c == quote)
                quote = QChar();
            else if (c == QLatin1Char('\\') && quote == QLatin1Char('"') && i + 1 < line.size())
                word += line.at(++i);
            else
                word += c;
        } else if (c == QLatin1Char('\'') || c == QLatin1Char('"')) {
            quote = c;
            inWord = true;
        } else if (c == QLatin1Char('\\') && i + 1 < line.size()) {
            word += line.at(++i);
            inWord = true;
        } else if (c.isSpace()) {
            if (inWord)
                words << word;
            word.clear();
            inWord = false;
        } else {
            word += c;
            inWord = true;
        }
    }
    if (inWord)
        words << word;
    return words;
}

bool isOption(const QString &word)
{
    return word.startsWith(QLatin1String("--")) && word.size() > 2;
}

} // namespace

QString commandLineOf(const QByteArray &spec)
{
    const QJsonObject properties = propertiesOf(spec);
    for (const char *name : toolkits) {
        const QJsonObject toolkit = properties.value(QLatin1String(name)).toObject();
        if (toolkit.isEmpty())
            continue;
        if (toolkit.contains(QLatin1String("commandLine")))
            return toolkit.value(QLatin1String("commandLine")).toString();
        const QString script = toolkit.value(QLatin1String("pythonScriptFilePath")).toString();
        QString args = toolkit.value(QLatin1String("commandLineArgs")).toString();
        if (args.isEmpty())
            args = toolkit.value(QLatin1String("masterCommandLineArgs")).toString();
        return (script + QLatin1Char(' ') + args).trimmed();
    }
    return {};
}

QMap<QString, QString> fromCommandLine(const QString &commandLine)
{
    QMap<QString, QString> parameters;
    const QStringList words = shellWords(commandLine);
    for (qsizetype i = 0; i < words.size(); ++i) {
        if (!isOption(words.at(i)))
            continue;
        QString name = words.at(i).mid(2);
        QString value = QStringLiteral("true");
        if (const qsizetype eq = name.indexOf(QLatin1Char('=')); eq > 0) {
            value = name.mid(eq + 1);
            name = name.left(eq);
        } else if (i + 1 < words.size() && !isOption(words.at(i + 1))) {
            value = words.at(++i);
        }
        if (value.contains(QLatin1Char('/')) || value.contains(QLatin1Char('$')))
            continue;
        parameters.insert(name, value);
    }
    return parameters;
}

Shape shapeOf(const QByteArray &spec)
{
    const QJsonObject properties = propertiesOf(spec);
    Shape shape;
    shape.nodes = qMax(1, properties.value(QLatin1String("nodeCount")).toInt(1));
    shape.processes = shape.nodes;
    for (const char *name : toolkits) {
        const QJsonObject toolkit = properties.value(QLatin1String(name)).toObject();
        if (toolkit.contains(QLatin1String("processCount")))
            shape.processes = qMax(1, toolkit.value(QLatin1String("processCount")).toInt(shape.nodes));
    }
    return shape;
}

} // namespace TrainDesk::RunParameters
