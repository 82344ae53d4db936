#pragma once

#include "jobspec/JobSpec.h"

#include <QAbstractListModel>

namespace TrainDesk::Ui {

// The core's issues with a job.json, one row each: "line 7: path: message", an error or
// warning icon, and roles that lead to the field and the line.
class IssueListModel : public QAbstractListModel
{
    Q_OBJECT

public:
    enum Role { PathRole = Qt::UserRole + 1, LineRole, ColumnRole, IsErrorRole };

    explicit IssueListModel(QObject *parent = nullptr);

    void setIssues(const QList<SpecIssue> &issues);
    const QList<SpecIssue> &issues() const { return m_issues; }
    int errorCount() const;
    int warningCount() const;

    int rowCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;

private:
    QList<SpecIssue> m_issues;
};

} // namespace TrainDesk::Ui
