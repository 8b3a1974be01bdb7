// Box blurs (seed 001 interior launches, full-image naive/separable/sliding), separable Gaussian, Sobel.
#include "../Catalogue.h"

namespace fwb {

void registerBoxSeparableSobel(std::vector<FilterSpec> &out)
{
    (void)out; // families land here (issue 4)
}

} // namespace fwb
