#include "OrderedJson.h"

#include "jobspec/JsonLocator.h"

#include <QJsonArray>
#include <QJsonDocument>

#include <algorithm>

namespace TrainDesk::Ui::OrderedJson {

namespace {

constexpr int indentWidth = 4;

class Writer
{
public:
    explicit Writer(const QByteArray &previous) : m_locator(previous) {}

    QByteArray write(const QJsonObject &root)
    {
        object(root, QString(), 0);
        m_out += '\n';
        return m_out;
    }

private:
    void value(const QJsonValue &v, const QString &path, int depth)
    {
        if (v.isObject())
            object(v.toObject(), path, depth);
        else if (v.isArray())
            array(v.toArray(), path, depth);
        else
            m_out += scalar(v);
    }

    void object(const QJsonObject &o, const QString &path, int depth)
    {
        if (o.isEmpty()) {
            m_out += "{}";
            return;
        }
        QStringList keys = o.keys();
        // Members of the earlier text by where they were, then new ones (keys() is sorted).
        std::stable_sort(keys.begin(), keys.end(), [&](const QString &a, const QString &b) {
            const qsizetype pa = m_locator.offset(member(path, a));
            const qsizetype pb = m_locator.offset(member(path, b));
            if ((pa < 0) != (pb < 0))
                return pa >= 0;
            return pa >= 0 && pa < pb;
        });
        m_out += "{\n";
        for (qsizetype i = 0; i < keys.size(); ++i) {
            indent(depth + 1);
            m_out += scalar(QJsonValue(keys.at(i))) + ": ";
            value(o.value(keys.at(i)), member(path, keys.at(i)), depth + 1);
            m_out += i + 1 < keys.size() ? ",\n" : "\n";
        }
        indent(depth);
        m_out += '}';
    }

    void array(const QJsonArray &a, const QString &path, int depth)
    {
        if (a.isEmpty()) {
            m_out += "[]";
            return;
        }
        m_out += "[\n";
        for (qsizetype i = 0; i < a.size(); ++i) {
            indent(depth + 1);
            value(a.at(i), QStringLiteral("%1[%2]").arg(path).arg(i), depth + 1);
            m_out += i + 1 < a.size() ? ",\n" : "\n";
        }
        indent(depth);
        m_out += ']';
    }

    // Qt's own spelling of a string, number, boolean or null.
    static QByteArray scalar(const QJsonValue &v)
    {
        const QByteArray wrapped = QJsonDocument(QJsonArray{v}).toJson(QJsonDocument::Compact);
        return wrapped.mid(1, wrapped.size() - 2);
    }

    static QString member(const QString &path, const QString &key)
    {
        return path.isEmpty() ? key : path + QLatin1Char('.') + key;
    }

    void indent(int depth) { m_out += QByteArray(depth * indentWidth, ' '); }

    JsonLocator m_locator;
    QByteArray m_out;
};

} // namespace

QByteArray indented(const QJsonObject &root, const QByteArray &previous)
{
    return Writer(previous).write(root);
}

} // namespace TrainDesk::Ui::OrderedJson
