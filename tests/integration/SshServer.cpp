#include "SshServer.h"

#include "common/ShellQuote.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QRandomGenerator>
#include <QThread>

#include <arpa/inet.h>
#include <cerrno>
#include <csignal>
#include <netinet/in.h>
#include <pwd.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <unistd.h>

QString runTool(const QString &program, const QStringList &arguments, int timeoutMs)
{
    QProcess p;
    p.start(program, arguments);
    if (!p.waitForStarted(5000))
        return {};
    if (!p.waitForFinished(timeoutMs)) {
        p.kill();
        p.waitForFinished(2000);
        return {};
    }
    if (p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0)
        return {};
    const QString out = QString::fromUtf8(p.readAllStandardOutput());
    return out.isNull() ? QStringLiteral("") : out;  // empty output is success, not null
}

bool SshServer::isRoot() { return geteuid() == 0; }

QString SshServer::loginUser()
{
    const passwd *pw = getpwuid(geteuid());
    return pw ? QString::fromLocal8Bit(pw->pw_name) : QString::number(geteuid());
}

int SshServer::freePort(const QString &address)
{
    const int fd = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    inet_pton(AF_INET, address.toLatin1().constData(), &a.sin_addr);
    a.sin_port = 0;
    int port = 0;
    if (bind(fd, reinterpret_cast<sockaddr *>(&a), sizeof a) == 0) {
        socklen_t length = sizeof a;
        getsockname(fd, reinterpret_cast<sockaddr *>(&a), &length);
        port = ntohs(a.sin_port);
    }
    close(fd);
    return port;
}

bool SshServer::accepts(const QString &address, int port)
{
    const int fd = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    inet_pton(AF_INET, address.toLatin1().constData(), &a.sin_addr);
    a.sin_port = htons(quint16(port));
    const bool ok = ::connect(fd, reinterpret_cast<sockaddr *>(&a), sizeof a) == 0;
    close(fd);
    return ok;
}

SshServer::~SshServer() { stop(); }

QString SshServer::hostKeyPath() const { return m_dir + QStringLiteral("/host_key"); }

QString SshServer::hostKeyFingerprint() const
{
    const QString out = runTool(QStringLiteral("ssh-keygen"), {QStringLiteral("-l"), QStringLiteral("-E"),
                                                               QStringLiteral("sha256"), QStringLiteral("-f"),
                                                               hostKeyPath() + QStringLiteral(".pub")});
    return out.section(QLatin1Char(' '), 1, 1);
}

QString SshServer::log() const
{
    QFile f(m_dir + QStringLiteral("/sshd.log"));
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

bool SshServer::regenerateHostKey()
{
    QFile::remove(hostKeyPath());
    QFile::remove(hostKeyPath() + QStringLiteral(".pub"));
    if (runTool(QStringLiteral("ssh-keygen"), {QStringLiteral("-q"), QStringLiteral("-t"), m_options.hostKeyType,
                                               QStringLiteral("-N"), QString(), QStringLiteral("-f"), hostKeyPath()})
            .isNull()) {
        m_error = QStringLiteral("ssh-keygen failed");
        return false;
    }
    return true;
}

bool SshServer::writeConfig()
{
    QStringList lines{
        QStringLiteral("Port %1").arg(m_port),
        QStringLiteral("ListenAddress %1").arg(m_options.address),
        QStringLiteral("HostKey %1").arg(hostKeyPath()),
        QStringLiteral("PidFile %1/sshd.pid").arg(m_dir),
        QStringLiteral("PermitRootLogin yes"),
        QStringLiteral("StrictModes no"),
        QStringLiteral("UsePAM no"),
        QStringLiteral("PubkeyAuthentication yes"),
        QStringLiteral("PasswordAuthentication %1").arg(m_options.passwordAuthentication ? "yes" : "no"),
        QStringLiteral("KbdInteractiveAuthentication no"),
        QStringLiteral("Subsystem sftp %1").arg(m_options.sftpSubsystem),
        QStringLiteral("MaxSessions 64"),
        QStringLiteral("MaxStartups 64"),
        QStringLiteral("LogLevel VERBOSE"),
    };
    if (!m_options.authorizedKeysFile.isEmpty())
        lines << QStringLiteral("AuthorizedKeysFile %1").arg(m_options.authorizedKeysFile);
    lines += m_options.extraConfig;
    QFile f(m_dir + QStringLiteral("/sshd_config"));
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate))
        return false;
    f.write(lines.join(QLatin1Char('\n')).toUtf8() + '\n');
    return true;
}

