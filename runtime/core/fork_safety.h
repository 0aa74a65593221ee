// fork() from a multithreaded program: the runtime's locks are all taken
// before the fork and released after it in parent and child, so the child
// never inherits a lock that a thread left behind in the parent was holding.
// The child then continues the profile as its own run (its own pid, only the
// forking thread alive) and writes its own report at exit.
#pragma once

namespace numaperf {

void installForkHandlers();

}  // namespace numaperf
