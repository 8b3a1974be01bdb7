// ChartViews: the one look of the workbench's Qt Charts (the timing history, the sweep, the duel): narrow
// margins around the chart, an antialiased view with an object name for the tests and a least height.
#pragma once

#include <QString>

class QChart;
class QChartView;
class QWidget;

namespace fwb {

// The view showing `chart` (which it owns from now on), named objectName, at least minimumHeight tall.
QChartView *createChartView(QChart *chart, const QString &objectName, int minimumHeight, QWidget *parent);

} // namespace fwb
