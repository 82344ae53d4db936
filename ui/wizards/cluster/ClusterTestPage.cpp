#include "ClusterTestPage.h"

#include "ClusterWizard.h"
#include "HostKeyPrompt.h"
#include "cluster/ProbeCheckList.h"
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
    m_checks = new ProbeCheckList(ProbePlace::Wizard);
    m_checks->setObjectName(QStringLiteral("checkList"));
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
    m_prompts.clear();
    m_waiting.clear();
    m_answers.clear();
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
    m_checks->addCheck(check);
}

void ClusterTestPage::askHostKey(int questionId, const HostKeyQuestion &question)
{
    const QString key = ClusterWorker::hostKeyId(question);
    // The same key again (the head node logged in to once more for another node's "SSH
    // from the head node" check): asked once.
    if (m_answers.contains(key)) {
        m_wizard->worker()->answerHostKey(questionId, m_answers.value(key));
        return;
    }
    m_waiting[key] << questionId;
    if (HostKeyPrompt *prompt = m_prompts.value(key)) {
        prompt->addNode(question.nodeName);
        return;
    }
    auto *prompt = new HostKeyPrompt(question);
    m_prompts.insert(key, prompt);
    m_hostKeyLayout->addWidget(prompt);
    // In the order they are seen: the question's Accept and Reject, then Stop below them
    // (the prompt, made later, came after Stop).
    if (auto *reject = prompt->findChild<QPushButton *>(QStringLiteral("rejectHostKey")))
        QWidget::setTabOrder(reject, m_cancel);
    connect(prompt, &HostKeyPrompt::answered, this, [this, key, prompt, question](bool yes) {
        if (yes)
            m_wizard->acceptedHostKeys().insert(key);
        m_answers.insert(key, yes);
        for (int id : m_waiting.take(key))
            m_wizard->worker()->answerHostKey(id, yes);
        // Answered: a line of the check list keeps the record; the prompt makes room.
        m_checks->addHostKey(prompt->nodes().join(QStringLiteral(", ")), question.keyType, question.fingerprint, yes);
        m_prompts.remove(key);
        prompt->hide();
        prompt->deleteLater();
    });
}

void ClusterTestPage::finish(bool passed, const QString &error)
{
    m_requestId = 0;
    m_done = true;
    m_passed = passed;
    // Questions left open were refused when the test stopped.
    for (HostKeyPrompt *prompt : std::as_const(m_prompts))
        prompt->close();
    m_waiting.clear();
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
