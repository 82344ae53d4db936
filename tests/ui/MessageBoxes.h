#pragma once

#include <QAbstractButton>
#include <QMessageBox>
#include <QTest>

// Answers an open question as a user would: clicks the button with this text (its '&'
// left out). Fails the test when the box or the button is missing.
inline void answerQuestion(QMessageBox *box, const QString &button)
{
    QVERIFY(box);
    for (QAbstractButton *b : box->buttons()) {
        if (b->text().remove(QLatin1Char('&')) == button) {
            b->click();
            return;
        }
    }
    QFAIL(qPrintable(QStringLiteral("no button %1").arg(button)));
}
