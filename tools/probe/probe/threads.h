// Running work on threads bound to PUs; exceptions travel back to the caller.
#pragma once
#include <hwloc.h>

#include <exception>
#include <functional>
#include <thread>

#include "probe/placement.h"

namespace numaperf::probe {

// Runs fn on a new thread bound to puOs, waits for it, rethrows its exception.
template <class Fn>
void runOnPu(hwloc_topology_t topo, unsigned puOs, Fn&& fn) {
  std::exception_ptr err;
  std::thread t([&] {
    try {
      bindThreadToPu(topo, puOs);
      fn();
    } catch (...) {
      err = std::current_exception();
    }
  });
  t.join();
  if (err) std::rethrow_exception(err);
}

}  // namespace numaperf::probe
