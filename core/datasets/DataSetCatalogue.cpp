#include "DataSetCatalogue.h"

namespace TrainDesk::DataSetCatalogue {

namespace {

// Addresses and MD5 checksums as their publishers list them:
// - CIFAR: https://www.cs.toronto.edu/~kriz/cifar.html (the table of versions and MD5 sums).
// - Fashion-MNIST: the "Get the Data" table of https://github.com/zalandoresearch/fashion-mnist.
//   The MD5 sums of the decompressed files are the ones dataset loaders check the unpacked
//   files against (e.g. the "raw_data" lists of Fashion-MNIST loaders for PyTorch and
//   Paddle); they are what `zcat FILE | md5sum` gives for the publisher's files and for
//   Debian's dataset-fashion-mnist (/usr/share/datasets/fashion-mnist), which compresses the
//   same contents again, so its .gz files have other MD5 sums.
// - MNIST: Yann LeCun's page lists no checksums; the MD5 sums below are the ones torchvision
//   checks its MNIST download against, and they agree across independent download scripts.
//   Its original address often refuses downloads now, so torchvision's copy on S3 follows it.
QList<DataSet> build()
{
    const QString toronto = QStringLiteral("https://www.cs.toronto.edu/~kriz/");
    const QString fashion = QStringLiteral("http://fashion-mnist.s3-website.eu-central-1.amazonaws.com/");
    QList<DataSet> sets;
    sets.append({QStringLiteral("cifar10"), QStringLiteral("CIFAR-10 (python version)"),
                 QStringLiteral("https://www.cs.toronto.edu/~kriz/cifar.html"), {toronto},
                 {{QStringLiteral("cifar-10-python.tar.gz"), QStringLiteral("c58f30108f718f92721af3b95e74349a")}},
                 QStringLiteral("cifar10")});
    sets.append({QStringLiteral("cifar10-binary"), QStringLiteral("CIFAR-10 (binary version)"),
                 QStringLiteral("https://www.cs.toronto.edu/~kriz/cifar.html"), {toronto},
                 {{QStringLiteral("cifar-10-binary.tar.gz"), QStringLiteral("c32a1d4ab5d03f1284b67883e8d87530")}},
                 QStringLiteral("cifar10")});
    sets.append({QStringLiteral("cifar100"), QStringLiteral("CIFAR-100 (python version)"),
                 QStringLiteral("https://www.cs.toronto.edu/~kriz/cifar.html"), {toronto},
                 {{QStringLiteral("cifar-100-python.tar.gz"), QStringLiteral("eb9058c3a382ffc7106e4002c42a8d85")}},
                 QStringLiteral("cifar100")});
    sets.append({QStringLiteral("fashion-mnist"), QStringLiteral("Fashion-MNIST"),
                 QStringLiteral("https://github.com/zalandoresearch/fashion-mnist"), {fashion},
                 {{QStringLiteral("train-images-idx3-ubyte.gz"), QStringLiteral("8d4fb7e6c68d591d4c3dfef9ec88bf0d"),
                   QStringLiteral("f4a8712d7a061bf5bd6d2ca38dc4d50a")},
                  {QStringLiteral("train-labels-idx1-ubyte.gz"), QStringLiteral("25c81989df183df01b3e8a0aad5dffbe"),
                   QStringLiteral("9018921c3c673c538a1fc5bad174d6f9")},
                  {QStringLiteral("t10k-images-idx3-ubyte.gz"), QStringLiteral("bef4ecab320f06d8554ea6380940ec79"),
                   QStringLiteral("8181f5470baa50b63fa0f6fddb340f0a")},
                  {QStringLiteral("t10k-labels-idx1-ubyte.gz"), QStringLiteral("bb300cfdad3c16e7a12a480ee83cd310"),
                   QStringLiteral("15d484375f8d13e6eb1aabb0c3f46965")}},
                 QStringLiteral("idx")});
    sets.append({QStringLiteral("mnist"), QStringLiteral("MNIST"), QStringLiteral("http://yann.lecun.com/exdb/mnist/"),
                 {QStringLiteral("http://yann.lecun.com/exdb/mnist/"), QStringLiteral("https://ossci-datasets.s3.amazonaws.com/mnist/")},
                 {{QStringLiteral("train-images-idx3-ubyte.gz"), QStringLiteral("f68b3c2dcbeaaa9fbdd348bbdeb94873")},
                  {QStringLiteral("train-labels-idx1-ubyte.gz"), QStringLiteral("d53e105ee54ea40749a09fcbcd1e9432")},
                  {QStringLiteral("t10k-images-idx3-ubyte.gz"), QStringLiteral("9fb629c4189551a2d022fa330f9573f3")},
                  {QStringLiteral("t10k-labels-idx1-ubyte.gz"), QStringLiteral("ec29112dd5afa0611ce80d1b7f02629c")}},
                 QStringLiteral("idx")});
    return sets;
}

} // namespace

QList<DataSet> all()
{
    static const QList<DataSet> sets = build();
    return sets;
}

const DataSet *find(const QString &name)
{
    static const QList<DataSet> sets = all();
    for (const DataSet &set : sets) {
        if (set.name == name)
            return &set;
    }
    return nullptr;
}

QString names()
{
    QStringList list;
    for (const DataSet &set : all())
        list << set.name;
    return list.join(QStringLiteral(", "));
}

} // namespace TrainDesk::DataSetCatalogue
