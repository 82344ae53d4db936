#include "KeyFileCheck.h"

#include <QFile>

#include <sys/stat.h>

namespace TrainDesk {

VoidResult checkPrivateKeyFile(const QString &path)
{
    struct stat st{};
    if (path.isEmpty() || ::stat(QFile::encodeName(path).constData(), &st) != 0 || S_ISREG(st.st_mode))
        return {};
    QString what;
    if (S_ISDIR(st.st_mode))
        what = QStringLiteral("a folder");
    else if (S_ISFIFO(st.st_mode))
        what = QStringLiteral("a FIFO (named pipe; reading it could wait forever)");
    else if (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode))
        what = QStringLiteral("a device");
    else if (S_ISSOCK(st.st_mode))
        what = QStringLiteral("a socket");
    else
        what = QStringLiteral("not a regular file");
    return fail(QStringLiteral("the SSH key %1 is %2, not a private key file: give the key file itself "
                               "(e.g. ~/.ssh/id_ed25519)")
                    .arg(path, what));
}

} // namespace TrainDesk
