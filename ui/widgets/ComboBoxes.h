// ComboBoxes: picking a combo box's item by the data it carries (a device spec, a filter name, a
// parameter key), the one way the panels and pages select what a caller names.
#pragma once

#include <QComboBox>
#include <QVariant>

namespace fwb {

// Makes the item whose data is `data` current; false (and the selection unchanged) when none carries it.
inline bool selectByData(QComboBox *box, const QVariant &data)
{
    const int index = box->findData(data);
    if (index < 0)
        return false;
    box->setCurrentIndex(index);
    return true;
}

} // namespace fwb
