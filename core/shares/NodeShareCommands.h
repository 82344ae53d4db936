#pragma once

#include "common/Result.h"
#include "transport/Transport.h"

#include <QString>

namespace TrainDesk::NodeShareCommands {

// Shell text (POSIX sh, GNU coreutils and findutils) that works on a share's files on a node
// the way LocalShareFiles does here: SFTP has no openat, so each command first walks into
// the folder one component at a time, refusing a link (`[ -L ]`) and checking after each
// `cd` that the folder entered is the one looked at (device and inode), so a name swapped
// for a link at any moment fails the walk instead of leading out. Everything after that
// happens relative to the folder entered. Exit codes: 3 a link on the way (its name on
// stderr), 4 a failed step (stderr says which), 5 no such file or folder, 6 a folder where a
// file goes.
constexpr int linkOnTheWay = 3;
constexpr int stepFailed = 4;
constexpr int missing = 5;
constexpr int folderInTheWay = 6;

// Enters `root`/`relative` ('/'-separated, no ".."), making missing folders when `create`.
QString enter(const QString &root, const QString &relative, bool create);
// Prints the node user's private staging folder (made 0700 when missing; refused when
// another user owns it or others may write it): uploads are written there, by name, and
// moved into the share by placeCommand.
QString stagingFolderCommand();
// Moves the staged file `staged` into the folder as the part file `partName` (a copy when
// the staging folder is on another file system).
QString moveInCommand(const QString &root, const QString &relative, const QString &staged, const QString &partName);
// Renames the part file `partName` of the folder over `name` (exit 6 when `name` is a folder).
QString commitCommand(const QString &root, const QString &relative, const QString &partName, const QString &name);
// Writes the bytes of the regular file `relative` to stdout, opened once and checked to be
// the file of that name in the folder entered (not a link, nor one swapped in).
QString readCommand(const QString &root, const QString &relative);
// The folder's entries, links as links: "<type>/<size>/<mtime>/<name>/<link target>\0" each.
QString listCommand(const QString &root, const QString &relative);
Result<QList<RemoteFileInfo>> parseList(const QByteArray &output);
// Removes `relative` (a link itself, never what it points to; a folder with what it holds).
QString removeCommand(const QString &root, const QString &relative);
// Runs `body` in the folder entered (the upload lock's commands).
QString inFolder(const QString &root, const QString &relative, const QString &body);

// Why a command above failed with `result`, on `path`: "'<path>' passes through the link
// <name>: ...", "no file or folder <path>", "<path> is a folder: ...", or what it said.
QString reason(const QString &path, const ExecResult &result);

} // namespace TrainDesk::NodeShareCommands
