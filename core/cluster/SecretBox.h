#pragma once

#include "common/Result.h"

#include <QString>

namespace TrainDesk {

// Keeps secrets (SSH passwords, key passphrases) out of the database in clear: they are
// encrypted with a random key kept in the data directory (secret.key, mode 0600) and
// authenticated, so a copied database alone reveals nothing and tampering is detected.
// This protects against a leaked database or backup, not against someone who can read
// the user's whole data directory.
namespace SecretBox {

QString keyPath();
// "v1:<base64(nonce | ciphertext | tag)>"; an empty secret stays empty.
Result<QString> seal(const QString &secret);
Result<QString> open(const QString &sealed);

} // namespace SecretBox
} // namespace TrainDesk
