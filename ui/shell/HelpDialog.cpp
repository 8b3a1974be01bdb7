// HelpDialog: the help text (what the filter, the variant and each number mean) in a text browser.
#include "HelpDialog.h"
#include "UiText.h"

#include "Catalogue.h"

#include <QDialogButtonBox>
#include <QTextBrowser>
#include <QVBoxLayout>

namespace fwb {

HelpDialog::HelpDialog(const FilterSpec *filter, const VariantSpec *variant, QWidget *parent)
    : QDialog(parent)
{
    setWindowTitle(tr("What am I looking at?"));
    auto *layout = new QVBoxLayout(this);
    auto *browser = new QTextBrowser(this);
    browser->setHtml(helpHtml(filter, variant));
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::close);
    layout->addWidget(browser);
    layout->addWidget(buttons);
    resize(640, 620);
}

QString HelpDialog::helpHtml(const FilterSpec *f, const VariantSpec *v)
{
    QString html = tr("<h2>What am I looking at?</h2>");
    html += tr("<p>The left picture is your <b>original</b>. The right picture is the same image after "
               "a <b>filter</b> ran on the chosen <b>device</b> (a graphics card or the processor, "
               "through OpenCL). Every run is checked against plain, slow C++ code on the processor — "
               "the <b>CPU reference</b>.</p>");
    if (f)
        html += tr("<h3>The filter: %1</h3><p>%2</p>").arg(q(f->title).toHtmlEscaped(), q(f->description).toHtmlEscaped());
    if (v) {
        html += tr("<h3>The variant: %1</h3><p>%2</p>").arg(q(v->title).toHtmlEscaped(), q(v->description).toHtmlEscaped());
        if (!v->seedNote.empty())
            html += tr("<p><i>What was measured before:</i> %1</p>").arg(q(v->seedNote).toHtmlEscaped());
        html += tr("<p>All variants compute the same picture. They differ only in <i>how</i> the work "
                   "is laid out for the device, which is why their times differ.</p>");
    }
    html += tr("<h3>The numbers</h3><ul>"
               "<li><b>Build</b>: turning the kernel's source text into device code. Paid once; "
               "later runs take the program from a cache.</li>"
               "<li><b>Upload</b> / <b>Download</b>: copying the picture to the device and the result "
               "back. On a graphics card this trip can cost more than the filter itself.</li>"
               "<li><b>Kernel time</b>: the filter itself, measured by the device's own clock; the "
               "middle value (median) of the repeats, after one untimed warm-up.</li>"
               "<li><b>Mpix/s</b>: millions of pixels filtered per second.</li>"
               "<li><b>GB/s</b>: bytes the filter must read and write, per second. Compared with the "
               "device's copy speed it says how close the filter is to the memory's limit.</li>"
               "<li><b>Speed-up</b>: CPU reference time divided by kernel time; 10× means ten times "
               "faster than the processor with one thread (or with all its threads), and below 1× the "
               "device was slower.</li>"
               "<li><b>Matches CPU reference</b>: the largest per-pixel difference; a difference of 1 "
               "is rounding, allowed by the filter's tolerance.</li>"
               "<li><b>Work-group</b>: how many pixels one group of device threads handles together "
               "(e.g. 16×16). Some shapes are faster; some are too big for the device and are "
               "refused with the reason.</li></ul>"
               "<h3>Views</h3><p><b>Side by side</b> shows both pictures with the same zoom; the "
               "original is shown in the pixel format the filter reads (gray8 shows it in gray). A "
               "transposed result is shown turned, and zoom and pan follow it. "
               "<b>Split</b> lays the result over the original; drag the white divider. "
               "<b>Difference</b> paints where the result differs from the CPU reference: black is "
               "identical, red to white is different. Zoomed out, each dot keeps the largest "
               "difference under it, so even one differing pixel shows.</p>");
    return html;
}

} // namespace fwb
