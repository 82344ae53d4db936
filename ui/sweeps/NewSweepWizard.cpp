#include "NewSweepWizard.h"
#include "metrics/RunSummary.h"

#include "common/ErrorText.h"
#include "session/Backend.h"
#include "sweeps/SweepTemplate.h"

#include <QComboBox>
#include <QMessageBox>
#include <QFormLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QTableWidget>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>
#include <limits>

namespace TrainDesk::Ui {

namespace {

enum Column { FieldColumn, TextColumn, NameColumn, ValuesColumn };

// "customToolkitSettings.commandLine = python train.py ...": the path without "properties.".
QString fieldLabel(const SweepTemplate::Field &f)
{
    const QString path = f.path.startsWith(QLatin1String("properties.")) ? f.path.mid(11) : f.path;
    return QStringLiteral("%1 = %2").arg(path, f.value.left(60));
}

QString cellText(const QTableWidget *table, int row, int column)
{
    const QTableWidgetItem *item = table->item(row, column);
    return item ? item->text().trimmed() : QString();
}

} // namespace

NewSweepWizard::NewSweepWizard(Backend *backend, QWidget *parent)
    : QWizard(parent),
      m_backend(backend),
      m_job(new QComboBox),
      m_cluster(new QComboBox),
      m_name(new QLineEdit),
      m_params(new QTableWidget(0, 4)),
      m_paramsError(new QLabel),
      m_sampling(new QComboBox),
      m_trials(new QSpinBox),
      m_seed(new QSpinBox),
      m_limit(new QSpinBox),
      m_metric(new QComboBox),
      m_goal(new QComboBox),
      m_earlyStop(new QComboBox),
      m_count(new QLabel),
      m_previewTimer(new QTimer(this))
{
    setWindowTitle(tr("New sweep"));
    setOption(QWizard::NoBackButtonOnStartPage);
    addPage(createFieldsPage());
    addPage(createSearchPage());
    connectInputs();
    connectBackend();
}

// The job, the sweep's name and cluster, and the parameters: which text of which field varies.
QWizardPage *NewSweepWizard::createFieldsPage()
{
    auto *fields = new QWizardPage;
    fields->setTitle(tr("Trials from a job"));
    fields->setSubTitle(tr("Each trial is this job with the text you pick replaced by the trial's value of a parameter."));
    m_name->setPlaceholderText(tr("e.g. lr-search (trials are named lr-search-1, -2, ...)"));
    m_params->setHorizontalHeaderLabels({tr("Field of the job.json"), tr("Text that varies"), tr("Parameter"),
                                         tr("Values or range")});
    m_params->horizontalHeader()->setSectionResizeMode(FieldColumn, QHeaderView::Interactive);
    m_params->horizontalHeader()->setStretchLastSection(true);
    m_params->setColumnWidth(FieldColumn, 330);
    m_params->setToolTip(tr("Values: 0.1,0.01 or sgd,adam; ranges: uniform(a,b), loguniform(a,b), randint(a,b), "
                            "range(a,b,step); uniform(a,b,n) and loguniform(a,b,n) give a grid n values"));
    auto *add = new QPushButton(tr("Add parameter"));
    auto *remove = new QPushButton(tr("Remove"));
    connect(add, &QPushButton::clicked, this, [this] { addParameter({}, {}, {}, {}); });
    connect(remove, &QPushButton::clicked, this, [this] {
        if (m_params->currentRow() >= 0)
            m_params->removeRow(m_params->currentRow());
    });
    m_paramsError->setWordWrap(true);
    ErrorText::mark(m_paramsError);
    auto *form = new QFormLayout;
    form->addRow(tr("Job:"), m_job);
    form->addRow(tr("Sweep name:"), m_name);
    form->addRow(tr("Cluster:"), m_cluster);
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(add);
    buttons->addWidget(remove);
    buttons->addStretch();
    auto *fieldsLayout = new QVBoxLayout(fields);
    fieldsLayout->addLayout(form);
    fieldsLayout->addWidget(new QLabel(tr("Parameters:")));
    fieldsLayout->addWidget(m_params, 1);
    fieldsLayout->addLayout(buttons);
    fieldsLayout->addWidget(m_paramsError);
    return fields;
}

// How trials are drawn and run, the metric that ranks them, and early stopping.
QWizardPage *NewSweepWizard::createSearchPage()
{
    auto *search = new QWizardPage;
    search->setTitle(tr("Search"));
    search->setSubTitle(tr("How the trials are chosen and run. Nothing is submitted before Finish."));
    m_sampling->addItem(tr("Grid: every combination"), QStringLiteral("grid"));
    m_sampling->addItem(tr("Random: draws from the ranges"), QStringLiteral("random"));
    m_trials->setRange(1, 10000);
    m_trials->setValue(10);
    m_seed->setRange(0, std::numeric_limits<int>::max());
    m_seed->setValue(1);
    m_limit->setRange(1, 1000);
    m_limit->setValue(2);
    m_metric->setObjectName(QStringLiteral("sweepMetricBox"));
    m_metric->setEditable(true);
    m_metric->setInsertPolicy(QComboBox::NoInsert);
    m_metric->lineEdit()->setPlaceholderText(tr("a metric the jobs report, e.g. val_acc or loss"));
    m_metric->setToolTip(tr("The series that ranks the trials: one the job reported (listed), or any name its "
                            "records carry"));
    fillMetrics({});
    m_goal->addItem(tr("higher is better"), QStringLiteral("max"));
    m_goal->addItem(tr("lower is better"), QStringLiteral("min"));
    m_earlyStop->setEditable(true);
    m_earlyStop->addItems({QString(), QStringLiteral("median:after=3"), QStringLiteral("bandit:slack=0.1,after=3"),
                           QStringLiteral("asha:reduction=3,after=1")});
    m_count->setWordWrap(true);
    QFont bold = m_count->font();
    bold.setBold(true);
    m_count->setFont(bold);
    auto *searchForm = new QFormLayout(search);
    searchForm->addRow(tr("Sampling:"), m_sampling);
    searchForm->addRow(tr("Trials (random):"), m_trials);
    searchForm->addRow(tr("Seed (random):"), m_seed);
    searchForm->addRow(tr("At most at once:"), m_limit);
    searchForm->addRow(tr("Metric:"), m_metric);
    searchForm->addRow(tr("Goal:"), m_goal);
    searchForm->addRow(tr("Early stopping:"), m_earlyStop);
    searchForm->addRow(m_count);
    return search;
}

// Every change of an input works the trial count out again (once the typing pauses).
void NewSweepWizard::connectInputs()
{
    m_previewTimer->setSingleShot(true);
    m_previewTimer->setInterval(150);
    connect(m_previewTimer, &QTimer::timeout, this, &NewSweepWizard::preview);
    const auto changed = [this] { schedulePreview(); };
    connect(m_sampling, &QComboBox::currentIndexChanged, this, [this, changed] {
        const bool random = m_sampling->currentData().toString() == QLatin1String("random");
        m_trials->setEnabled(random);
        m_seed->setEnabled(random);
        changed();
    });
    m_trials->setEnabled(false);
    m_seed->setEnabled(false);
    for (QSpinBox *box : {m_trials, m_seed, m_limit})
        connect(box, &QSpinBox::valueChanged, this, changed);
    connect(m_name, &QLineEdit::textChanged, this, changed);
    connect(m_metric, &QComboBox::currentTextChanged, this, changed);
    // A metric chosen sets the goal (loss: lower is better) until the user sets it.
    connect(m_metric, &QComboBox::currentTextChanged, this, [this](const QString &metric) {
        if (m_goalChosen || metric.trimmed().isEmpty())
            return;
        const QSignalBlocker block(m_goal);
        m_goal->setCurrentIndex(m_goal->findData(RunSummary::lowerIsBetter(metric.trimmed()) ? QStringLiteral("min")
                                                                                                : QStringLiteral("max")));
    });
    connect(m_goal, &QComboBox::activated, this, [this] { m_goalChosen = true; });
    connect(m_earlyStop, &QComboBox::currentTextChanged, this, changed);
    connect(m_cluster, &QComboBox::currentIndexChanged, this, changed);
    connect(m_params, &QTableWidget::itemChanged, this, changed);
    connect(m_job, &QComboBox::currentIndexChanged, this, &NewSweepWizard::jobChosen);
}

// The fields offered are the chosen job's strings; the metrics, those it reported.
void NewSweepWizard::jobChosen()
{
    const Job *job = m_backend->snapshot().findJob(m_job->currentData().toLongLong());
    requestMetrics(job ? job->id : 0);
    const QList<SweepTemplate::Field> fields = job ? SweepTemplate::stringFields(job->spec) : QList<SweepTemplate::Field>();
    for (int row = 0; row < m_params->rowCount(); ++row) {
        auto *box = qobject_cast<QComboBox *>(m_params->cellWidget(row, FieldColumn));
        const QString chosen = box ? box->currentData().toString() : QString();
        box->clear();
        for (const auto &f : fields)
            box->addItem(fieldLabel(f), f.path);
        box->setCurrentIndex(std::max(0, box->findData(chosen)));
    }
    if (job) {
        const QSignalBlocker block(m_cluster);
        m_cluster->setCurrentIndex(std::max(0, m_cluster->findData(job->clusterId)));
    }
    schedulePreview();
}

// The answers of the worker: the job's metrics, the trial count, the sweep created.
void NewSweepWizard::connectBackend()
{
    connect(m_backend, &Backend::runSummariesRead, this, [this](int id, const RunSummaries &summaries) {
        if (id != m_metricsRequest)
            return;
        m_metricsRequest = -1;
        QStringList names;
        for (const RunSummary &summary : summaries)
            names += summary.metrics.keys();
        fillMetrics(names);
    });
    connect(m_backend, &Backend::sweepPreviewed, this,
            [this](int id, int trials, const QStringList &warnings, const QString &error) {
        if (id != m_previewRequest)
            return;
        m_previewRequest = -1;
        m_previewTrials = error.isEmpty() ? trials : 0;
        m_count->setText(error.isEmpty() ? (trials == 1 ? tr("1 trial will run") : tr("%1 trials will run").arg(trials))
                                             + (warnings.isEmpty() ? QString() : QStringLiteral("\n") + warnings.join(QLatin1Char('\n')))
                                         : tr("Not yet: %1").arg(error));
        Q_EMIT previewed();
    });
    connect(m_backend, &Backend::requestFinished, this, [this](int id, qint64 sweepId, const QString &error) {
        if (id != m_createRequest)
            return;
        m_createRequest = -1;
        button(QWizard::FinishButton)->setEnabled(true);
        if (!error.isEmpty()) {
            m_count->setText(tr("Not created: %1").arg(error));
            return;
        }
        Q_EMIT sweepCreated(sweepId);
        QWizard::accept();
    });
}

void NewSweepWizard::requestMetrics(qint64 jobId)
{
    fillMetrics({});
    m_metricsRequest = jobId ? m_backend->readRunSummaries({jobId}) : -1;
}

QLineEdit *NewSweepWizard::metricEdit() const
{
    return m_metric->lineEdit();
}

void NewSweepWizard::fillMetrics(const QStringList &reported)
{
    // The job's own metrics; before it has any, the bundled trainer's. Validation first (a
    // sweep is judged on held-out data), then training, then the rest by name.
    QStringList names = reported.isEmpty() ? QStringList{QStringLiteral("val_acc"), QStringLiteral("val_loss"),
                                                         QStringLiteral("acc"), QStringLiteral("loss")}
                                           : reported;
    names.removeDuplicates();
    const QStringList first{QStringLiteral("val_acc"), QStringLiteral("val_loss"), QStringLiteral("acc"), QStringLiteral("loss")};
    std::sort(names.begin(), names.end(), [&first](const QString &a, const QString &b) {
        const qsizetype ia = first.contains(a) ? first.indexOf(a) : first.size();
        const qsizetype ib = first.contains(b) ? first.indexOf(b) : first.size();
        return ia != ib ? ia < ib : a < b;
    });
    const QString typed = m_metric->currentText();
    {
        const QSignalBlocker block(m_metric);
        m_metric->clear();
        m_metric->addItems(names);
        m_metric->setCurrentIndex(-1);
        m_metric->setEditText(typed);
    }
    // Nothing chosen yet: the first (validation accuracy where the job has it).
    if (typed.trimmed().isEmpty() && !names.isEmpty())
        m_metric->setCurrentIndex(0);
}

void NewSweepWizard::presetJob(qint64 jobId)
{
    fillJobs();
    const Job *job = m_backend->snapshot().findJob(jobId);
    if (!job)
        return;
    m_job->setCurrentIndex(std::max(0, m_job->findData(jobId)));
    requestMetrics(jobId);  // (the same index as before the list was filled again: no signal)
    if (m_name->text().isEmpty())
        m_name->setText(job->name + QStringLiteral("-sweep"));
}

void NewSweepWizard::fillJobs()
{
    const QSignalBlocker blockJob(m_job);
    const QSignalBlocker blockCluster(m_cluster);
    m_job->clear();
    m_cluster->clear();
    for (const auto &ws : m_backend->snapshot().workspaces) {
        for (const auto &exp : ws.experiments) {
            for (const Job &j : exp.jobs)
                m_job->addItem(QStringLiteral("%1 / %2 / %3").arg(ws.workspace.name, exp.experiment.name, j.name), j.id);
        }
        for (const auto &c : ws.clusters)
            m_cluster->addItem(QStringLiteral("%1 / %2").arg(ws.workspace.name, c.cluster.name), c.cluster.id);
    }
}

void NewSweepWizard::addParameter(const QString &fieldPath, const QString &text, const QString &name, const QString &values)
{
    if (m_job->count() == 0)
        fillJobs();
    const int row = m_params->rowCount();
    m_params->insertRow(row);
    auto *box = new QComboBox;
    const Job *job = m_backend->snapshot().findJob(m_job->currentData().toLongLong());
    for (const auto &f : job ? SweepTemplate::stringFields(job->spec) : QList<SweepTemplate::Field>())
        box->addItem(fieldLabel(f), f.path);
    // The command line is what varies most often: offered first.
    int preferred = box->findData(fieldPath);
    if (preferred < 0) {
        for (int i = 0; i < box->count() && preferred < 0; ++i)
            preferred = box->itemData(i).toString().endsWith(QLatin1String("commandLine")) ? i : -1;
    }
    box->setCurrentIndex(std::max(0, preferred));
    connect(box, &QComboBox::currentIndexChanged, this, [this] { schedulePreview(); });
    m_params->setCellWidget(row, FieldColumn, box);
    m_params->setItem(row, TextColumn, new QTableWidgetItem(text));
    m_params->setItem(row, NameColumn, new QTableWidgetItem(name));
    m_params->setItem(row, ValuesColumn, new QTableWidgetItem(values));
    schedulePreview();
}

Result<SweepRequest> NewSweepWizard::request() const
{
    const ResourceSnapshot &snapshot = m_backend->snapshot();
    const Job *job = snapshot.findJob(m_job->currentData().toLongLong());
    if (!job)
        return fail(tr("choose the job the trials start from"));
    const auto *exp = snapshot.findExperiment(job->experimentId);
    const auto *ws = exp ? snapshot.findWorkspace(exp->experiment.workspaceId) : nullptr;
    const auto *cluster = snapshot.findCluster(m_cluster->currentData().toLongLong());
    if (!exp || !ws || !cluster)
        return fail(tr("choose a cluster"));
    if (m_params->rowCount() == 0)
        return fail(tr("add a parameter: a field of the job.json, the text in it that varies, a name and its values"));
    SweepRequest r;
    r.workspace = ws->workspace.name;
    r.experiment = exp->experiment.name;
    r.name = m_name->text().trimmed();
    r.cluster = cluster->cluster.name;
    QList<SweepTemplate::Placeholder> placeholders;
    for (int row = 0; row < m_params->rowCount(); ++row) {
        const auto *box = qobject_cast<QComboBox *>(m_params->cellWidget(row, FieldColumn));
        const QString name = cellText(m_params, row, NameColumn);
        placeholders.append({box ? box->currentData().toString() : QString(), cellText(m_params, row, TextColumn), name});
        const auto param = SweepParams::parseInline(name + QLatin1Char('=') + cellText(m_params, row, ValuesColumn));
        if (!param)
            return fail(tr("row %1: %2").arg(row + 1).arg(param.error().mid(param.error().indexOf(QLatin1String(": ")) + 2)));
        r.params << *param;
    }
    const auto spec = SweepTemplate::apply(job->spec, placeholders);
    if (!spec)
        return spec.failure();
    r.spec = *spec;
    r.sampling = m_sampling->currentData().toString() == QLatin1String("random") ? SweepSampling::Random : SweepSampling::Grid;
    if (r.sampling == SweepSampling::Random) {
        r.trials = m_trials->value();
        r.seed = m_seed->value();
    }
    r.maxConcurrent = m_limit->value();
    r.metric = m_metric->currentText().trimmed();
    r.maximize = m_goal->currentData().toString() == QLatin1String("max");
    r.earlyStop = m_earlyStop->currentText().trimmed();
    return r;
}

QString NewSweepWizard::trialCountText() const { return m_count->text(); }

void NewSweepWizard::schedulePreview() { m_previewTimer->start(); }

void NewSweepWizard::preview()
{
    const auto r = request();
    m_paramsError->setText(r ? QString() : r.error());
    if (!r) {
        m_previewTrials = 0;
        m_count->setText(tr("Not yet: %1").arg(r.error()));
        Q_EMIT previewed();
        return;
    }
    m_previewRequest = m_backend->previewSweep(*r);
}

bool NewSweepWizard::validateCurrentPage()
{
    if (currentId() == 0) {
        const auto r = request();
        m_paramsError->setText(r ? QString() : r.error());
        return bool(r);
    }
    return m_previewTrials > 0;
}

void NewSweepWizard::reject()
{
    if (m_discard || m_createRequest >= 0 || (currentId() == 0 && m_params->rowCount() == 0)) {
        QWizard::reject();
        return;
    }
    if (m_question)
        return;
    m_question = new QMessageBox(QMessageBox::Question, tr("Discard the sweep?"),
                                 tr("Discard the sweep %1? Its parameters and settings are lost.").arg(m_name->text()),
                                 QMessageBox::NoButton, this);
    QAbstractButton *discard = m_question->addButton(tr("Discard"), QMessageBox::DestructiveRole);
    m_question->setDefaultButton(m_question->addButton(tr("Keep editing"), QMessageBox::RejectRole));
    m_question->setAttribute(Qt::WA_DeleteOnClose);
    connect(m_question, &QMessageBox::finished, this, [this, discard] {
        if (m_question && m_question->clickedButton() == discard) {
            m_discard = true;
            QWizard::reject();
        }
    });
    m_question->open();
}

void NewSweepWizard::accept()
{
    const auto r = request();
    if (!r || m_previewTrials == 0 || m_createRequest >= 0)
        return;
    button(QWizard::FinishButton)->setEnabled(false);
    m_createRequest = m_backend->createSweep(*r);
}

} // namespace TrainDesk::Ui
