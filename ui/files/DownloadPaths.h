#pragma once

#include <QString>

namespace TrainDesk::Ui {

// Where downloaded job files go on this machine. Widget-free so the rules are tested alone.
namespace DownloadPaths {

// The folder the download dialog opens first: the last one chosen, else
// <the desktop's Downloads folder>/TrainDesk. Kept in QSettings ("downloads/folder").
QString baseFolder();
void setBaseFolder(const QString &folder);
// Where a folder dialog for downloads opens: baseFolder(), else the nearest folder above it
// that exists, else the home folder. A dialog opened on a missing folder cannot choose
// (a user without ~/Downloads could not download).
QString dialogFolder();

// A job's own folder below `base`: <base>/<workspace>/<experiment>/<job>. Names are unique
// on each level (the Store's rules), so two jobs never share a folder. Job names follow
// Batch AI's rules (no '/'), but a name is still reduced to one path segment here.
QString jobFolder(const QString &base, const QString &workspace, const QString &experiment, const QString &job);

// The first name that does not exist yet beside `path`: "model.h5" -> "model (2).h5",
// "model (3).h5", ...; ".tar.gz" stays whole ("data (2).tar.gz").
QString freePathFor(const QString &path);

} // namespace DownloadPaths
} // namespace TrainDesk::Ui
