// Box blurs (seed 001 interior launches, full-image naive/separable/sliding), separable Gaussian, Sobel.
#include "BoxSeparableSobel.h"

namespace fwb {

void registerBoxSeparableSobel(std::vector<FilterSpec> &out)
{
    registerBoxFilters(out);
    registerGaussianSeparable(out);
    registerSobel(out);
}

} // namespace fwb
