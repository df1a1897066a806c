#pragma once
// Process resource limits a load generator or a simulator serving thousands of streams needs.

namespace servebench::util {

// Raises the soft limit on open files to the hard limit (one socket per stream: a large run needs
// more than the usual 1024). Best effort: leaves the limit as it was when the OS refuses.
void raise_open_file_limit();

}  // namespace servebench::util
