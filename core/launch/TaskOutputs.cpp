#include "TaskOutputs.h"

#include "common/ShellQuote.h"

#include <QRegularExpression>

namespace TrainDesk::TaskOutputs {

namespace {

const QRegularExpression taskFile(QStringLiteral("^std(?:out|err)-(?:(?:wk|ps)-)?(\\d+)\\.txt$"));

// Splits tagged lines ("[1,3]<stdout>:text") into the rank's file, without the tag. mpirun
// tags every piece it reads, also one without the line's end (a script printing unbuffered
// writes "text" and "\n" apart), and another rank's piece can follow on the same line:
// "[1,0]<stdout>:A[1,1]<stdout>:B" then "[1,0]<stdout>:" is A for rank 0 and B for rank 1.
// So each tag starts a piece of its rank's line, kept in part[] until the line's end, which
// belongs to the line's last piece; what is left at the end is written too. mawk and gawk
// both run it; each line is flushed so the file can be followed.
const char *splitProgram =
    "BEGIN { k = split(names, a, \" \"); for (i = 1; i <= k; i++) n[i - 1] = a[i] }\n"
    "function rank(r) { return (r in n) ? n[r] : r }\n"
    "function out(name, text,   f) {\n"
    "  f = \"stdouterr/\" stream \"-\" name \".txt\"\n"
    "  print text > f; fflush(f)\n"
    "}\n"
    "{\n"
    "  line = $0\n"
    "  if (match(line, /^\\[[0-9]+,[0-9]+\\]<std(out|err)>:/)) {\n"
    "    while (match(line, /^\\[[0-9]+,[0-9]+\\]<std(out|err)>:/)) {\n"
    "      tag = substr(line, 1, RLENGTH); line = substr(line, RLENGTH + 1)\n"
    "      sub(/^\\[[0-9]+,/, \"\", tag); sub(/\\].*$/, \"\", tag); r = tag + 0\n"
    "      if (match(line, /\\[[0-9]+,[0-9]+\\]<std(out|err)>:/)) {\n"
    "        part[r] = part[r] substr(line, 1, RSTART - 1); line = substr(line, RSTART)\n"
    "      } else { part[r] = part[r] line; line = \"\" }\n"
    "    }\n"
    "    out(rank(r), part[r]); delete part[r]\n"
    "  } else if (single != \"\") out(single, $0)\n"
    "}\n"
    "END { for (r in part) if (part[r] != \"\") out(rank(r), part[r]) }\n";

} // namespace

QStringList names(const ToolkitLaunch &launch)
{
    QStringList result;
    switch (launch.kind) {
    case ToolkitLaunch::Kind::HeadNode:
        return {};
    case ToolkitLaunch::Kind::Mpi:
        for (int r = 0; r < launch.processCount; ++r)
            result << QString::number(r);
        return result;
    case ToolkitLaunch::Kind::Tasks:
        break;
    }
    for (const LaunchTask &t : launch.tasks) {
        if (t.role == QLatin1String("ps"))
            result << QStringLiteral("ps-%1").arg(t.index);
        else if (t.role == QLatin1String("worker") || t.role == QLatin1String("master"))
            result << QStringLiteral("wk-%1").arg(t.index);  // the master is TensorFlow's worker 0
        else
            result << QString::number(t.index);
    }
    return result;
}

QString followerText(const QStringList &names, const QString &untagged)
{
    // tail -f --pid ends once the job's process is gone (the launch script reaps it first)
    // and the file is read to its end; every line then reaches awk.
    QString text = QStringLiteral("follow_output() {\n"
                                  "  tail -s 0.2 -c +1 -f --pid=\"$job\" \"stdouterr/$1.txt\" 2>/dev/null"
                                  " | awk -v stream=\"$1\" -v names=%1 -v single=%2 %3\n"
                                  "}\n")
                       .arg(shellQuote(names.join(QLatin1Char(' '))), shellQuote(untagged),
                            shellQuote(QString::fromLatin1(splitProgram)));
    // Started with SIGTERM ignored, which they keep (a caught signal would not be).
    text += QStringLiteral("trap '' TERM INT HUP\nfollow_output stdout & split_out=$!\nfollow_output stderr & split_err=$!\n");
    return text;
}

int taskIndexOf(const QString &fileName)
{
    const auto m = taskFile.match(fileName);
    return m.hasMatch() ? m.captured(1).toInt() : -1;
}

bool isTaskFile(const QString &fileName)
{
    return taskFile.match(fileName).hasMatch();
}

} // namespace TrainDesk::TaskOutputs
