#pragma once
// What a command line that did not parse probably meant: the subcommand or the flag a typo is
// nearest to ("wirebench rn" -> run, "--wrokers" -> --workers), as git and cargo suggest.
// Start-up code.
#include <string>

#include <CLI/CLI.hpp>

namespace wirebench::app {

// " (did you mean --workers?)" for the first word of argv that names nothing but is near a name
// `app` knows; empty when there is none.
std::string typo_hint(CLI::App& app, int argc, const char* const* argv);

}  // namespace wirebench::app
