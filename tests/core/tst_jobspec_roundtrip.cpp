// The job.json table (core/jobspec/JobSpecFields.cpp) and the round trip it drives: every
// spec of the corpus (tests/data/specs, valid and invalid) read, written and read again is
// the same spec, member for member; every field of the table is read, written and known.
#include "jobspec/JobSpec.h"
#include "jobspec/JobSpecFields.h"
#include "jobspec/JobSpecValidator.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSet>
#include <QTest>

using namespace TrainDesk;

namespace {

QByteArray readFile(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        qFatal("cannot read %s", qPrintable(path));
    return f.readAll();
}

// A value of the field's type that its rules accept.
QJsonValue sample(const FieldRow &row)
{
    switch (row.type) {
    case FieldType::String:
        return row.info.allowed.isEmpty() ? QJsonValue(QStringLiteral("/x")) : QJsonValue(row.info.allowed.first());
    case FieldType::Integer: return row.info.minimum;
    case FieldType::Boolean: return true;
    case FieldType::IntegerList: return QJsonArray{row.info.minimum};
    case FieldType::Object: return QJsonObject{};
    case FieldType::ObjectList: return QJsonArray{QJsonObject{}};
    }
    return {};
}

// `value` at `path` ("a.b[].c": [] is the first element) inside `object`.
QJsonObject withValue(QJsonObject object, const QStringList &parts, const QJsonValue &value)
{
    QString key = parts.first();
    if (parts.size() == 1) {
        object.insert(key, value);
        return object;
    }
    if (key.endsWith(QLatin1String("[]"))) {
        key.chop(2);
        QJsonArray array = object.value(key).toArray();
        const QJsonObject item = withValue(array.isEmpty() ? QJsonObject() : array.first().toObject(), parts.mid(1), value);
        object.insert(key, QJsonArray{item});
    } else {
        object.insert(key, withValue(object.value(key).toObject(), parts.mid(1), value));
    }
    return object;
}

QJsonValue valueAt(const QJsonObject &object, const QStringList &parts)
{
    QString key = parts.first();
    const bool element = key.endsWith(QLatin1String("[]"));
    if (element)
        key.chop(2);
    QJsonValue v = object.value(key);
    if (element)
        v = v.toArray().first();
    return parts.size() == 1 ? v : valueAt(v.toObject(), parts.mid(1));
}

// The spec without what is only a record of the input (the properties object as read).
JobSpec meaning(JobSpec spec)
{
    spec.properties = {};
    return spec;
}

} // namespace

