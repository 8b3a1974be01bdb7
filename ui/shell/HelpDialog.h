// HelpDialog: Help ▸ What Am I Looking At?, the plain-words explanation of the window, the chosen
// filter and variant, and every number the timing panel shows.
#pragma once

#include <QDialog>
#include <QString>

namespace fwb {

struct FilterSpec;
struct VariantSpec;

class HelpDialog : public QDialog
{
    Q_OBJECT

public:
    // filter, variant: what the controls show now; either may be null.
    HelpDialog(const FilterSpec *filter, const VariantSpec *variant, QWidget *parent = nullptr);

    static QString helpHtml(const FilterSpec *filter, const VariantSpec *variant);
};

} // namespace fwb
