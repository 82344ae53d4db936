#pragma once

#include <QStringList>
#include <QWidget>

class QCheckBox;
class QLineEdit;
class QListWidget;

namespace TrainDesk::Ui {

// The runs table's column chooser, shown inside the Columns menu (a QWidgetAction), so the
// menu stays open while columns are ticked: a search over the columns' titles, a tick per
// column and "Hide settings that do not vary".
class ColumnChooser : public QWidget
{
    Q_OBJECT

public:
    struct Column
    {
        QString key;
        QString title;
        bool shown = true;
    };

    explicit ColumnChooser(QWidget *parent = nullptr);

    // The columns offered, in order; the search typed stays.
    void setColumns(const QList<Column> &columns);
    void setHideConstant(bool on);

    QLineEdit *search() const { return m_search; }
    QCheckBox *hideConstant() const { return m_hideConstant; }
    QListWidget *list() const { return m_list; }
    // The keys of the columns the search leaves in the list.
    QStringList visibleKeys() const;

Q_SIGNALS:
    void columnToggled(const QString &key, bool shown);
    void hideConstantToggled(bool on);

private:
    void applySearch();

    QLineEdit *m_search;
    QCheckBox *m_hideConstant;
    QListWidget *m_list;
};

} // namespace TrainDesk::Ui