class TestJobSpecRoundTrip : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void corpus_data()
    {
        QTest::addColumn<QString>("file");
        int rows = 0;
        for (const QString &kind : {QStringLiteral("valid"), QStringLiteral("invalid")}) {
            const QDir dir(QStringLiteral(TRAINDESK_TEST_DATA "/specs/") + kind);
            for (const QString &name : dir.entryList({"*.json"}, QDir::Files, QDir::Name)) {
                QTest::newRow(qPrintable(kind + "/" + name)) << dir.filePath(name);
                ++rows;
            }
        }
        QVERIFY2(rows >= 60, qPrintable(QString::number(rows)));
    }

    // Read, write, read: the same spec. Invalid specs too: what was read of them (a field of
    // the wrong type is dropped, a missing required one is empty) is written and read back.
    // Files that are not JSON are skipped: nothing of them is read.
    void corpus()
    {
        QFETCH(QString, file);
        const QByteArray text = readFile(file);
        QJsonParseError error;
        QJsonDocument::fromJson(text, &error);
        if (error.error != QJsonParseError::NoError)
            QSKIP("not JSON: nothing was read to write back");
        const ParsedJobSpec first = parseJobSpec(text);
        const QByteArray written = writeJobSpec(first.spec);
        const ParsedJobSpec second = parseJobSpec(written);
        QVERIFY2(meaning(second.spec) == meaning(first.spec),
                 qPrintable("specs differ; written:\n" + QString::fromUtf8(written) + "\nwritten again:\n"
                            + QString::fromUtf8(writeJobSpec(second.spec))));
        QCOMPARE(writeJobSpec(second.spec), written);
        if (!first.hasErrors()) {
            // A valid file comes back whole: the object as read is the object written.
            QCOMPARE(second.spec.properties, first.spec.properties);
            QVERIFY(second.spec == first.spec);
        }
    }

    // Every field of the table, alone in a spec: known to the reader (no "unknown field", no
    // type error), written back with its value.
    void everyFieldIsReadAndWritten_data()
    {
        QTest::addColumn<QString>("path");
        for (const FieldRow &row : jobSpecFields())
            QTest::newRow(qPrintable(row.path)) << row.path;
    }

    void everyFieldIsReadAndWritten()
    {
        QFETCH(QString, path);
        const FieldRow *row = jobSpecField(path);
        QVERIFY(row);
        const QStringList parts = path.split(QLatin1Char('.'));
        const QJsonValue value = sample(*row);
        const QJsonObject properties = withValue({}, parts, value);
        const ParsedJobSpec parsed = parseJobSpec(QJsonDocument(properties).toJson());
        const QString at = QStringLiteral("properties.") + QString(path).replace(QLatin1String("[]"), QLatin1String("[0]"));
        for (const SpecIssue &issue : parsed.issues) {
            QVERIFY2(!(issue.path == at && issue.message.startsWith(QLatin1String("unknown field"))), qPrintable(issue.text()));
            QVERIFY2(!(issue.path == at && issue.message.startsWith(QLatin1String("expected a"))
                       && issue.message.contains(QLatin1String(", found a"))),
                     qPrintable(issue.text()));
        }
        const QJsonValue written = valueAt(jobSpecProperties(parsed.spec), parts);
        if (row->type == FieldType::Object)
            QVERIFY(written.isObject());  // with its required members, empty
        else if (row->type == FieldType::ObjectList)
            QVERIFY(written.isArray() && written.toArray().size() == 1 && written.toArray().first().isObject());
        else
            QCOMPARE(written, value);
    }

    void tableDescribesEachFieldOnce()
    {
        QSet<QString> paths;
        for (const FieldRow &row : jobSpecFields()) {
            QVERIFY2(!paths.contains(row.path), qPrintable(row.path));
            paths.insert(row.path);
            QVERIFY2(!row.info.help.isEmpty(), qPrintable(row.path + ": no help"));
            QVERIFY2(row.path.endsWith(row.info.key), qPrintable(row.path));
        }
        // The toolkit column: the fields inside a toolkit's settings, and only those.
        QVERIFY(jobSpecField("pyTorchSettings.processCount")->toolkit == Toolkit::PyTorch);
        QVERIFY(jobSpecField("customMpiSettings.commandLine")->toolkit == Toolkit::CustomMpi);
        QVERIFY(jobSpecField("jobPreparation.commandLine")->toolkit == Toolkit::None);
        QVERIFY(jobSpecField("nodeCount")->type == FieldType::Integer);
        QVERIFY(jobSpecField("nodeCount")->required);
        QVERIFY(jobSpecField("pyTorchSettings.pythonScriptFilePath")->required);
        QVERIFY(!jobSpecField("cntkSettings.pythonScriptFilePath")->required);
        QVERIFY(jobSpecField("mountVolumes.azureFileShares[].fileMode")->type == FieldType::String);
        QCOMPARE(jobSpecField("constraints.retryOnExitCodes")->info.maximum, 255);
        // One entry per toolkit, each a settings member of the table, named as the core names it.
        QCOMPARE(toolkitKeys().size(), toolkitEntries().size());
        for (const ToolkitEntry &t : toolkitEntries()) {
            QCOMPARE(toString(t.toolkit), t.key);
            QVERIFY2(jobSpecField(t.key) && jobSpecField(t.key)->type == FieldType::Object, qPrintable(t.key));
        }
    }

    // A rule of the table is applied wherever its field is: the shared script rule names each
    // toolkit's own path.
    void rulesApplyWhereTheFieldIs()
    {
        const ParsedJobSpec parsed = parseJobSpec(R"({"nodeCount": 1, "stdOutErrPathPrefix": "/x",
            "chainerSettings": {"pythonScriptFilePath": " ", "commandLineArgs": "--data <DATA_DIR>"}})");
        QStringList texts;
        for (const SpecIssue &i : parsed.issues)
            texts << i.path + ": " + i.message;
        QVERIFY2(texts.contains("properties.chainerSettings.pythonScriptFilePath: expected the path of a Python script, "
                                "found an empty string"),
                 qPrintable(texts.join('\n')));
        QVERIFY2(texts.contains("properties.chainerSettings.commandLineArgs: contains the placeholder <DATA_DIR>, which "
                                "TrainDesk does not fill in; replace it before submitting"),
                 qPrintable(texts.join('\n')));
    }
};

QTEST_GUILESS_MAIN(TestJobSpecRoundTrip)
#include "tst_jobspec_roundtrip.moc"
