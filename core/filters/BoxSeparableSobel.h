// The filter families registered by registerBoxSeparableSobel(), one file each (issue 4 items 1, 2, 5).
#pragma once

#include "../Catalogue.h"

#include <vector>

namespace fwb {

void registerBoxFilters(std::vector<FilterSpec> &out);        // BoxFilters.cpp: box3x3_interior, box
void registerGaussianSeparable(std::vector<FilterSpec> &out); // GaussianSeparable.cpp: gaussian
void registerSobel(std::vector<FilterSpec> &out);             // Sobel.cpp: sobel

} // namespace fwb
