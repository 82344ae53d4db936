#pragma once

#include <QByteArray>
#include <QHash>
#include <QJsonParseError>
#include <QList>
#include <QString>
#include <QStringList>

namespace TrainDesk {

// Where things are in a JSON text: the line and column of each member and array element,
// by JSON path ("properties.mountVolumes.azureFileShares[0].azureFileUrl"), so that an
// issue found in the parsed document points into the file. Qt's parser keeps no positions.
class JsonLocator
{
public:
    struct Position
    {
        int line = 0;    // 1-based; 0 when not known
        int column = 0;  // 1-based, in characters
    };

    // `text` should be JSON that QJsonDocument accepted; other text is located as far as
    // it goes.
    explicit JsonLocator(const QByteArray &text);

    // The member or element at `path`, or its nearest ancestor in the text.
    Position locate(const QString &path) const;
    // locate() of each path, in one pass over the text: linear in the text however many paths
    // share a line (a minified file with 160k unknown fields is one line).
    QList<Position> locateAll(const QStringList &paths) const;
    // Where the member or element at `path` starts in the text (its key for a member), -1
    // when the text has none.
    qsizetype offset(const QString &path) const { return m_offsets.value(path, -1); }
    // Paths of members given more than once in one object (the last one counts).
    const QStringList &duplicateKeys() const { return m_duplicates; }

    Position position(qsizetype offset) const;

    // A syntax error as QJsonDocument reported it, said as what was expected and what was
    // found; `offset` is set to where the offending text starts.
    static QString syntaxError(const QByteArray &text, const QJsonParseError &error, qsizetype *offset);

private:
    // The offset of `path` or of its nearest ancestor in the text, -1 when none.
    qsizetype nearestOffset(const QString &path) const;
    qsizetype value(qsizetype pos, const QString &path, int depth);
    qsizetype skipSpace(qsizetype pos) const;
    qsizetype readString(qsizetype pos, QString *decoded) const;

    QByteArray m_text;
    QList<qsizetype> m_lineStarts;
    QHash<QString, qsizetype> m_offsets;
    QStringList m_duplicates;
};

} // namespace TrainDesk
