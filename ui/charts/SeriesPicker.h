#pragma once

#include <QComboBox>

namespace TrainDesk {
class ScalarSeriesIndex;
}

namespace TrainDesk::Ui {

// What one chart draws: its own series (loss, or accuracy) or any other series the job
// stored (the trainer's learning rate and images/s, a TensorBoard tag, ...). Until the user picks one,
// a job without its own train series shows the first named series whose name holds the
// chart's word ("loss", "acc"), so a PyTorch or TensorBoard job is charted at once.
class SeriesPicker : public QComboBox
{
    Q_OBJECT

public:
    SeriesPicker(const QString &ownSeries, const QString &word, QWidget *parent = nullptr);

    // Offers the index's series (kept as chosen when they stay); `hasOwn`: whether the
    // chart's own series has points.
    void refresh(const ScalarSeriesIndex &index, bool hasOwn);
    // The key of the named series drawn, empty for the chart's own.
    QString chosenKey() const;
    void choose(const QString &key);  // empty: the chart's own

private:
    void updateToolTip();

    QString m_word;
    bool m_userChose = false;
};

} // namespace TrainDesk::Ui
