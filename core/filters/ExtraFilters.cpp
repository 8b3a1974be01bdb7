// Registration of the filter families beyond the Gaussian 5x5 ladder (box, separable Gaussian,
// recursive Gaussian, transpose, Sobel, median, morphology). Each family adds itself here.
#include "../Catalogue.h"

namespace fwb {

void registerExtraFilters(std::vector<FilterSpec> &out)
{
    (void)out; // the families of issue 4 register here as they land
}

} // namespace fwb
