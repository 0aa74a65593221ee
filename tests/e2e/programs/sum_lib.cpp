#include "sum_lib.h"
double sum_range(const double *v, size_t n) {
  double s = 0;
  for (int r = 0; r < 3; ++r)
    for (size_t i = 0; i < n; ++i) s += v[i];
  return s;
}
