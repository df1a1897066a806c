// The translation unit that builds the library modules' shared precompiled header
// (servebench_library_pch in CMakeLists.txt); it has no code of its own.
