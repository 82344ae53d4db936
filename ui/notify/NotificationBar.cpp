#include "NotificationBar.h"

#include "common/ErrorText.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QToolButton>

namespace TrainDesk::Ui {

NotificationBar::NotificationBar(QWidget *parent)
    : QFrame(parent), m_label(new QLabel(this)), m_show(new QPushButton(tr("Show job"), this))
{
    setObjectName(QStringLiteral("notificationBar"));
    setFrameShape(QFrame::StyledPanel);
    setAutoFillBackground(true);
    setBackgroundRole(QPalette::AlternateBase);
    m_label->setWordWrap(true);
    m_label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto *close = new QToolButton(this);
    close->setText(QStringLiteral("×"));
    close->setAutoRaise(true);
    close->setToolTip(tr("Close this message"));
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(8, 4, 4, 4);
    layout->addWidget(m_label, 1);
    layout->addWidget(m_show);
    layout->addWidget(close);
    connect(m_show, &QPushButton::clicked, this, [this] {
        Q_EMIT jobActivated(m_jobId);
        hide();
    });
    connect(close, &QToolButton::clicked, this, &QWidget::hide);
    hide();
}

void NotificationBar::showMessage(qint64 jobId, const QString &title, const QString &text, bool failed)
{
    m_jobId = jobId;
    m_label->setText(QStringLiteral("<b>%1</b> · %2").arg(title.toHtmlEscaped(), text.toHtmlEscaped()));
    m_label->setToolTip(text);
    failed ? ErrorText::mark(m_label) : ErrorText::clear(m_label);
    m_show->setVisible(jobId != 0);
    show();
}

QString NotificationBar::text() const
{
    return m_label->text();
}

} // namespace TrainDesk::Ui
