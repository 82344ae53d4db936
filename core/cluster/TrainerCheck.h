#pragma once

#include "common/Result.h"

#include <QMap>
#include <QString>
#include <QStringList>

namespace TrainDesk {

class Transport;

// Whether the trainer runs on a node, and when it does not for want of shared libraries,
// which ones and the Debian/Ubuntu packages that provide them (those this machine's copy
// of the trainer was built against: the same distribution is the common case).
namespace TrainerCheck {

struct Outcome
{
    bool runs = false;
    QString version;                // the first line of `--version` when it runs
    QString error;                  // what it printed when it did not
    QStringList missingLibraries;   // sonames: ldd's "not found" and the loader's error
    QMap<QString, QString> packages;  // soname -> package ("" when this machine does not know)
    // `--gpu-info` when it runs: whether a GPU is usable, and its lines (the GPUs or why
    // none is usable; which driver and CUDA libraries it found, or where it looked).
    bool gpuUsable = false;
    QStringList gpuInfo;

    // The missing packages, each once, in library order.
    QStringList packageNames() const;
    // "libdnnl.so.2 (package libdnnl2), libfoo.so.1 (package unknown)"
    QString missingText() const;
};

// Runs `path --version` on the node (and ldd when that fails, `path --gpu-info` when not).
Result<Outcome> run(Transport &transport, const QString &path);

// The Debian/Ubuntu package that holds each of `libraries` here (dpkg-query -S), "" when
// none does or this machine has no dpkg.
QMap<QString, QString> debianPackages(const QStringList &libraries);

// Installs `packages` on the node with apt-get through `sudo -n` (no password asked);
// fails saying so when the node's user may not use sudo that way.
VoidResult installPackages(Transport &transport, const QString &nodeName, const QStringList &packages);

} // namespace TrainerCheck
} // namespace TrainDesk
