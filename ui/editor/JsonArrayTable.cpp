#include "JsonArrayTable.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonDocument>
#include <QJsonObject>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

namespace TrainDesk::Ui {

namespace {

// A cell shows a string as it is and anything else as JSON (which the core then reports).
QString textOf(const QJsonValue &v)
{
    if (v.isString())
        return v.toString();
    if (v.isUndefined() || v.isNull())
        return {};
    const QByteArray wrapped = QJsonDocument(QJsonArray{v}).toJson(QJsonDocument::Compact);
    return QString::fromUtf8(wrapped.mid(1, wrapped.size() - 2));
}

} // namespace

JsonArrayTable::JsonArrayTable(const QList<Column> &columns, QWidget *parent)
    : QWidget(parent),
      m_columns(columns),
      m_table(new QTableWidget(0, int(columns.size()), this)),
      m_add(new QPushButton(tr("Add"), this)),
      m_remove(new QPushButton(tr("Remove"), this))
{
    QStringList titles;
    for (const Column &c : columns)
        titles << (c.required ? c.title + QLatin1Char('*') : c.title);
    m_table->setHorizontalHeaderLabels(titles);
    for (int i = 0; i < columns.size(); ++i) {
        if (auto *header = m_table->horizontalHeaderItem(i))
            header->setToolTip(columns[i].placeholder);
    }
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->verticalHeader()->setVisible(false);
    m_table->setSelectionBehavior(QAbstractItemView::SelectItems);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    // Tab leaves the table (to Add and on) instead of walking its cells.
    m_table->setTabKeyNavigation(false);
    m_table->setMinimumHeight(72);
    m_table->setMaximumHeight(110);
    m_remove->setEnabled(false);

    auto *buttons = new QVBoxLayout;
    buttons->addWidget(m_add);
    buttons->addWidget(m_remove);
    buttons->addStretch();
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_table, 1);
    layout->addLayout(buttons);

    connect(m_table, &QTableWidget::cellChanged, this, &JsonArrayTable::onCellChanged);
    connect(m_table, &QTableWidget::itemSelectionChanged, this,
            [this] { m_remove->setEnabled(m_table->currentRow() >= 0 && !m_table->selectedItems().isEmpty()); });
    connect(m_add, &QPushButton::clicked, this, [this] {
        QJsonObject element;
        for (const Column &c : std::as_const(m_columns)) {
            if (c.required)
                element.insert(c.key, QString());
        }
        m_array.append(element);
        rebuild();
        Q_EMIT edited(m_array);
        focusCell(int(m_array.size()) - 1, m_columns.value(0).key);
        m_table->editItem(m_table->currentItem());
    });
    connect(m_remove, &QPushButton::clicked, this, [this] {
        const int row = m_table->currentRow();
        if (row < 0 || row >= m_array.size())
            return;
        m_array.removeAt(row);
        rebuild();
        Q_EMIT edited(m_array);
    });
}

void JsonArrayTable::setArray(const QJsonArray &array)
{
    if (array == m_array && m_table->rowCount() == array.size())
        return;  // unchanged: leave the cell being edited alone
    m_array = array;
    rebuild();
}

void JsonArrayTable::rebuild()
{
    m_updating = true;
    const int currentRow = m_table->currentRow();
    const int currentColumn = m_table->currentColumn();
    m_table->setRowCount(int(m_array.size()));
    for (int r = 0; r < m_array.size(); ++r) {
        const QJsonObject element = m_array.at(r).toObject();
        for (int c = 0; c < m_columns.size(); ++c) {
            const QString text = textOf(element.value(m_columns[c].key));
            auto *item = m_table->item(r, c);
            if (!item) {
                item = new QTableWidgetItem;
                m_table->setItem(r, c, item);
            }
            if (item->text() != text)
                item->setText(text);
            item->setToolTip(m_columns[c].placeholder);
        }
    }
    if (currentRow >= 0 && currentRow < m_table->rowCount())
        m_table->setCurrentCell(currentRow, currentColumn);
    m_remove->setEnabled(m_table->currentRow() >= 0 && m_table->rowCount() > 0);
    m_updating = false;
}

void JsonArrayTable::onCellChanged(int row, int column)
{
    if (m_updating || row >= m_array.size() || column >= m_columns.size())
        return;
    const Column &c = m_columns.at(column);
    QJsonObject element = m_array.at(row).toObject();
    const QString text = m_table->item(row, column)->text();
    if (text.isEmpty() && !c.required)
        element.remove(c.key);
    else
        element.insert(c.key, text);
    m_array.replace(row, element);
    Q_EMIT edited(m_array);
}

void JsonArrayTable::focusCell(int row, const QString &key)
{
    int column = 0;
    for (int c = 0; c < m_columns.size(); ++c) {
        if (m_columns[c].key == key)
            column = c;
    }
    m_table->setFocus(Qt::OtherFocusReason);
    if (row >= 0 && row < m_table->rowCount())
        m_table->setCurrentCell(row, column);
}

} // namespace TrainDesk::Ui
