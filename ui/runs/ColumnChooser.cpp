#include "ColumnChooser.h"

#include <QCheckBox>
#include <QLineEdit>
#include <QListWidget>
#include <QSignalBlocker>
#include <QVBoxLayout>

namespace TrainDesk::Ui {

ColumnChooser::ColumnChooser(QWidget *parent)
    : QWidget(parent),
      m_search(new QLineEdit(this)),
      m_hideConstant(new QCheckBox(tr("Hide settings that do not vary"), this)),
      m_list(new QListWidget(this))
{
    m_search->setObjectName(QStringLiteral("columnSearch"));
    m_search->setPlaceholderText(tr("Search columns"));
    m_search->setClearButtonEnabled(true);
    m_hideConstant->setObjectName(QStringLiteral("hideConstantSettings"));
    m_hideConstant->setToolTip(tr("Show only the settings whose value differs between the runs in the table"));
    m_list->setObjectName(QStringLiteral("columnList"));
    // About fifteen lines: a long list scrolls instead of filling the screen.
    m_list->setMinimumWidth(fontMetrics().averageCharWidth() * 28);
    m_list->setFixedHeight(fontMetrics().height() * 15);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->addWidget(m_search);
    layout->addWidget(m_hideConstant);
    layout->addWidget(m_list);
    connect(m_search, &QLineEdit::textChanged, this, &ColumnChooser::applySearch);
    connect(m_hideConstant, &QCheckBox::toggled, this, &ColumnChooser::hideConstantToggled);
    connect(m_list, &QListWidget::itemChanged, this, [this](QListWidgetItem *item) {
        Q_EMIT columnToggled(item->data(Qt::UserRole).toString(), item->checkState() == Qt::Checked);
    });
}

void ColumnChooser::setColumns(const QList<Column> &columns)
{
    const QSignalBlocker block(m_list);
    m_list->clear();
    for (const Column &c : columns) {
        auto *item = new QListWidgetItem(c.title, m_list);
        item->setData(Qt::UserRole, c.key);
        item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsUserCheckable);
        item->setCheckState(c.shown ? Qt::Checked : Qt::Unchecked);
    }
    applySearch();
}

void ColumnChooser::setHideConstant(bool on)
{
    const QSignalBlocker block(m_hideConstant);
    m_hideConstant->setChecked(on);
}

QStringList ColumnChooser::visibleKeys() const
{
    QStringList keys;
    for (int i = 0; i < m_list->count(); ++i) {
        if (!m_list->item(i)->isHidden())
            keys << m_list->item(i)->data(Qt::UserRole).toString();
    }
    return keys;
}

void ColumnChooser::applySearch()
{
    const QString text = m_search->text().trimmed();
    for (int i = 0; i < m_list->count(); ++i) {
        QListWidgetItem *item = m_list->item(i);
        item->setHidden(!text.isEmpty() && !item->text().contains(text, Qt::CaseInsensitive)
                        && !item->data(Qt::UserRole).toString().contains(text, Qt::CaseInsensitive));
    }
}

} // namespace TrainDesk::Ui
