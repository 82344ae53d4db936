#include "SeriesPicker.h"

#include "metrics/ScalarSeriesIndex.h"

namespace TrainDesk::Ui {

SeriesPicker::SeriesPicker(const QString &ownSeries, const QString &word, QWidget *parent)
    : QComboBox(parent), m_word(word)
{
    addItem(ownSeries, QString());
    // A fixed width (the list shows names whole): the charts' controls fit a narrow window.
    setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    setMinimumContentsLength(11);
    updateToolTip();
    connect(this, &QComboBox::activated, this, [this] { m_userChose = true; });
}

void SeriesPicker::refresh(const ScalarSeriesIndex &index, bool hasOwn)
{
    const QStringList keys = index.keys();
    QString chosen = chosenKey();
    if (!m_userChose && !hasOwn && chosen.isEmpty())
        chosen = index.find(m_word);
    // Series only come: the items are appended, the chosen one kept.
    for (qsizetype i = count() - 1; i < keys.size(); ++i) {
        addItem(index.label(keys.at(i)), keys.at(i));
        setItemData(count() - 1, index.file(keys.at(i)), Qt::ToolTipRole);
    }
    setEnabled(count() > 1);
    updateToolTip();
    choose(chosen);
}

void SeriesPicker::updateToolTip()
{
    // Disabled, it says why: a user who looks for the learning rate learns the job has none.
    setToolTip(count() > 1 ? tr("The series this chart draws: its own, or any other the job stored (learning rate, "
                                "images/s, TensorBoard tags, progress lines)")
                           : tr("Nothing else to draw: the job stored no series besides %1 (no learning rate, "
                                "images/s, TensorBoard tags or progress lines yet)").arg(itemText(0).toLower()));
}

QString SeriesPicker::chosenKey() const
{
    return currentData().toString();
}

void SeriesPicker::choose(const QString &key)
{
    const int i = findData(key);
    setCurrentIndex(i < 0 ? 0 : i);
}

} // namespace TrainDesk::Ui
