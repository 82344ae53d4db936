#pragma once

#include "transport/SshParameters.h"

#include <QFrame>

class QLabel;
class QPushButton;

namespace TrainDesk::Ui {

// One new host key in the connection test: which nodes show it, its whole SHA256
// fingerprint (monospace, selectable, never cut: the label's width is its minimum), and
// Accept / Reject. Nodes that show the same key (the same host and port) join the prompt
// instead of asking again.
class HostKeyPrompt : public QFrame
{
    Q_OBJECT

public:
    explicit HostKeyPrompt(const HostKeyQuestion &question, QWidget *parent = nullptr);

    void addNode(const QString &nodeName);
    const QStringList &nodes() const { return m_nodes; }
    bool isAnswered() const { return m_answered; }
    bool accepted() const { return m_accepted; }
    // The test stopped before an answer: the key counts as refused.
    void close();

Q_SIGNALS:
    void answered(bool accept);

private:
    void answer(bool accept);
    void updateText();

    HostKeyQuestion m_question;
    QStringList m_nodes;
    QLabel *m_text;
    QLabel *m_fingerprint;
    QPushButton *m_accept;
    QPushButton *m_reject;
    bool m_answered = false;
    bool m_accepted = false;
};

} // namespace TrainDesk::Ui
