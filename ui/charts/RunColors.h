#pragma once

#include <QColor>
#include <QHash>
#include <QObject>

namespace TrainDesk::Ui {

// The colours users chose for runs (kept with the run's tags and note, store/RunNotes), for
// this process: ChartLines::runColor() asks here first, so the runs table's swatch, the
// overlaid charts of any view and the runs plots draw a run in the same chosen colour.
// changed() tells the views to draw again.
class RunColors : public QObject
{
    Q_OBJECT

public:
    static RunColors *instance();

    // None (invalid) when the run has the automatic colour.
    QColor chosen(qint64 jobId) const { return m_colors.value(jobId); }
    // An invalid colour goes back to the automatic one.
    void setChosen(qint64 jobId, const QColor &color);
    // The colours as stored ("#rrggbb" by job id) for `jobIds`: those not in `colors` go
    // back to automatic. With no ids, every run's colour is replaced.
    void setStored(const QHash<qint64, QString> &colors, const QList<qint64> &jobIds = {});

Q_SIGNALS:
    void changed();

private:
    QHash<qint64, QColor> m_colors;
};

} // namespace TrainDesk::Ui
