#include "HostKeyPrompt.h"

#include <QFontDatabase>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>

namespace TrainDesk::Ui {

HostKeyPrompt::HostKeyPrompt(const HostKeyQuestion &question, QWidget *parent)
    : QFrame(parent),
      m_question(question),
      m_nodes{question.nodeName},
      m_text(new QLabel(this)),
      m_fingerprint(new QLabel(question.fingerprint, this)),
      m_accept(new QPushButton(tr("A&ccept"), this)),  // Alt+A is "although checks failed"
      m_reject(new QPushButton(tr("Re&ject"), this))
{
    setObjectName(QStringLiteral("hostKeyRow"));
    setFrameShape(QFrame::StyledPanel);
    m_text->setObjectName(QStringLiteral("hostKeyLabel"));
    m_text->setWordWrap(true);
    m_text->setTextFormat(Qt::PlainText);
    m_text->setTextInteractionFlags(Qt::TextSelectableByMouse);
    // A fingerprint has no spaces to wrap at: the label keeps its whole width, so the
    // layout makes room for it instead of cutting it.
    m_fingerprint->setObjectName(QStringLiteral("hostKeyFingerprint"));
    m_fingerprint->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_fingerprint->setTextFormat(Qt::PlainText);
    m_fingerprint->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_fingerprint->setMinimumWidth(m_fingerprint->sizeHint().width());
    m_fingerprint->setToolTip(tr("Compare with the node's own: ssh-keygen -lf /etc/ssh/ssh_host_*_key.pub run on it"));
    m_accept->setObjectName(QStringLiteral("acceptHostKey"));
    m_reject->setObjectName(QStringLiteral("rejectHostKey"));

    // The question and its buttons on top, the fingerprint on a line of its own below.
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_accept);
    buttons->addWidget(m_reject);
    auto *layout = new QGridLayout(this);
    layout->addWidget(m_text, 0, 0);
    layout->addLayout(buttons, 0, 1, Qt::AlignTop);
    layout->addWidget(m_fingerprint, 1, 0, 1, 2);
    layout->setColumnStretch(0, 1);
    updateText();

    connect(m_accept, &QPushButton::clicked, this, [this] { answer(true); });
    connect(m_reject, &QPushButton::clicked, this, [this] { answer(false); });
}

void HostKeyPrompt::addNode(const QString &nodeName)
{
    if (m_nodes.contains(nodeName))
        return;
    m_nodes << nodeName;
    updateText();
}

void HostKeyPrompt::close()
{
    m_accept->setEnabled(false);
    m_reject->setEnabled(false);
}

void HostKeyPrompt::answer(bool accept)
{
    m_answered = true;
    m_accepted = accept;
    close();
    updateText();
    Q_EMIT answered(accept);
}

void HostKeyPrompt::updateText()
{
    const QString where = QStringLiteral("%1:%2").arg(m_question.host).arg(m_question.port);
    const QString nodes = m_nodes.join(QStringLiteral(", "));
    if (!m_answered) {
        m_text->setText(tr("%1 (%2) shows a %3 host key TrainDesk has not seen. Accept it only if this is the "
                           "fingerprint of that machine:")
                            .arg(nodes, where, m_question.keyType));
    } else {
        m_text->setText((m_accepted ? tr("Accepted the %1 host key of %2 (%3):") : tr("Rejected the %1 host key of %2 (%3):"))
                            .arg(m_question.keyType, nodes, where));
    }
}

} // namespace TrainDesk::Ui
