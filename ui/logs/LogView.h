#pragma once

#include "LogBuffer.h"
#include "session/JobFile.h"

#include <QTimer>
#include <QWidget>

class QComboBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QToolButton;

namespace TrainDesk {
class Backend;
}

namespace TrainDesk::Ui {

// The logs tab: one of the job's stdouterr files as it grows. Follows the end until the
// user scrolls up, then holds still ("Jump to end" resumes); filters by MPI rank and by
// node; finds text.
class LogView : public QWidget
{
    Q_OBJECT

public:
    explicit LogView(Backend *backend, QWidget *parent = nullptr);
    ~LogView() override;

    static constexpr int maxLines = 100000;
    // A log can grow faster than text can be laid out (a 100 MB log in 20 s is 60,000
    // lines a second): the view appends at most this many lines per flush, flushes at
    // most every flushIntervalMs, and says how many lines it skipped in between.
    static constexpr int maxLinesPerFlush = 1000;
    static constexpr int flushIntervalMs = 200;
    // A rebuild (another rank) lays out at most this many of the buffered lines.
    static constexpr int maxRebuildLines = 20000;

    // `rankNodes`: the node of each rank (Job::rankNodes), for the node filter.
    void setJob(qint64 jobId, bool finished, const QStringList &rankNodes = {});
    void showFile(const QString &file);  // relative to the job directory, e.g. "stdouterr/stdout.txt"
    QString currentFile() const { return m_file; }
    void setRankFilter(int rank);        // -1: all ranks
    void setNodeFilter(const QString &node);  // empty: all nodes; a node without ranks is ignored
    bool isFollowing() const { return m_follow; }
    void jumpToEnd();
    // Selects the next (or previous) match, wrapping around; false when there is none.
    bool find(const QString &text, bool backward = false);
    QPlainTextEdit *textView() const { return m_text; }

private:
    void onChunk(qint64 jobId, const QString &file, qint64 offset, const QByteArray &data);
    void onFilesListed(qint64 jobId, const QList<TrainDesk::JobFile> &files);
    void appendLines(const QList<LogBuffer::Line> &lines);
    void flushPending();
    static QString skippedNote(qint64 lines);
    void rebuild();
    void setFollow(bool on);
    void highlightMatches();
    void updateRanks();
    void setRankNodes(const QStringList &rankNodes);
    void addRankFiles();

    Backend *m_backend;
    qint64 m_jobId = 0;
    bool m_finished = false;
    QString m_file;
    LogBuffer m_buffer{maxLines};
    LogBuffer::Filter m_filter;
    QStringList m_rankNodes;
    bool m_follow = true;
    bool m_appending = false;
    QStringList m_pending;  // lines to show at the next flush
    qint64 m_skipped = 0;   // lines dropped before them
    QTimer m_flushTimer;
    QComboBox *m_fileCombo;
    QComboBox *m_rankCombo;
    QComboBox *m_nodeCombo;
    QLineEdit *m_search;
    QLabel *m_matches;
    QToolButton *m_followButton;
    QToolButton *m_endButton;
    QToolButton *m_wrapButton;
    QLabel *m_notice;
    QPlainTextEdit *m_text;
};

} // namespace TrainDesk::Ui
