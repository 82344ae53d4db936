#pragma once

#include <QJsonArray>
#include <QWidget>

class QPushButton;
class QTableWidget;

namespace TrainDesk::Ui {

// An array of flat JSON objects as an editable table (output directories, environment
// variables): one column per member, Add and Remove. Members the table has no column for
// are kept. Empty optional cells leave their member out.
class JsonArrayTable : public QWidget
{
    Q_OBJECT

public:
    struct Column
    {
        QString key;
        QString title;
        bool required = false;
        QString placeholder;  // a tooltip for the column: what goes there
    };

    JsonArrayTable(const QList<Column> &columns, QWidget *parent = nullptr);

    void setArray(const QJsonArray &array);  // does not emit edited()
    QJsonArray array() const { return m_array; }
    // Selects the cell of element `row`, member `key` (or the row), and focuses the table.
    void focusCell(int row, const QString &key);

    QTableWidget *table() const { return m_table; }
    QPushButton *addButton() const { return m_add; }
    QPushButton *removeButton() const { return m_remove; }

Q_SIGNALS:
    void edited(const QJsonArray &array);

private:
    void rebuild();
    void onCellChanged(int row, int column);

    QList<Column> m_columns;
    QJsonArray m_array;
    QTableWidget *m_table;
    QPushButton *m_add;
    QPushButton *m_remove;
    bool m_updating = false;
};

} // namespace TrainDesk::Ui
