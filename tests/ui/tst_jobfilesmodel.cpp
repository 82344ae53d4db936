// JobFilesModel: rows updated in place by directory and path.
#include "files/JobFilesModel.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTest>

using namespace TrainDesk;
using namespace TrainDesk::Ui;

namespace {

JobFile file(const QString &dir, const QString &path, qint64 size)
{
    return {dir, path, QStringLiteral("/jobs/x/") + dir + QLatin1Char('/') + path, size,
            QDateTime(QDate(2024, 1, 2), QTime(3, 4, 5), Qt::UTC)};
}

} // namespace

class TestJobFilesModel : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void updatesInPlace()
    {
        JobFilesModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setFiles({file(QStringLiteral("stdouterr"), QStringLiteral("stdout.txt"), 10),
                        file(QStringLiteral("MODEL"), QStringLiteral("saved_models/model.onnx"), 2048)});
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(model.columnCount(), 5);
        QCOMPARE(model.index(1, JobFilesModel::NameColumn).data().toString(), QStringLiteral("saved_models/model.onnx"));
        QCOMPARE(model.index(1, JobFilesModel::DirectoryColumn).data().toString(), QStringLiteral("MODEL"));
        QCOMPARE(model.index(1, JobFilesModel::KindColumn).data().toString(), QStringLiteral("output"));
        QCOMPARE(model.checkpointCount(), 0);
        QCOMPARE(model.index(1, JobFilesModel::SizeColumn).data(JobFilesModel::SortRole).toLongLong(), 2048);
        QVERIFY(model.index(1, JobFilesModel::SizeColumn).data().toString().contains(QStringLiteral("2")));
        QCOMPARE(model.index(0, 0).data(JobFilesModel::RemotePathRole).toString(), QStringLiteral("/jobs/x/stdouterr/stdout.txt"));

        const QPersistentModelIndex stdoutRow(model.index(0, 0));
        QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
        QSignalSpy removed(&model, &QAbstractItemModel::rowsRemoved);
        // stdout grew, the model file went, a checkpoint came.
        model.setFiles({file(QStringLiteral("stdouterr"), QStringLiteral("stdout.txt"), 99),
                        file(QStringLiteral("MODEL"), QStringLiteral("checkpoints/ckpt-1"), 5)});
        QCOMPARE(reset.count(), 0);
        QCOMPARE(changed.count(), 1);
        QCOMPARE(inserted.count(), 1);
        QCOMPARE(removed.count(), 1);
        QVERIFY(stdoutRow.isValid());
        QCOMPARE(stdoutRow.row(), 0);
        QCOMPARE(model.fileAt(0).size, 99);
        QCOMPARE(model.fileAt(1).path, QStringLiteral("checkpoints/ckpt-1"));
        // Checkpoints are told apart from the model (issue #43: "Download all" took them all).
        QCOMPARE(model.index(0, JobFilesModel::KindColumn).data().toString(), QStringLiteral("log"));
        QCOMPARE(model.index(1, JobFilesModel::KindColumn).data().toString(), QStringLiteral("checkpoint"));
        QVERIFY(model.isCheckpointAt(1));
        QCOMPARE(model.checkpointCount(), 1);

        changed.clear();
        model.setFiles(model.files());
        QCOMPARE(changed.count(), 0);
        model.setFiles({});
        QCOMPARE(model.rowCount(), 0);
    }
};

QTEST_MAIN(TestJobFilesModel)
#include "tst_jobfilesmodel.moc"
