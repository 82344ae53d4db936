#pragma once

#include <QObject>

namespace TrainDesk::Ui {

// Shows the whole text of an item view's cell as its tooltip when the cell is too narrow
// for it (the view draws it elided "..."), for every item view of the application: the
// resource tree's job names, output directories, check details. A cell with a tooltip of
// its own keeps it. Installed once on the application (runMainWindow).
class ElidedToolTips : public QObject
{
    Q_OBJECT

public:
    using QObject::QObject;
    static void install();

    bool eventFilter(QObject *watched, QEvent *event) override;
};

} // namespace TrainDesk::Ui
