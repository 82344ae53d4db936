#include "JobOverview.h"

#include "common/ErrorText.h"
#include "common/Icons.h"
#include "common/StateStyle.h"
#include "jobspec/RunParameters.h"

#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QStyle>
#include <QVBoxLayout>

namespace TrainDesk::Ui {

JobOverview::JobOverview(QWidget *parent) : QWidget(parent), m_form(new QFormLayout)
{
    m_form->setLabelAlignment(Qt::AlignRight);
    m_form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    m_name = addRow(tr("Job:"));
    m_state = addRow(tr("State:"));
    m_waiting = addRow(tr("Waiting:"));
    m_waiting->setObjectName(QStringLiteral("waitReason"));
    m_form->setRowVisible(m_waiting, false);
    m_experiment = addRow(tr("Experiment:"));
    m_cluster = addRow(tr("Cluster:"));
    m_nodes = addRow(tr("Nodes:"));
    m_command = addRow(tr("Runs:"));
    m_created = addRow(tr("Created:"));
    m_started = addRow(tr("Started:"));
    m_ended = addRow(tr("Ended:"));
    m_duration = addRow(tr("Duration:"));
    m_exitCode = addRow(tr("Exit code:"));
    m_jobDir = addRow(tr("Job directory:"));
    m_errors = addRow(tr("Errors:"));
    m_errors->setTextFormat(Qt::RichText);
    m_attempts = addRow(tr("Attempts:"));
    m_attempts->setTextFormat(Qt::RichText);
    m_silence = addRow(tr("Silent ranks:"));
    m_silence->setWordWrap(true);
    setReliability({}, {});
    QFont bold = m_name->font();
    bold.setBold(true);
    m_name->setFont(bold);
    m_state->setFont(bold);

    m_start = new QPushButton(appIcon(QStringLiteral("start")), tr("Start job"), this);
    m_start->setObjectName(QStringLiteral("startJobButton"));
    m_terminate = new QPushButton(appIcon(QStringLiteral("terminate")), tr("Terminate"), this);
    m_terminate->setObjectName(QStringLiteral("terminateJobButton"));
    m_clone = new QPushButton(appIcon(QStringLiteral("clone")), tr("C&lone…"), this);
    m_clone->setObjectName(QStringLiteral("cloneJobButton"));
    m_clone->setToolTip(tr("A new job from this one's job.json, to change and submit (Ctrl+D)"));
    m_start->setToolTip(tr("Queue this draft: it starts when its nodes are free (Ctrl+Return)"));
    m_terminate->setToolTip(tr("Stop this job: SIGTERM, then SIGKILL after a grace period (Ctrl+Shift+T)"));
    connect(m_clone, &QPushButton::clicked, this, [this] { Q_EMIT cloneRequested(m_job.id); });
    connect(m_start, &QPushButton::clicked, this, [this] { Q_EMIT startRequested(m_job.id); });
    connect(m_terminate, &QPushButton::clicked, this, [this] { Q_EMIT terminateRequested(m_job.id); });
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_start);
    buttons->addWidget(m_terminate);
    buttons->addWidget(m_clone);
    buttons->addStretch();

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(m_form);
    layout->addLayout(buttons);
    layout->addStretch();

    m_clock.setInterval(1000);
    connect(&m_clock, &QTimer::timeout, this, &JobOverview::updateDuration);
}

QLabel *JobOverview::addRow(const QString &label)
{
    auto *value = new QLabel(this);
    value->setTextInteractionFlags(Qt::TextSelectableByMouse);
    value->setWordWrap(true);
    m_form->addRow(label, value);
    return value;
}

QString JobOverview::commandOf(const QByteArray &spec)
{
    const QString command = RunParameters::commandLineOf(spec);
    if (command.isEmpty())
        return {};
    const RunParameters::Shape shape = RunParameters::shapeOf(spec);
    return tr("%1  (%2, %3)")
        .arg(command, countOf(shape.nodes, tr("node"), tr("nodes")), countOf(shape.processes, tr("process"), tr("processes")));
}

