#pragma once

#include <QWidget>

// The child of `parent` named `name`; a missing one ends the test at once (it is the test's
// own mistake, not a finding).
template<typename T>
T *childNamed(QWidget *parent, const char *name)
{
    T *child = parent->findChild<T *>(QLatin1String(name));
    if (!child)
        qFatal("no child %s", name);
    return child;
}