bool SshServer::launch()
{
    // -D: stay in the foreground (so the test owns and kills it); -E: log to a file.
    const QStringList sshd{QStringLiteral("/usr/sbin/sshd"), QStringLiteral("-D"), QStringLiteral("-f"),
                           m_dir + QStringLiteral("/sshd_config"), QStringLiteral("-E"), m_dir + QStringLiteral("/sshd.log")};
    if (m_options.privateFolder.isEmpty()) {
        m_process.setProgram(sshd.first());
        m_process.setArguments(sshd.mid(1));
    } else {
        // unshare and sh exec into sshd, so the process the test holds is sshd itself.
        QDir().mkpath(m_options.privateFolder);
        // Not root: the mount is made as root of a user namespace of its own, and sshd runs
        // in a second one that maps the user back to itself (an sshd that thinks it is root
        // would switch to its privilege separation user, which is not mapped).
        QStringList server = sshd;
        QStringList unshare{QStringLiteral("--mount"), QStringLiteral("--propagation"), QStringLiteral("private")};
        if (!isRoot()) {
            unshare.prepend(QStringLiteral("--map-root-user"));
            unshare.prepend(QStringLiteral("--user"));
            server = QStringList{QStringLiteral("unshare"), QStringLiteral("--user"),
                                 QStringLiteral("--map-user=%1").arg(geteuid()), QStringLiteral("--map-group=%1").arg(getegid())}
                     + sshd;
        }
        m_process.setProgram(QStringLiteral("unshare"));
        m_process.setArguments(unshare
                               + QStringList{QStringLiteral("/bin/sh"), QStringLiteral("-c"),
                                             QStringLiteral("mount -t tmpfs -o mode=1777 traindesk-test %1 && exec %2")
                                                 .arg(TrainDesk::shellQuote(m_options.privateFolder), TrainDesk::shellJoin(server))});
    }
    m_process.setProcessChannelMode(QProcess::MergedChannels);
    // The server goes when the test goes, even if the test crashes or is killed.
    m_process.setChildProcessModifier([] { prctl(PR_SET_PDEATHSIG, SIGTERM); });
    m_process.start();
    if (!m_process.waitForStarted(5000)) {
        m_error = QStringLiteral("sshd does not start: %1").arg(m_process.errorString());
        return false;
    }
    QElapsedTimer timer;
    timer.start();
    while (timer.elapsed() < 10000) {
        if (m_process.state() != QProcess::Running) {
            m_error = QStringLiteral("sshd exited: %1 %2").arg(QString::fromUtf8(m_process.readAll()), log());
            return false;
        }
        if (accepts(m_options.address, m_port))
            return true;
        QThread::msleep(20);
    }
    m_error = QStringLiteral("sshd does not accept connections within 10 s: %1").arg(log());
    stop();
    return false;
}

bool SshServer::start(const QString &directory, const Options &options)
{
    m_dir = directory;
    m_options = options;
    QDir().mkpath(m_dir);
    if (isRoot())
        QDir().mkpath(QStringLiteral("/run/sshd"));  // sshd's privilege separation directory
    if (!QFile::exists(hostKeyPath()) && !regenerateHostKey())
        return false;
    for (int attempt = 0; attempt < 5; ++attempt) {
        m_port = freePort(m_options.address);
        if (m_port <= 0) {
            m_error = QStringLiteral("no free port on %1").arg(m_options.address);
            return false;
        }
        if (!writeConfig()) {
            m_error = QStringLiteral("cannot write the sshd config");
            return false;
        }
        if (launch())
            return true;
    }
    return false;
}

bool SshServer::start(const QString &directory) { return start(directory, Options()); }

void SshServer::dropConnections()
{
    const qint64 parent = m_process.processId();
    if (parent <= 0)
        return;
    const QDir proc(QStringLiteral("/proc"));
    for (const QString &entry : proc.entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        bool isPid = false;
        const qint64 pid = entry.toLongLong(&isPid);
        if (!isPid)
            continue;
        QFile stat(proc.filePath(entry + QStringLiteral("/stat")));
        if (!stat.open(QIODevice::ReadOnly))
            continue;
        // Fields after the command name, which is in parentheses: state, ppid, ...
        const QByteArray text = stat.readAll();
        const QList<QByteArray> fields = text.mid(text.lastIndexOf(')') + 2).split(' ');
        if (fields.size() > 1 && fields.at(1).toLongLong() == parent)
            ::kill(pid_t(pid), SIGKILL);
    }
}

bool SshServer::restart()
{
    stop();
    return launch();
}

void SshServer::stop()
{
    if (m_process.state() == QProcess::NotRunning)
        return;
    m_process.terminate();
    if (!m_process.waitForFinished(5000)) {
        m_process.kill();
        m_process.waitForFinished(5000);
    }
    // The listening socket is gone with the process; sessions it forked end with it.
}

