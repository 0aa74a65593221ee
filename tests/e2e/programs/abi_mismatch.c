// Pretends to be a module built for another hook ABI version. Expected: one
// clear message, profiling off, the program runs on with its own status.
#include <stdint.h>
#include <stdio.h>
void __numaperf_register_module(uint32_t, const void *, uint64_t);
int main(void) {
  __numaperf_register_module(999, 0, 0);
  puts("still running");
  return 7;
}
