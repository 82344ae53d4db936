#include "ClusterTestPage.h"

#include "ClusterWizard.h"
#include "session/ClusterWorker.h"

#include <QCheckBox>
#include <QFrame>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QStyle>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace TrainDesk::Ui {

ClusterTestPage::ClusterTestPage(ClusterWizard *wizard) : QWizardPage(wizard), m_wizard(wizard)
{
    setTitle(tr("Connection test"));
    setSubTitle(tr("TrainDesk logs in to every node and checks what jobs need. Nothing is stored yet."));
    m_checks = new QTreeWidget;
    m_checks->setObjectName(QStringLiteral("checkList"));
    m_checks->setHeaderLabels({tr("Result"), tr("Node"), tr("Check"), tr("Details")});
    m_checks->setRootIsDecorated(false);
    m_checks->setWordWrap(true);
    m_checks->header()->setStretchLastSection(true);
    m_hostKeys = new QWidget;
    m_hostKeyLayout = new QVBoxLayout(m_hostKeys);
    m_hostKeyLayout->setContentsMargins(0, 0, 0, 0);
    m_status = new QLabel;
    m_status->setObjectName(QStringLiteral("testStatus"));
    m_status->setWordWrap(true);
    m_rerun = new QPushButton(tr("&Run again"));
    m_rerun->setObjectName(QStringLiteral("rerunButton"));
    m_cancel = new QPushButton(tr("&Stop"));
    m_cancel->setObjectName(QStringLiteral("cancelTestButton"));
    m_acceptFailures = new QCheckBox(tr("Create the cluster &although checks failed"));
    m_acceptFailures->setObjectName(QStringLiteral("acceptFailures"));

    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_status, 1);
    buttons->addWidget(m_cancel);
    buttons->addWidget(m_rerun);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_hostKeys);
    layout->addWidget(m_checks, 1);
    layout->addLayout(buttons);
    layout->addWidget(m_acceptFailures);

    connect(m_rerun, &QPushButton::clicked, this, &ClusterTestPage::run);
    connect(m_cancel, &QPushButton::clicked, this, &ClusterTestPage::cancel);
    connect(m_acceptFailures, &QCheckBox::toggled, this, &ClusterTestPage::completeChanged);

    ClusterWorker *worker = wizard->worker();
    connect(worker, &ClusterWorker::checkArrived, this, [this](int id, const ProbeCheck &check) {
        if (id == m_requestId)
            addCheck(check);
    });
    connect(worker, &ClusterWorker::hostKeyQuestion, this, [this](int id, int questionId, const HostKeyQuestion &q) {
        if (id == m_requestId)
            askHostKey(questionId, q);
        else
            m_wizard->worker()->answerHostKey(questionId, false);
    });
    connect(worker, &ClusterWorker::testFinished, this, [this](int id, bool passed, const QString &error) {
        if (id == m_requestId)
            finish(passed, error);
    });
}

void ClusterTestPage::initializePage()
{
    run();
}

void ClusterTestPage::cleanupPage()
{
    // Back: the answers would be for nodes that may change.
    cancel();
}

bool ClusterTestPage::isComplete() const
{
    return m_done && (m_passed || m_acceptFailures->isChecked());
}

void ClusterTestPage::run()
{
    if (m_requestId)
        m_wizard->worker()->cancel();
    m_checks->clear();
    while (QLayoutItem *item = m_hostKeyLayout->takeAt(0)) {
        delete item->widget();
        delete item;
    }
    m_done = false;
    m_passed = false;
    m_acceptFailures->setChecked(false);
    m_acceptFailures->setEnabled(false);
    m_status->setText(tr("Testing…"));
    m_rerun->setEnabled(false);
    m_cancel->setEnabled(true);
    m_requestId = m_wizard->worker()->testNodes(m_wizard->request(true));
    Q_EMIT completeChanged();
}

void ClusterTestPage::cancel()
{
    if (!m_requestId)
        return;
    m_wizard->worker()->cancel();
    m_status->setText(tr("Stopping…"));
    m_cancel->setEnabled(false);
}

void ClusterTestPage::addCheck(const ProbeCheck &check)
{
    auto *item = new QTreeWidgetItem(m_checks);
    item->setText(0, check.passed ? tr("Pass") : tr("Fail"));
    item->setIcon(0, style()->standardIcon(check.passed ? QStyle::SP_DialogApplyButton : QStyle::SP_MessageBoxCritical));
    item->setText(1, check.node);
    item->setText(2, check.title);
    item->setData(2, Qt::UserRole, check.id);
    const QString details = check.hint.isEmpty() ? check.detail
                                                 : tr("%1\nHint: %2").arg(check.detail, check.hint);
    item->setText(3, details);
    item->setToolTip(3, details);
    m_checks->scrollToItem(item);
}

void ClusterTestPage::askHostKey(int questionId, const HostKeyQuestion &question)
{
    auto *row = new QFrame;
    row->setObjectName(QStringLiteral("hostKeyRow"));
    row->setFrameShape(QFrame::StyledPanel);
    auto *label = new QLabel(tr("%1 (%2:%3) shows a host key TrainDesk has not seen: %4 %5. "
                                "Accept it only if it is the fingerprint of that machine.")
                                 .arg(question.nodeName, question.host)
                                 .arg(question.port)
                                 .arg(question.keyType, question.fingerprint));
    label->setObjectName(QStringLiteral("hostKeyLabel"));
    label->setWordWrap(true);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto *accept = new QPushButton(tr("Accept"));
    accept->setObjectName(QStringLiteral("acceptHostKey"));
    auto *reject = new QPushButton(tr("Reject"));
    reject->setObjectName(QStringLiteral("rejectHostKey"));
    auto *layout = new QHBoxLayout(row);
    layout->addWidget(label, 1);
    layout->addWidget(accept);
    layout->addWidget(reject);
    m_hostKeyLayout->addWidget(row);

    const QString key = ClusterWorker::hostKeyId(question);
    auto answer = [this, questionId, key, accept, reject, label](bool yes) {
        if (yes)
            m_wizard->acceptedHostKeys().insert(key);
        m_wizard->worker()->answerHostKey(questionId, yes);
        accept->setEnabled(false);
        reject->setEnabled(false);
        label->setText(label->text() + QLatin1Char(' ') + (yes ? tr("Accepted.") : tr("Rejected.")));
    };
    connect(accept, &QPushButton::clicked, this, [answer] { answer(true); });
    connect(reject, &QPushButton::clicked, this, [answer] { answer(false); });
}

void ClusterTestPage::finish(bool passed, const QString &error)
{
    m_requestId = 0;
    m_done = true;
    m_passed = passed;
    // Questions left open were refused when the test stopped.
    for (QPushButton *button : m_hostKeys->findChildren<QPushButton *>())
        button->setEnabled(false);
    if (!error.isEmpty())
        m_status->setText(error);
    else if (passed)
        m_status->setText(tr("Every check passed."));
    else if (m_checks->topLevelItemCount() == 0)
        m_status->setText(tr("No check ran."));
    else
        m_status->setText(tr("Some checks failed: see the hints, fix and run again, or continue anyway."));
    m_acceptFailures->setEnabled(!passed && m_checks->topLevelItemCount() > 0);
    m_rerun->setEnabled(true);
    m_cancel->setEnabled(false);
    Q_EMIT completeChanged();
}

} // namespace TrainDesk::Ui
