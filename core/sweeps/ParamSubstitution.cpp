#include "ParamSubstitution.h"

#include "ShellPlaceholder.h"
#include "SweepParam.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QSet>

#include <algorithm>

namespace TrainDesk::ParamSubstitution {

namespace {

struct Replacement
{
    QString token;  // PARAM_LR, PARAM_NET__depth
    QString value;
    QString name;   // the parameter it belongs to
};

class Substituter
{
public:
    explicit Substituter(const QJsonObject &values)
    {
        for (auto it = values.begin(); it != values.end(); ++it) {
            if (it.value().isObject()) {
                const QJsonObject dict = it.value().toObject();
                for (auto key = dict.begin(); key != dict.end(); ++key)
                    m_replacements.append({QStringLiteral("PARAM_%1__%2").arg(it.key(), key.key()),
                                           SweepParams::valueText(key.value()), it.key()});
            } else {
                m_replacements.append({QStringLiteral("PARAM_") + it.key(), SweepParams::valueText(it.value()), it.key()});
            }
            m_unused.insert(it.key());
        }
        std::sort(m_replacements.begin(), m_replacements.end(),
                  [](const Replacement &a, const Replacement &b) { return a.token.size() > b.token.size(); });
    }

    QJsonValue walk(const QJsonValue &value, const QString &path, bool shell = false)
    {
        if (value.isString())
            return replace(value.toString(), path, shell);
        if (value.isArray()) {
            QJsonArray array = value.toArray();
            for (qsizetype i = 0; i < array.size(); ++i)
                array[i] = walk(array.at(i), QStringLiteral("%1[%2]").arg(path).arg(i), shell);
            return array;
        }
        if (value.isObject()) {
            QJsonObject object = value.toObject();
            for (auto it = object.begin(); it != object.end(); ++it)
                it.value() = walk(it.value(), path.isEmpty() ? it.key() : path + QLatin1Char('.') + it.key(),
                                  isShellText(it.key()));
            return object;
        }
        return value;
    }

    QStringList unknown;
    QStringList misplaced;  // "properties.x.commandLine: PARAM_V: the placeholder follows a backslash"
    QStringList unused() const
    {
        QStringList names(m_unused.begin(), m_unused.end());
        names.sort();
        return names;
    }

private:
    // The job.json's strings that a shell reads as commands (customToolkitSettings and
    // jobPreparation's commandLine, the toolkits' commandLineArgs).
    static bool isShellText(const QString &key)
    {
        return key == QLatin1String("commandLine") || key == QLatin1String("commandLineArgs");
    }

    QString replace(const QString &text, const QString &path, bool shell)
    {
        static const QString prefix = QStringLiteral("PARAM_");
        QString out;
        ShellPlaceholder place;
        qsizetype i = 0;
        while (i < text.size()) {
            const qsizetype at = text.indexOf(prefix, i);
            if (at < 0) {
                out += text.mid(i);
                break;
            }
            out += text.mid(i, at - i);
            place.read(QStringView(text).mid(i, at - i));
            const auto hit = std::find_if(m_replacements.begin(), m_replacements.end(), [&](const Replacement &r) {
                return QStringView(text).mid(at).startsWith(r.token);
            });
            if (hit != m_replacements.end()) {
                // In shell text the value is one word, as an environment variable gets it.
                const auto word = shell ? place.word(hit->value) : Result<QString>(hit->value);
                if (!word)
                    misplaced << QStringLiteral("%1: %2: %3").arg(path, hit->token, word.error());
                out += word ? *word : hit->value;
                place.read(hit->token);
                m_unused.remove(hit->name);
                i = at + hit->token.size();
            } else {
                // Not ours: kept as it is, and named (a misspelt parameter would run every trial alike).
                static const QRegularExpression word(QStringLiteral("^PARAM_[A-Za-z0-9_]*"));
                const QString token = word.match(QStringView(text).mid(at)).captured(0);
                unknown << QStringLiteral("%1: %2").arg(path, token);
                out += token;
                place.read(token);
                i = at + token.size();
            }
        }
        return out;
    }

    QList<Replacement> m_replacements;
    QSet<QString> m_unused;
};

} // namespace

Result<Outcome> apply(const QByteArray &jobJson, const QJsonObject &values)
{
    QJsonParseError error{};
    const QJsonDocument doc = QJsonDocument::fromJson(jobJson, &error);
    if (error.error != QJsonParseError::NoError || !doc.isObject())
        return fail(QStringLiteral("the job.json is not a JSON object: %1").arg(error.errorString()));
    Substituter substituter(values);
    const QJsonValue walked = substituter.walk(doc.object(), QString());
    if (!substituter.misplaced.isEmpty())
        return fail(QStringLiteral("%1; a value with spaces, quotes or $ goes into shell text as one word only where a "
                                   "quote can hold it (outside $(...) and `...`, not after a backslash)")
                        .arg(substituter.misplaced.join(QStringLiteral("; "))));
    Outcome outcome;
    outcome.json = QJsonDocument(walked.toObject()).toJson(QJsonDocument::Indented);
    outcome.unknown = substituter.unknown;
    outcome.unknown.removeDuplicates();
    outcome.unused = substituter.unused();
    return outcome;
}

} // namespace TrainDesk::ParamSubstitution
