#pragma once

#include "common/Result.h"

#include <QString>

namespace TrainDesk {

class Transport;

namespace SshKeys {

struct KeyPair
{
    QString privateKeyPath;  // mode 0600
    QString publicKeyLine;   // "ssh-ed25519 AAAA... comment", as authorized_keys takes it
};

// TrainDesk's key for logging in to nodes: <data dir>/ssh/id_ed25519 (and .pub),
// made on first use and reused after.
QString defaultKeyPath();
Result<KeyPair> ensureKeyPair(const QString &privateKeyPath = defaultKeyPath(),
                              const QString &comment = QStringLiteral("traindesk"));
// Makes a new ed25519 key pair at `privateKeyPath` (replacing one that is there).
Result<KeyPair> generateKeyPair(const QString &privateKeyPath, const QString &comment);

// What ssh-copy-id does: adds the key to ~/.ssh/authorized_keys on the node unless it is
// there, with the permissions sshd insists on.
QString deployCommand(const QString &publicKeyLine);
VoidResult deployPublicKey(Transport &transport, const QString &publicKeyLine);

// The reverse: removes the lines of ~/.ssh/authorized_keys that are exactly `publicKeyLine`
// (as deployCommand wrote it; a line with options or another comment is the user's and
// stays), under the same lock, keeping the file's owner and mode. Prints how many went.
QString removeCommand(const QString &publicKeyLine);
// The number of lines removed (0 when the key was not there).
Result<int> removePublicKey(Transport &transport, const QString &publicKeyLine);

} // namespace SshKeys
} // namespace TrainDesk
