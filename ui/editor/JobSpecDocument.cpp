#include "JobSpecDocument.h"

#include "JsonPath.h"
#include "OrderedJson.h"

#include <QJsonDocument>

namespace TrainDesk::Ui {

namespace {

const QString propertiesKey = QStringLiteral("properties");

} // namespace

JobSpecDocument::JobSpecDocument(QObject *parent) : QObject(parent)
{
    check();
}

void JobSpecDocument::setText(const QByteArray &text)
{
    m_text = text;
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(text, &error);
    m_jsonValid = error.error == QJsonParseError::NoError && doc.isObject();
    if (m_jsonValid)
        m_root = doc.object();
    check();
    Q_EMIT changed(true);
}

void JobSpecDocument::setValue(const QString &path, const QJsonValue &value)
{
    setValues({{path, value}});
}

void JobSpecDocument::setValues(const QList<QPair<QString, QJsonValue>> &changes)
{
    if (!m_jsonValid)
        return;  // the form is read-only then; never overwrite text the user is fixing
    for (const auto &[path, value] : changes)
        m_root = JsonPath::withValue(m_root, documentPath(path), value);
    m_text = OrderedJson::indented(m_root, m_text);  // the user's member order stays
    check();
    Q_EMIT changed(false);
}

QJsonValue JobSpecDocument::value(const QString &path) const
{
    return JsonPath::valueAt(m_root, documentPath(path));
}

QJsonObject JobSpecDocument::properties() const
{
    return m_fileShape ? m_root.value(propertiesKey).toObject() : m_root;
}

void JobSpecDocument::setContext(const SpecContext &context)
{
    m_context = context;
    check();
}

void JobSpecDocument::setClusterHealth(const QList<NodeHealth> &nodes)
{
    m_health = nodes;
    check();
}

QString JobSpecDocument::documentPath(const QString &path) const
{
    // The core says "properties.x" for both shapes; a bare file has no "properties" member.
    if (m_fileShape)
        return path;
    if (path == propertiesKey)
        return {};
    return path.startsWith(propertiesKey + QLatin1Char('.')) ? path.mid(propertiesKey.size() + 1) : path;
}

void JobSpecDocument::check()
{
    m_parsed = parseJobSpec(m_text, m_context);
    if (!m_parsed.hasErrors())
        m_parsed.issues << clusterHealthIssues(m_parsed.spec.nodeCount, m_context.cluster, m_health);
    // The core decides the shape; an empty document becomes the service's file shape.
    m_fileShape = !m_jsonValid || m_root.isEmpty() || m_parsed.spec.fileShape;
    Q_EMIT issuesChanged();
}

} // namespace TrainDesk::Ui
