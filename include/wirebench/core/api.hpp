#pragma once
// WIREBENCH_API marks what libwirebench_framing.so exports: the public classes and functions of
// the installed headers. The library is built with hidden visibility (src/CMakeLists.txt), so what
// is not marked (the engine's lanes and links, the reactor wait, detail::) and the Asio and
// standard-library code instantiated inside it stay private: its exported symbols are its API,
// not the Asio version it happened to be built with. A static library ignores the mark.
#if defined(__GNUC__)
#define WIREBENCH_API __attribute__((visibility("default")))
#else
#define WIREBENCH_API
#endif
