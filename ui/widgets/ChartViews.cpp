// ChartViews: see ChartViews.h.
#include "ChartViews.h"

#include <QChart>
#include <QChartView>

namespace fwb {

QChartView *createChartView(QChart *chart, const QString &objectName, int minimumHeight, QWidget *parent)
{
    chart->setMargins(QMargins(4, 4, 4, 4));
    auto *view = new QChartView(chart, parent);
    view->setObjectName(objectName);
    view->setRenderHint(QPainter::Antialiasing);
    view->setMinimumHeight(minimumHeight);
    return view;
}

} // namespace fwb