TestUser::~TestUser()
{
    if (!m_name.isEmpty())
        runTool(QStringLiteral("userdel"), {QStringLiteral("-f"), m_name}, 15000);
}

// Users left by a test run that was killed (its process is gone): removed.
static void removeStaleUsers()
{
    QFile passwd(QStringLiteral("/etc/passwd"));
    if (!passwd.open(QIODevice::ReadOnly))
        return;
    for (const QByteArray &line : passwd.readAll().split('\n')) {
        const QList<QByteArray> fields = line.split(':');
        if (fields.size() < 5 || !fields.at(0).startsWith("tdtest") || !fields.at(4).startsWith("traindesk test pid "))
            continue;
        const qint64 pid = fields.at(4).mid(int(qstrlen("traindesk test pid "))).toLongLong();
        if (pid > 0 && ::kill(pid_t(pid), 0) != 0 && errno == ESRCH)
            runTool(QStringLiteral("userdel"), {QStringLiteral("-f"), QString::fromUtf8(fields.at(0))}, 15000);
    }
}

bool TestUser::create(const QString &homeParent)
{
    removeStaleUsers();
    const quint32 suffix = QRandomGenerator::global()->bounded(100000u, 999999u);
    const QString name = QStringLiteral("tdtest%1").arg(suffix);
    const QString password = QStringLiteral("pw-%1-%2").arg(QRandomGenerator::global()->generate(), 0, 16).arg(suffix);
    // The home's parent must be traversable by the user (temporary folders are 0700).
    QFile::setPermissions(homeParent, QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner
                                          | QFileDevice::ReadGroup | QFileDevice::ExeGroup | QFileDevice::ReadOther
                                          | QFileDevice::ExeOther);
    const QString home = homeParent + QStringLiteral("/home-") + name;
    if (runTool(QStringLiteral("useradd"), {QStringLiteral("-m"), QStringLiteral("-d"), home, QStringLiteral("-s"),
                                            QStringLiteral("/bin/sh"), QStringLiteral("-c"),
                                            QStringLiteral("traindesk test pid %1").arg(getpid()), name})
            .isNull()) {
        m_error = QStringLiteral("useradd %1 failed").arg(name);
        return false;
    }
    m_name = name;
    m_home = home;
    QProcess chpasswd;
    chpasswd.start(QStringLiteral("chpasswd"), {});
    chpasswd.waitForStarted(5000);
    chpasswd.write(QStringLiteral("%1:%2\n").arg(name, password).toUtf8());
    chpasswd.closeWriteChannel();
    if (!chpasswd.waitForFinished(10000) || chpasswd.exitCode() != 0) {
        m_error = QStringLiteral("chpasswd failed: %1").arg(QString::fromUtf8(chpasswd.readAllStandardError()));
        return false;
    }
    m_password = password;
    return true;
}

bool TestAccount::create(const QString &homeParent)
{
    if (SshServer::isRoot())
        return m_user.create(homeParent);
    m_home = homeParent + QStringLiteral("/home-") + SshServer::loginUser();
    m_keyFile = homeParent + QStringLiteral("/account_key");
    if (!QDir().mkpath(m_home + QStringLiteral("/.ssh"))
        || runTool(QStringLiteral("ssh-keygen"), {QStringLiteral("-q"), QStringLiteral("-t"), QStringLiteral("ed25519"),
                                                  QStringLiteral("-N"), QString(), QStringLiteral("-f"), m_keyFile})
               .isNull()) {
        m_error = QStringLiteral("cannot make the test's key in %1").arg(homeParent);
        return false;
    }
    QFile pub(m_keyFile + QStringLiteral(".pub"));
    QFile keys(m_home + QStringLiteral("/.ssh/authorized_keys"));
    if (!pub.open(QIODevice::ReadOnly) || !keys.open(QIODevice::WriteOnly) || keys.write(pub.readAll()) < 0) {
        m_error = QStringLiteral("cannot write %1").arg(keys.fileName());
        return false;
    }
    keys.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    return true;
}

QString TestAccount::name() const { return SshServer::isRoot() ? m_user.name() : SshServer::loginUser(); }

QString TestAccount::home() const { return SshServer::isRoot() ? m_user.home() : m_home; }

void TestAccount::configure(SshServer::Options &options) const
{
    if (SshServer::isRoot())
        return;
    options.authorizedKeysFile = m_home + QStringLiteral("/.ssh/authorized_keys");
    // sshd takes the first SetEnv line only: HOME joins it.
    for (QString &line : options.extraConfig) {
        if (line.startsWith(QLatin1String("SetEnv "))) {
            line += QStringLiteral(" HOME=") + m_home;
            return;
        }
    }
    options.extraConfig << QStringLiteral("SetEnv HOME=") + m_home;
}
