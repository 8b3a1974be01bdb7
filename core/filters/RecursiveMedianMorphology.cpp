// Recursive (IIR) Gaussian with transposes, transpose as an operation, median, erode/dilate.
#include "../Catalogue.h"

namespace fwb {

void registerRecursiveMedianMorphology(std::vector<FilterSpec> &out)
{
    (void)out; // families land here (issue 4)
}

} // namespace fwb
