#pragma once

#include "common/Result.h"

#include <QByteArray>
#include <QString>

namespace TrainDesk {

// A host's public key as the server sent it: its type and its wire blob.
struct HostKey
{
    QString type;     // ssh-ed25519, ecdsa-sha2-nistp256, ssh-rsa, ...
    QByteArray blob;  // the raw key blob (base64-decoded form of the known_hosts field)

    QString fingerprint() const;  // "SHA256:<base64 without padding>", as OpenSSH prints it
};

// TrainDesk's own known_hosts file (in the data directory, OpenSSH's format, so it can be
// read and edited by hand), separate from ~/.ssh/known_hosts: trusting a host for
// TrainDesk does not change what ssh trusts, and the reverse.
class KnownHosts
{
public:
    // Revoked: a "@revoked" line names the key; it is refused even where it is also trusted.
    enum class Match { Known, Unknown, Changed, Revoked };
    struct Verdict
    {
        Match match = Match::Unknown;
        QString storedType;         // for Changed: the key TrainDesk had (Revoked: the key)
        QString storedFingerprint;
        QString note;               // e.g. a @cert-authority line that was skipped, and why
    };

    explicit KnownHosts(const QString &path);

    QString path() const { return m_path; }
    Verdict check(const QString &host, int port, const HostKey &key) const;
    // The keys on record for the host (to hand on to the head node's own known_hosts).
    QList<HostKey> keys(const QString &host, int port) const;
    // Appends the key; safe against other threads and processes doing the same.
    VoidResult add(const QString &host, int port, const HostKey &key);

    // "host" for port 22, else "[host]:port": the file's host field.
    static QString hostPattern(const QString &host, int port);

private:
    QString m_path;
};

} // namespace TrainDesk
