#pragma once

// The job.json fields, described once (JobSpecFields.cpp holds the table). The reader, the
// writer, the validator's per-field checks and the job form are driven from it: a new field
// is a member of its struct in JobSpecModel.h, one entry in the table, and its launch code.

#include "JobSpecModel.h"

#include <QList>
#include <QString>
#include <QStringList>

namespace TrainDesk {

// What one field is and how it is checked beyond its type. The reader checks the type (from
// the model member), required fields and the integer range; the validator the rest.
struct FieldInfo
{
    QString key;               // the JSON member
    QString help;              // one line: the form's tooltip, the docs
    QString defaultText;       // what holds when the field is absent ("" when nothing does)
    int minimum = 0;           // integers, and each integer of an array of them
    int maximum = 1000000;
    QString nonEmpty;          // when given empty: "expected <nonEmpty>, found an empty string"
    bool jobPath = false;      // an absolute path, or one under a mount root
    QStringList allowed;       // one of these
    Qt::CaseSensitivity allowedCase = Qt::CaseSensitive;
    bool placeholders = false; // warn about a <PLACEHOLDER> left in it
    bool extension = false;    // TrainDesk's, not in Batch AI's 2018-05-01 schema (a warning says so)
};

// The JSON type of a field, from its model member (std::optional: not required).
enum class FieldType { String, Integer, Boolean, IntegerList, Object, ObjectList };
QString toString(FieldType type);

// One row of the table: a field and where it sits.
struct FieldRow
{
    QString path;        // under properties: "pyTorchSettings.processCount", "secrets[].name"
    Toolkit toolkit = Toolkit::None;  // the toolkit whose settings hold it
    FieldType type = FieldType::String;
    bool required = false;
    FieldInfo info;
};

// Every field of a job.json, objects before their members, in the reader's order.
const QList<FieldRow> &jobSpecFields();
// The row of `path` (as in FieldRow::path), or null when the table has none.
const FieldRow *jobSpecField(const QString &path);

// The toolkits a job names one of, in the schema's order.
struct ToolkitEntry
{
    Toolkit toolkit;
    QString key;   // the member of properties, e.g. "pyTorchSettings"
    QString name;  // e.g. "PyTorch"
    QString help;  // how a job of it starts
};
const QList<ToolkitEntry> &toolkitEntries();
const ToolkitEntry *toolkitEntry(const QString &key);

} // namespace TrainDesk
