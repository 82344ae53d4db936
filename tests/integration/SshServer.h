#pragma once

#include <QProcess>
#include <QString>
#include <QStringList>

// A real OpenSSH server for one test: its own host key, config and port on a loopback
// address, started with `sshd -D` and killed when the object goes.
class SshServer
{
public:
    struct Options
    {
        QString address = QStringLiteral("127.0.0.1");
        bool passwordAuthentication = false;
        // Empty: each user's ~/.ssh/authorized_keys (what key deployment writes to).
        QString authorizedKeysFile;
        QString hostKeyType = QStringLiteral("ed25519");
        QStringList extraConfig;
        // The SFTP server and its arguments ("internal-sftp -l INFO" logs each file's bytes read).
        QString sftpSubsystem = QStringLiteral("internal-sftp");
        // A folder this server (and all it starts) sees as an empty tmpfs of its own, in a
        // mount namespace of its own: a disk of this node that the other nodes do not see.
        // Not as root, this needs unprivileged user namespaces.
        QString privateFolder;
    };

    SshServer() = default;
    ~SshServer();
    SshServer(const SshServer &) = delete;
    SshServer &operator=(const SshServer &) = delete;

    // Writes the config and host key under `directory` and starts the server on a free
    // port; false (with error()) when it does not come up within 10 s.
    bool start(const QString &directory, const Options &options);
    bool start(const QString &directory);
    void stop();
    // Same port and config; the host key stays unless regenerateHostKey() was called.
    bool restart();
    bool regenerateHostKey();
    // Kills the server's connection processes (its children), as a crash or a reboot of
    // the node would: clients see their connections drop.
    void dropConnections();

    QString address() const { return m_options.address; }
    int port() const { return m_port; }
    QString hostKeyPath() const;
    // OpenSSH's own fingerprint of the host key ("SHA256:..."), to check ours against.
    QString hostKeyFingerprint() const;
    QString error() const { return m_error; }
    QString log() const;

    static bool isRoot();
    // The user these servers let in with a key: root when the test runs as root, otherwise
    // the user running it (an sshd that is not root can only log in its own user).
    static QString loginUser();
    // A free TCP port on `address` (bound and released).
    static int freePort(const QString &address);
    // True when something accepts TCP connections on address:port.
    static bool accepts(const QString &address, int port);

private:
    bool writeConfig();
    bool launch();

    Options m_options;
    QString m_dir;
    int m_port = 0;
    QProcess m_process;
    QString m_error;
};

// A throwaway Unix user with a known password and a home of its own, for password
// logins and key deployment into ~/.ssh/authorized_keys; removed at the end.
class TestUser
{
public:
    ~TestUser();
    bool create(const QString &homeParent);
    QString name() const { return m_name; }
    QString password() const { return m_password; }
    QString home() const { return m_home; }
    QString error() const { return m_error; }

private:
    QString m_name;
    QString m_password;
    QString m_home;
    QString m_error;
};

// Who the cluster tests log in as. As root: a throwaway user with a password (TestUser).
// As an ordinary user, whose sshd checks no passwords: that user with a key made for the
// test, authorized in a home of the test's own, which the servers (configure()) read the
// keys from and give the sessions as HOME, so that nothing lands in the user's own ~/.ssh.
class TestAccount
{
public:
    bool create(const QString &homeParent);
    QString name() const;
    QString password() const { return m_user.password(); }  // empty as an ordinary user
    QString keyFile() const { return m_keyFile; }           // empty as root
    QString home() const;
    QString error() const { return m_error.isEmpty() ? m_user.error() : m_error; }
    // Adds what the servers need for this account (nothing as root).
    void configure(SshServer::Options &options) const;

private:
    TestUser m_user;
    QString m_home;
    QString m_keyFile;
    QString m_error;
};

// Runs a program to the end (bounded); returns its stdout, or a null string on failure.
QString runTool(const QString &program, const QStringList &arguments, int timeoutMs = 30000);
