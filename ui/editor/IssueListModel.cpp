#include "IssueListModel.h"

#include <QApplication>
#include <QStyle>

#include <algorithm>

namespace TrainDesk::Ui {

namespace {

bool sameIssues(const QList<SpecIssue> &a, const QList<SpecIssue> &b)
{
    if (a.size() != b.size())
        return false;
    for (qsizetype i = 0; i < a.size(); ++i) {
        if (a[i].severity != b[i].severity || a[i].path != b[i].path || a[i].message != b[i].message
            || a[i].line != b[i].line || a[i].column != b[i].column)
            return false;
    }
    return true;
}

} // namespace

IssueListModel::IssueListModel(QObject *parent) : QAbstractListModel(parent) {}

void IssueListModel::setIssues(const QList<SpecIssue> &issues)
{
    // Typing re-checks on every key: an unchanged list keeps the view's current row.
    if (sameIssues(issues, m_issues))
        return;
    beginResetModel();
    m_issues = issues;
    endResetModel();
}

int IssueListModel::errorCount() const
{
    return int(std::count_if(m_issues.cbegin(), m_issues.cend(),
                             [](const SpecIssue &i) { return i.severity == SpecIssue::Severity::Error; }));
}

int IssueListModel::warningCount() const
{
    return int(m_issues.size()) - errorCount();
}

int IssueListModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_issues.size());
}

QVariant IssueListModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const SpecIssue &issue = m_issues.at(index.row());
    const bool error = issue.severity == SpecIssue::Severity::Error;
    switch (role) {
    case Qt::DisplayRole: {
        const QString where = issue.line > 0 ? tr("line %1: ").arg(issue.line) : QString();
        return where + issue.path + QStringLiteral(": ") + issue.message;
    }
    case Qt::ToolTipRole:
        return issue.text() + tr("\nClick (or press Enter) to go to the field or the line.");
    case Qt::DecorationRole:
        if (auto *app = qobject_cast<QApplication *>(QCoreApplication::instance()))
            return app->style()->standardIcon(error ? QStyle::SP_MessageBoxCritical : QStyle::SP_MessageBoxWarning);
        return {};
    case PathRole:
        return issue.path;
    case LineRole:
        return issue.line;
    case ColumnRole:
        return issue.column;
    case IsErrorRole:
        return error;
    default:
        return {};
    }
}

} // namespace TrainDesk::Ui
