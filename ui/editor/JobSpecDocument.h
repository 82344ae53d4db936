#pragma once

#include "ClusterHealthIssues.h"
#include "jobspec/JobSpec.h"

#include <QJsonObject>
#include <QObject>

namespace TrainDesk::Ui {

// One job.json being edited: the text as the JSON pane shows it and the values the form
// shows, kept in sync. Every change is checked at once by the core (parseJobSpec, with the
// target's context), so the issues are exactly what submit would refuse or warn about.
class JobSpecDocument : public QObject
{
    Q_OBJECT

public:
    explicit JobSpecDocument(QObject *parent = nullptr);

    // New text (the JSON pane, a template, a file): parsed and checked.
    void setText(const QByteArray &text);
    QByteArray text() const { return m_text; }

    // A form edit. `path` is as the core names fields ("properties.nodeCount"), whichever
    // shape the file has; an undefined value removes the field. The text is rewritten.
    void setValue(const QString &path, const QJsonValue &value);
    void setValues(const QList<QPair<QString, QJsonValue>> &changes);
    QJsonValue value(const QString &path) const;
    // The properties object (the whole document for a bare properties file).
    QJsonObject properties() const;

    // Where the job goes: cluster size and shares join the checks.
    void setContext(const SpecContext &context);
    const SpecContext &context() const { return m_context; }
    // The target cluster's nodes: unusable ones add warnings (clusterHealthIssues).
    void setClusterHealth(const QList<NodeHealth> &nodes);

    // False while the text is not a JSON object: the form cannot follow it then.
    bool isJsonValid() const { return m_jsonValid; }
    const ParsedJobSpec &parsed() const { return m_parsed; }
    const QList<SpecIssue> &issues() const { return m_parsed.issues; }
    bool hasErrors() const { return m_parsed.hasErrors(); }

Q_SIGNALS:
    // `fromText`: the text was given (do not write it back into the JSON pane).
    void changed(bool fromText);
    void issuesChanged();

private:
    QString documentPath(const QString &path) const;
    void check();

    QByteArray m_text;
    QJsonObject m_root;
    bool m_jsonValid = false;
    bool m_fileShape = true;
    ParsedJobSpec m_parsed;
    SpecContext m_context;
    QList<NodeHealth> m_health;
};

} // namespace TrainDesk::Ui
