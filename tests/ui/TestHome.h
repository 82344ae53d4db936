#pragma once

#include <QCoreApplication>
#include <QDir>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>

// A data directory of the test's own (TRAINDESK_HOME) and settings that do not touch the
// user's: construct one in initTestCase, before any Store, Backend or QSettings.
class TestHome
{
public:
    TestHome()
    {
        QStandardPaths::setTestModeEnabled(true);
        qputenv("TRAINDESK_HOME", m_dir.path().toUtf8());
        QCoreApplication::setOrganizationName(QStringLiteral("TrainDeskTest"));
        QCoreApplication::setApplicationName(QStringLiteral("TrainDeskTest"));
        QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, m_dir.filePath(QStringLiteral("settings")));
        QSettings::setDefaultFormat(QSettings::NativeFormat);
    }
    bool isValid() const { return m_dir.isValid(); }
    QString path() const { return m_dir.path(); }
    QString filePath(const QString &name) const { return m_dir.filePath(name); }

private:
    QTemporaryDir m_dir;
};
