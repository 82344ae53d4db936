#pragma once
// What a command run on a node gave back.
#include <QByteArray>

namespace TrainDesk {

struct ExecResult
{
    int exitCode = -1;
    QByteArray stdOut;
    QByteArray stdErr;
};

} // namespace TrainDesk
