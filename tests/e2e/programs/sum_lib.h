#pragma once
#include <cstddef>
double sum_range(const double *v, size_t n);
