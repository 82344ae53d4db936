#pragma once

#include <QFrame>

class QLabel;
class QPushButton;

namespace TrainDesk::Ui {

// The window's own notification area, above its views: a job's end said in the app when no
// tray or desktop notification service took it (a desktop without one left the user with
// nothing). The newest message replaces the one before; Show job selects it, × closes.
class NotificationBar : public QFrame
{
    Q_OBJECT

public:
    explicit NotificationBar(QWidget *parent = nullptr);

    void showMessage(qint64 jobId, const QString &title, const QString &text, bool failed);
    QString text() const;
    qint64 jobId() const { return m_jobId; }

Q_SIGNALS:
    void jobActivated(qint64 jobId);

private:
    QLabel *m_label;
    QPushButton *m_show;
    qint64 m_jobId = 0;
};

} // namespace TrainDesk::Ui
