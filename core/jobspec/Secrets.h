#pragma once

#include "JobSpec.h"
#include "common/Result.h"

#include <QByteArray>
#include <QString>

#include <functional>

namespace TrainDesk {

// The key that seals a job's secret values before the spec goes into the database: 32
// random bytes in a file only its owner may read, beside the database. A sealed value is
// "traindesk-sealed:v1:" + base64(nonce | AES-256-GCM ciphertext | tag).
class SecretKey
{
public:
    // Reads the key at `path`, creating it (mode 0600) when there is none.
    static Result<SecretKey> loadOrCreate(const QString &path);
    // The key file that belongs to a database.
    static QString pathFor(const QString &databasePath);

    Result<QString> seal(const QString &plain) const;
    Result<QString> unseal(const QString &sealed) const;

private:
    QByteArray m_key;
};

namespace Secrets {

bool isSealed(const QString &value);

// Calls `visit` with the JSON path and the value of every secret the spec holds:
// secrets[].value, the storage account keys of mountVolumes and the registry password.
void forEach(JobSpec &spec, const std::function<void(const QString &path, QString &value)> &visit);
QStringList values(const JobSpec &spec);

// Every secret value sealed with `key` (values sealed already are left as they are).
Result<JobSpec> seal(const JobSpec &spec, const SecretKey &key);
// Every sealed value opened; fails naming the path when one cannot be.
Result<JobSpec> unseal(const JobSpec &spec, const SecretKey &key);
// Every secret value replaced by "<secret>", for showing a spec.
JobSpec redacted(const JobSpec &spec);

// The job.json text to store: `text` itself when it holds no secret in clear, else the spec
// written back with every secret sealed.
Result<QByteArray> sealedText(const QByteArray &text, const JobSpec &spec, const SecretKey &key);

// For the store of `databasePath` (its key beside it, made on first use): the text with every
// secret sealed, and a stored spec with every secret opened. No key is read or made for a
// spec without secrets.
Result<QByteArray> sealForStore(const QByteArray &text, const JobSpec &spec, const QString &databasePath);
Result<JobSpec> openFromStore(const JobSpec &spec, const QString &databasePath);

} // namespace Secrets
} // namespace TrainDesk
