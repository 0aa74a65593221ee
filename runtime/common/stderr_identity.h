// Which file fd 2 was when the runtime started. A program may close fd 2 and
// reuse the number for one of its own files (daemons, tools that redirect
// their diagnostics): the runtime must then never write its report or its
// messages there, since that would corrupt the program's file.
#pragma once

namespace numaperf {

// Records the identity (device and inode) of fd 2; call once at start-up.
void rememberStderr();
// True when fd 2 is open and still the file it was at start-up (or when
// rememberStderr was never called and fd 2 is open).
bool stderrIsOriginal();

}  // namespace numaperf
