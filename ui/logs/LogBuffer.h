#pragma once

#include <QByteArray>
#include <QList>
#include <QSet>
#include <QString>
#include <QStringDecoder>

namespace TrainDesk::Ui {

// A job's log as lines, without widgets: bytes arrive in chunks that may split a line or a
// UTF-8 character; lines Open MPI tagged (--tag-output: "[1,3]<stdout>:text") carry
// their rank, so the view can show one rank. Keeps the last maxLines lines.
class LogBuffer
{
public:
    struct Line
    {
        QString text;     // as written, tag included
        int rank = -1;    // -1: untagged
        int tagLength = 0;
        // Shorter than Open MPI's tag: "3│ text" for rank 3, the text alone when untagged.
        QString display() const;
    };

    // Which lines a view shows: those of one rank, of the ranks of one node, or of both.
    // Untagged lines (mpirun's own) belong to no node: only "every node" shows them.
    struct Filter
    {
        int rank = -1;          // -1: every rank
        QString node;           // empty: every node
        QList<bool> nodeRanks;  // for `node`: whether rank r ran on it, index = rank

        bool accepts(const Line &line) const
        {
            if (rank >= 0 && line.rank != rank)
                return false;
            return node.isEmpty() || (line.rank >= 0 && line.rank < nodeRanks.size() && nodeRanks.at(line.rank));
        }
    };

    explicit LogBuffer(int maxLines = 200000);

    // Returns the complete lines this chunk finished.
    QList<Line> append(const QByteArray &chunk);
    // The unfinished last line, for when the file will not grow any more.
    QList<Line> flush();
    void clear();

    const QList<Line> &lines() const { return m_lines; }
    QList<int> ranks() const;             // ranks seen, ascending
    qint64 droppedLines() const { return m_dropped; }
    static bool accepts(const Line &line, int rankFilter) { return rankFilter < 0 || line.rank == rankFilter; }
    static Line parse(const QString &text);

private:
    void keep(const Line &line);

    int m_maxLines;
    QList<Line> m_lines;
    QString m_pending;
    QStringDecoder m_decoder{QStringDecoder::Utf8};
    QSet<int> m_ranks;
    qint64 m_dropped = 0;
};

} // namespace TrainDesk::Ui