void JobOverview::setJob(const Job &job, const QString &experiment, const QString &cluster)
{
    m_job = job;
    m_name->setText(job.name);
    // A Slurm job says what Slurm says of it (its id, and why it waits).
    m_state->setText(job.schedulerId.isEmpty() || job.schedulerId.startsWith(QLatin1String("submitting:"))
                         ? jobStateText(job)
                         : tr("%1 — Slurm job %2: %3").arg(jobStateText(job), job.schedulerId, job.schedulerState));
    QPalette palette = m_state->palette();
    palette.setColor(QPalette::WindowText, jobStateColor(job));
    m_state->setPalette(palette);
    m_experiment->setText(experiment);
    m_cluster->setText(cluster);
    m_nodes->setText(job.nodes.isEmpty() ? QStringLiteral("—") : job.nodes.join(QStringLiteral(", ")));
    m_command->setText(commandOf(job.spec));
    m_created->setText(formatTime(job.created));
    m_started->setText(formatTime(job.started));
    m_ended->setText(formatTime(job.ended));
    m_exitCode->setText(job.exitCode ? QString::number(*job.exitCode) : QStringLiteral("—"));
    m_jobDir->setText(job.jobDir.isEmpty() ? QStringLiteral("—") : job.jobDir);
    QString errors;
    for (const JobError &e : job.errors) {
        errors += QStringLiteral("<b>%1</b>: %2").arg(e.code.toHtmlEscaped(), e.message.toHtmlEscaped());
        for (const QString &d : e.details)
            errors += QStringLiteral("<br>&nbsp;&nbsp;%1").arg(d.toHtmlEscaped());
        errors += QStringLiteral("<br>");
    }
    m_errors->setText(errors.isEmpty() ? QStringLiteral("none") : errors);
    m_start->setVisible(job.state == JobState::Draft);
    m_terminate->setVisible(!isFinished(job.state) && job.state != JobState::Draft);
    m_terminate->setEnabled(job.state != JobState::Terminating);
    updateDuration();
    if (isActive(job.state))
        m_clock.start();
    else
        m_clock.stop();
}

QString JobOverview::stateText() const
{
    return m_state->text();
}

void JobOverview::setWaitReason(const QString &reason)
{
    m_waiting->setText(reason);
    m_form->setRowVisible(m_waiting, !reason.isEmpty());
}

QString JobOverview::waitReason() const
{
    return m_waiting->text();
}

void JobOverview::updateDuration()
{
    if (!m_job.started.isValid()) {
        m_duration->setText(QStringLiteral("—"));
        return;
    }
    const QDateTime end = m_job.ended.isValid() ? m_job.ended : QDateTime::currentDateTimeUtc();
    m_duration->setText(formatDuration(m_job.started.secsTo(end)));
}

void JobOverview::setReliability(const QList<JobAttempt> &attempts, const QString &silence)
{
    QString text;
    for (const JobAttempt &a : attempts) {
        const JobError first = a.errors.value(0);
        text += tr("<b>%1</b> on %2, %3: %4: %5<br>&nbsp;&nbsp;%6<br>")
                    .arg(a.attempt)
                    .arg(a.nodes.join(QStringLiteral(", ")).toHtmlEscaped(), formatTime(a.started),
                         first.code.toHtmlEscaped(), first.message.toHtmlEscaped(),
                         (first.details.isEmpty() ? QString() : first.details.last()).toHtmlEscaped());
    }
    if (!attempts.isEmpty())
        text += tr("<b>%1</b>: this one").arg(attempts.size() + 1);
    m_attempts->setText(text);
    m_form->setRowVisible(m_attempts, !attempts.isEmpty());
    m_silence->setText(silence);
    m_form->setRowVisible(m_silence, !silence.isEmpty());
    ErrorText::mark(m_silence);
}

} // namespace TrainDesk::Ui
